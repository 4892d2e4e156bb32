/**
 * HPACK encoder (RFC 7541 §3.1, §6) with a strategy tuned for compression ratio.
 *
 * For each field, in order of preference:
 * 1. the exact (name, value) is in a table: send its index (§6.1), 1-2 bytes;
 * 2. otherwise send a literal (§6.2), reusing a table index for the name when there is one, and decide
 *    whether to insert it into the dynamic table (see `indexing-policy.ts`);
 * 3. `sensitive: true` fields are always "never indexed" literals (§7.1.3) with a plain value, so no
 *    intermediary can index them and compression-ratio attacks learn nothing from the table.
 * Strings are Huffman-coded under `huffman: 'auto'` only when that is strictly shorter (§5.2).
 *
 * Table size changes from the peer's SETTINGS are signalled at the start of the next block; when the
 * size went down and back up in between, both the minimum and the final size are sent (§4.2).
 */
import { WireError } from '../errors';
import type { DynamicTableRow, EncodableField, HpackStep, HpackTableState } from './annotations';
import { DEFAULT_HEADER_TABLE_SIZE } from './decoder';
import { DynamicTable, ENTRY_OVERHEAD } from './dynamic-table';
import { IndexingPolicy } from './indexing-policy';
import { ByteWriter, textToOctets } from './primitives';
import { STATIC_FIELD_INDEX, STATIC_NAME_INDEX, STATIC_TABLE, STATIC_TABLE_LENGTH } from './static-table';

export type HuffmanMode = 'auto' | 'always' | 'never';

export interface HpackEncoderOptions {
  /**
   * Dynamic table size both sides start from: the peer's SETTINGS_HEADER_TABLE_SIZE. Default 4096.
   * Use `setMaxTableSize` for later changes, which are signalled in the next block.
   */
  maxTableSize?: number;
  /** When to Huffman-code strings. Default 'auto' (only when shorter). */
  huffman?: HuffmanMode;
}

export interface EncodedBlock {
  readonly bytes: Uint8Array;
  readonly steps: HpackStep[];
}

export class HpackEncoder {
  private readonly table: DynamicTable;
  private readonly huffman: HuffmanMode;
  /**
   * name -> value -> insertion sequence number of the newest dynamic entry holding that field, and
   * name -> newest entry with that name. Two levels rather than a "name\0value" key: the strings of a
   * header list keep their cached hashes, a concatenated key would be hashed anew on every lookup.
   */
  private fieldSeq = new Map<string, Map<string, number>>();
  private fieldCount = 0;
  private nameSeq = new Map<string, number>();
  /** Size updates owed at the start of the next block. */
  private pendingMin: number | null = null;
  private pendingFinal: number | null = null;
  /** Entries those updates evicted here already; the decoder will evict them at the first update. */
  private pendingEvicted = 0;
  private readonly out = new ByteWriter(1024);
  private readonly policy = new IndexingPolicy();

  constructor(options: HpackEncoderOptions = {}) {
    const size = options.maxTableSize ?? DEFAULT_HEADER_TABLE_SIZE;
    checkSize(size);
    this.huffman = options.huffman ?? 'auto';
    if (!['auto', 'always', 'never'].includes(this.huffman)) {
      throw new WireError({
        code: 'INVALID_ARGUMENT',
        side: 'local',
        message: `huffman: expected 'auto', 'always' or 'never', got ${String(options.huffman)}.`,
      });
    }
    // Like the decoder's option, this is the size both sides start from (the RFC 7541 Appendix C.5
    // examples start at 256 without a size update), so nothing is signalled for it.
    this.table = new DynamicTable(size);
  }

  /** The peer changed SETTINGS_HEADER_TABLE_SIZE: use that size from the next block on. */
  setMaxTableSize(size: number): void {
    checkSize(size);
    if (size === this.table.maxSize && this.pendingFinal === null) return; // nothing changed, nothing to signal
    this.pendingMin = Math.min(this.pendingMin ?? size, size);
    this.pendingFinal = size;
    this.pendingEvicted += this.table.setMaxSize(size);
  }

  get tableState(): HpackTableState {
    return { size: this.table.size, maxSize: this.table.maxSize, entries: this.table.snapshot() as DynamicTableRow[] };
  }

  encode(fields: readonly EncodableField[]): Uint8Array {
    return this.run(fields, null);
  }

  encodeAnnotated(fields: readonly EncodableField[]): EncodedBlock {
    const steps: HpackStep[] = [];
    const bytes = this.run(fields, steps);
    return { bytes, steps };
  }

  private run(fields: readonly EncodableField[], steps: HpackStep[] | null): Uint8Array {
    const w = this.out;
    w.pos = 0;
    this.flushSizeUpdates(steps);
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      this.encodeField(field, steps);
    }
    return w.finish();
  }

  private flushSizeUpdates(steps: HpackStep[] | null): void {
    if (this.pendingFinal === null) return;
    const sizes = this.pendingMin !== null && this.pendingMin < this.pendingFinal ? [this.pendingMin, this.pendingFinal] : [this.pendingFinal];
    for (const [i, size] of sizes.entries()) {
      const start = this.out.pos;
      this.out.integer(size, 5, 0x20);
      const evicted = i === 0 ? this.pendingEvicted : 0;
      steps?.push({ representation: 'size-update', start, end: this.out.pos, evicted, maxSize: size });
    }
    this.pendingMin = null;
    this.pendingFinal = null;
    this.pendingEvicted = 0;
  }

  private encodeField(field: EncodableField, steps: HpackStep[] | null): void {
    const w = this.out;
    const start = w.pos;
    const { name, value } = field;
    const sensitive = field.sensitive === true;
    // Sensitive values stay out of the policy's history as well as out of the table.
    const repeat = sensitive ? false : this.policy.observe(name, value);
    if (!sensitive) {
      let index = STATIC_FIELD_INDEX.get(name)?.get(value) ?? 0;
      if (index === 0) {
        const seq = this.fieldSeq.get(name)?.get(value);
        if (seq !== undefined) {
          const position = this.table.positionOf(seq);
          if (position > 0) index = STATIC_TABLE_LENGTH + position;
        }
      }
      if (index !== 0) {
        w.integer(index, 7, 0x80);
        if (steps) {
          const entry = index <= STATIC_TABLE_LENGTH ? STATIC_TABLE[index - 1]! : this.table.get(index - STATIC_TABLE_LENGTH)!;
          steps.push({
            representation: 'indexed',
            start,
            end: w.pos,
            evicted: 0,
            name,
            value,
            index,
            table: index <= STATIC_TABLE_LENGTH ? 'static' : 'dynamic',
            bytesSaved: entry.size - ENTRY_OVERHEAD - (w.pos - start),
          });
        }
        return;
      }
    }

    let nameIndex = STATIC_NAME_INDEX.get(name) ?? 0;
    if (nameIndex === 0) {
      const seq = this.nameSeq.get(name);
      if (seq !== undefined) {
        const position = this.table.positionOf(seq);
        if (position > 0) nameIndex = STATIC_TABLE_LENGTH + position;
      }
    }
    const nameOctets = textToOctets(name);
    const valueOctets = textToOctets(value);
    const size = nameOctets.length + valueOctets.length + ENTRY_OVERHEAD;
    const index = !sensitive && size <= this.table.maxSize && this.policy.shouldIndex(name, nameIndex !== 0, repeat);
    if (index) w.integer(nameIndex, 6, 0x40);
    else w.integer(nameIndex, 4, sensitive ? 0x10 : 0x00);
    const huffmanName = nameIndex === 0 ? w.string(nameOctets, this.huffman) : null;
    // Sensitive values go out as plain octets: Huffman lengths leak information about the secret
    // (RFC 7541 §7.1.3 leaves this to the encoder; we take the cautious side).
    const huffmanValue = w.string(valueOctets, sensitive ? 'never' : this.huffman);
    let evicted = 0;
    if (index) {
      const seq = this.table.nextSeq;
      evicted = this.table.add(name, value, size, nameOctets.length);
      let values = this.fieldSeq.get(name);
      if (!values) this.fieldSeq.set(name, (values = new Map()));
      values.set(value, seq);
      this.nameSeq.set(name, seq);
      if (++this.fieldCount > 4 * this.table.length + 64) this.pruneMaps();
    }
    steps?.push({
      representation: index ? 'literal-incremental' : sensitive ? 'literal-never-indexed' : 'literal-without-indexing',
      start,
      end: w.pos,
      evicted,
      name,
      value,
      nameIndex: nameIndex === 0 ? null : nameIndex,
      nameTable: nameIndex === 0 ? null : nameIndex <= STATIC_TABLE_LENGTH ? 'static' : 'dynamic',
      huffmanName,
      huffmanValue,
      addedIndex: index ? STATIC_TABLE_LENGTH + 1 : null,
      bytesSaved: size - ENTRY_OVERHEAD - (w.pos - start),
    });
  }

  /** Drops lookup entries for evicted table entries so the maps stay proportional to the table. */
  private pruneMaps(): void {
    const oldest = this.table.oldestSeq;
    let count = 0;
    for (const [name, values] of this.fieldSeq) {
      for (const [value, seq] of values) if (seq < oldest) values.delete(value);
      if (values.size === 0) this.fieldSeq.delete(name);
      count += values.size;
    }
    this.fieldCount = count;
    for (const [k, seq] of this.nameSeq) if (seq < oldest) this.nameSeq.delete(k);
  }
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 0 || size > 0xffff_ffff) {
    throw new WireError({
      code: 'INVALID_ARGUMENT',
      side: 'local',
      message: `maxTableSize: expected an integer from 0 to 2^32-1, got ${size}.`,
    });
  }
}
