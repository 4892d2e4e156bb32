/**
 * HPACK decoder (RFC 7541 §3.2, §6). Turns header blocks into header lists, keeping the dynamic table
 * in step with the peer's encoder.
 *
 * Rules enforced here, each a COMPRESSION_ERROR when broken:
 * - index 0, or an index past the end of both tables (§2.3.3, §6.1);
 * - a dynamic table size update after the first field of a block (§4.2) or above the limit we
 *   advertised with SETTINGS_HEADER_TABLE_SIZE (§6.3);
 * - no size update at the start of the first block after we lowered that limit below the table's
 *   current maximum (§4.2): the encoder must acknowledge the smaller table before using it;
 * - truncated integers and strings, oversized integers, invalid Huffman data (§5).
 * After a COMPRESSION_ERROR the decoder refuses all further blocks: its table can no longer be trusted.
 *
 * The header list size limit (SETTINGS_MAX_HEADER_LIST_SIZE, RFC 9113 §6.5.2) is applied while the block
 * is processed: fields past it are not kept, the rest of the block still updates the table, and only that
 * one list is refused (HEADER_LIST_TOO_LARGE) once the block ends.
 */
import { WireError } from '../errors';
import type { DynamicTableRow, HeaderField, HpackStep, HpackTableState } from './annotations';
import { DynamicTable, ENTRY_OVERHEAD } from './dynamic-table';
import { HpackError, compressionError } from './errors';
import { ByteReader, octetLength } from './primitives';
import { STATIC_TABLE, STATIC_TABLE_LENGTH } from './static-table';

export interface HpackDecoderOptions {
  /** Our SETTINGS_HEADER_TABLE_SIZE: the largest table the peer's encoder may use. Default 4096. */
  maxTableSize?: number;
  /** Largest header list accepted (sum of name + value + 32 per field). Default: unlimited. */
  maxHeaderListSize?: number;
}

export interface DecodedBlock {
  readonly fields: HeaderField[];
  readonly steps: HpackStep[];
}

export const DEFAULT_HEADER_TABLE_SIZE = 4096;

/** Scratch for the string reader's side results (reused: decoding is synchronous). */
const literal = { huffman: false, octets: 0 };

export class HpackDecoder {
  private readonly table: DynamicTable;
  /** The limit from our SETTINGS; the table's own maximum follows the encoder's size updates. */
  private settingsLimit: number;
  private updateRequired = false;
  private failed: HpackError | null = null;
  private maxHeaderListSize: number;

  constructor(options: HpackDecoderOptions = {}) {
    const size = options.maxTableSize ?? DEFAULT_HEADER_TABLE_SIZE;
    checkSize(size, 'maxTableSize');
    this.settingsLimit = size;
    this.table = new DynamicTable(size);
    this.maxHeaderListSize = options.maxHeaderListSize ?? Infinity;
  }

  /** Apply a new SETTINGS_HEADER_TABLE_SIZE that we sent and the peer acknowledged. */
  setMaxTableSize(size: number): void {
    checkSize(size, 'setMaxTableSize');
    this.settingsLimit = size;
    if (size < this.table.maxSize) this.updateRequired = true;
  }

  /** Apply a new SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2); Infinity for no limit. */
  setMaxHeaderListSize(size: number): void {
    this.maxHeaderListSize = size;
  }

  /** The dynamic table as the docs show it, newest (index 62) first. */
  get tableState(): HpackTableState {
    return { size: this.table.size, maxSize: this.table.maxSize, entries: this.table.snapshot() as DynamicTableRow[] };
  }

  decode(block: Uint8Array): HeaderField[] {
    return this.run(block, null);
  }

  decodeAnnotated(block: Uint8Array): DecodedBlock {
    const steps: HpackStep[] = [];
    const fields = this.run(block, steps);
    return { fields, steps };
  }

  /**
   * Keeps the table in step with a block whose steps are already known (the peer's encoder reported
   * them with `encodeAnnotated`), without decoding its bytes: applies the size updates and insertions
   * the steps record, with the checks `decode` makes on them. Decoding those bytes instead would give
   * the same steps and leave the table the same (annotations.ts), for text that survives a UTF-8 round
   * trip (the caller checks that); a tracer that shows both ends of a connection uses this to read each
   * field block once.
   */
  follow(steps: readonly HpackStep[]): void {
    if (this.failed) throw this.failed;
    let listSize = 0;
    for (const step of steps) {
      if (step.representation === 'size-update') {
        if (step.maxSize > this.settingsLimit) {
          this.failed = compressionError(
            `Dynamic table size update to ${step.maxSize} exceeds the SETTINGS_HEADER_TABLE_SIZE limit of ${this.settingsLimit} (RFC 7541 §6.3).`,
            step.start,
          );
          throw this.failed;
        }
        this.table.setMaxSize(step.maxSize);
        this.updateRequired = false;
        continue;
      }
      if (this.updateRequired) {
        this.failed = compressionError(
          `Expected a dynamic table size update at the start of this block: SETTINGS_HEADER_TABLE_SIZE was lowered to ${this.settingsLimit} (RFC 7541 §4.2).`,
          step.start,
        );
        throw this.failed;
      }
      if (step.representation !== 'literal-incremental' && this.maxHeaderListSize === Infinity) continue;
      const nameOctets = octetLength(step.name);
      const size = nameOctets + octetLength(step.value) + ENTRY_OVERHEAD;
      if (step.representation === 'literal-incremental') this.table.add(step.name, step.value, size, nameOctets);
      listSize += size;
    }
    if (listSize > this.maxHeaderListSize) {
      throw new HpackError('HEADER_LIST_TOO_LARGE', `Header list of ${listSize} octets exceeds the limit of ${this.maxHeaderListSize} (RFC 9113 §6.5.2).`, 0);
    }
  }

  private run(block: Uint8Array, steps: HpackStep[] | null): HeaderField[] {
    if (this.failed) throw this.failed;
    try {
      return this.decodeBlock(block, steps);
    } catch (err) {
      if (err instanceof HpackError && err.code === 'COMPRESSION_ERROR') this.failed = err;
      throw err;
    }
  }

  private decodeBlock(block: Uint8Array, steps: HpackStep[] | null): HeaderField[] {
    const r = new ByteReader(block);
    const fields: HeaderField[] = [];
    let listSize = 0;
    let fieldSeen = false;
    while (!r.done) {
      const start = r.pos;
      const b = block[start]!;
      if (b & 0x80) {
        // §6.1 indexed header field
        const index = r.integer(7);
        const entry = this.lookup(index, start);
        fieldSeen = true;
        this.checkUpdateDone(start);
        listSize += entry.size;
        // Past the limit the block is still decoded, to keep the table in step, but nothing is kept:
        // an "HPACK bomb" (a few bytes naming one large entry over and over) costs its own size only.
        if (listSize <= this.maxHeaderListSize) fields.push({ name: entry.name, value: entry.value });
        steps?.push({
          representation: 'indexed',
          start,
          end: r.pos,
          evicted: 0,
          name: entry.name,
          value: entry.value,
          index,
          table: index <= STATIC_TABLE_LENGTH ? 'static' : 'dynamic',
          bytesSaved: entry.size - ENTRY_OVERHEAD - (r.pos - start),
        });
        continue;
      }
      if ((b & 0xe0) === 0x20) {
        // §6.3 dynamic table size update
        if (fieldSeen) {
          throw compressionError('Dynamic table size update after a header field; it must come first (RFC 7541 §4.2).', start);
        }
        const size = r.integer(5);
        if (size > this.settingsLimit) {
          throw compressionError(
            `Dynamic table size update to ${size} exceeds the SETTINGS_HEADER_TABLE_SIZE limit of ${this.settingsLimit} (RFC 7541 §6.3).`,
            start,
          );
        }
        const evicted = this.table.setMaxSize(size);
        this.updateRequired = false;
        steps?.push({ representation: 'size-update', start, end: r.pos, evicted, maxSize: size });
        continue;
      }
      // §6.2 literals: 01 incremental (6-bit index), 0001 never indexed, 0000 without indexing (4-bit)
      const incremental = (b & 0xc0) === 0x40;
      fieldSeen = true;
      this.checkUpdateDone(start);
      const nameIndex = r.integer(incremental ? 6 : 4);
      let name: string;
      let nameOctets: number;
      let huffmanName: boolean | null = null;
      if (nameIndex === 0) {
        name = r.string(literal);
        nameOctets = literal.octets;
        huffmanName = literal.huffman;
      } else {
        const entry = this.lookup(nameIndex, start);
        name = entry.name;
        nameOctets = entry.nameOctets ?? octetLength(name);
      }
      const value = r.string(literal);
      const size = nameOctets + literal.octets + ENTRY_OVERHEAD;
      let evicted = 0;
      if (incremental) evicted = this.table.add(name, value, size, nameOctets);
      listSize += size;
      if (listSize <= this.maxHeaderListSize) fields.push({ name, value });
      if (steps) {
        steps.push({
          representation: incremental ? 'literal-incremental' : b & 0x10 ? 'literal-never-indexed' : 'literal-without-indexing',
          start,
          end: r.pos,
          evicted,
          name,
          value,
          nameIndex: nameIndex === 0 ? null : nameIndex,
          nameTable: nameIndex === 0 ? null : nameIndex <= STATIC_TABLE_LENGTH ? 'static' : 'dynamic',
          huffmanName,
          huffmanValue: literal.huffman,
          addedIndex: incremental && size <= this.table.maxSize ? STATIC_TABLE_LENGTH + 1 : null,
          bytesSaved: size - ENTRY_OVERHEAD - (r.pos - start),
        });
      }
    }
    if (listSize > this.maxHeaderListSize) {
      throw new HpackError('HEADER_LIST_TOO_LARGE', `Header list of ${listSize} octets exceeds the limit of ${this.maxHeaderListSize} (RFC 9113 §6.5.2).`, 0);
    }
    return fields;
  }

  private checkUpdateDone(offset: number): void {
    if (this.updateRequired) {
      throw compressionError(
        `Expected a dynamic table size update at the start of this block: SETTINGS_HEADER_TABLE_SIZE was lowered to ${this.settingsLimit} (RFC 7541 §4.2).`,
        offset,
      );
    }
  }

  private lookup(index: number, offset: number): { name: string; value: string; size: number; nameOctets?: number } {
    if (index === 0) throw compressionError('Index 0 is not a valid table index (RFC 7541 §6.1).', offset);
    if (index <= STATIC_TABLE_LENGTH) return STATIC_TABLE[index - 1]!;
    const entry = this.table.get(index - STATIC_TABLE_LENGTH);
    if (!entry) {
      throw compressionError(`Index ${index} is past the end of the tables (61 static + ${this.table.length} dynamic entries; RFC 7541 §2.3.3).`, offset);
    }
    return entry;
  }
}

function checkSize(size: number, what: string): void {
  if (!Number.isInteger(size) || size < 0 || size > 0xffff_ffff) {
    throw new WireError({
      code: 'INVALID_ARGUMENT',
      side: 'local',
      message: `${what}: expected an integer from 0 to 2^32-1, got ${size}.`,
    });
  }
}
