/**
 * The QPACK encoder (RFC 9204 §2.1): turns field lists into field sections, fills the dynamic table
 * through the encoder stream, and reads the decoder stream to learn what the peer has.
 *
 * For each field line, in order of preference:
 * 1. a never-indexed field (`neverIndexed`/`sensitive`, or authorization, proxy-authorization and short
 *    cookie / set-cookie values, which are easy to guess, §7.1.3) is a literal with the N bit set and is
 *    never inserted;
 * 2. an exact match in the static table (Appendix A): 1 byte or 2, and never blocking;
 * 3. an exact match in the dynamic table that is not draining (see below) and either acknowledged or on a
 *    stream allowed to block: an indexed line, post-base when it was inserted during this section;
 * 4. otherwise, when the indexing policy (shared with our HPACK encoder, `hpack/indexing-policy.ts`) says
 *    the field is likely to come back and it fits without evicting anything still needed, insert it (name
 *    by reference when a table has it) and reference the new entry if this stream may block; a field
 *    whose only copy is draining is duplicated (§4.3.4) instead. A stream that may not block would pay
 *    for an insert twice (the instruction, then a literal anyway), so there only a value seen before is
 *    inserted: on the hpack-test-case stories that sends 0.383 of the raw bytes instead of 0.420;
 * 5. a literal, with its name from the static table, else from a referenceable dynamic entry, else literal.
 *
 * Blocking (§2.1.2): a section is "blocking" while its Required Insert Count is above the Known Received
 * Count. A stream may block if it already does or if fewer than `maxBlockedStreams` streams do; otherwise
 * only acknowledged entries are referenced. With `maxBlockedStreams: 0` no section ever references an
 * unacknowledged entry: inserts still happen, and later sections use them once acknowledged.
 *
 * Eviction (§2.1.1): an entry is evictable once acknowledged (absolute index below the Known Received
 * Count) and referenced by no unacknowledged section (nor by the section being encoded). An insert that
 * would evict anything else is not made. To keep inserts possible, entries in the oldest quarter of a full
 * table are "draining" (§2.1.1.1): no new references, so their references run out and they can go.
 *
 * The decoder stream (§4.4): Section Acknowledgment releases the stream's oldest unacknowledged section
 * and raises the Known Received Count to its Required Insert Count; Stream Cancellation releases all of
 * a stream's sections; Insert Count Increment raises the Known Received Count. Acknowledging a section
 * that is not outstanding, an increment of 0, or one beyond the inserts sent are QPACK_DECODER_STREAM_ERROR.
 */
import { IndexingPolicy } from '../../hpack/indexing-policy';
import { textToOctets } from '../../hpack/primitives';
import { WireError } from '../../errors';
import { QPACK_STATIC_FIELD_INDEX, QPACK_STATIC_NAME_INDEX } from '../qpack-static-table';
import { QpackDecoder } from './decoder';
import { snapshot } from './record-parts';
import { decoderInstructionRecord, readDecoderInstructions } from './decoder-stream';
import { QPACK_ENTRY_OVERHEAD, QpackDynamicTable, type QpackEntry } from './dynamic-table';
import { QpackError } from './errors';
import { type QpackHuffmanMode, QpackWriter } from './primitives';
import type { QpackDecoderInstructionRecord, QpackEncoderInstructionRecord, QpackFieldLineRecord, QpackSectionPrefix, QpackTableRow } from './records';

export interface QpackEncodableField {
  readonly name: string;
  readonly value: string;
  /** Send as a literal with the N bit (§4.5.4) and never insert it: for credentials. */
  readonly neverIndexed?: boolean;
  /** The same as `neverIndexed` (the HPACK encoder's name for it). */
  readonly sensitive?: boolean;
}

export interface QpackEncoderOptions {
  /** The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY (§3.2.3). */
  readonly maxTableCapacity: number;
  /** The peer's SETTINGS_QPACK_BLOCKED_STREAMS (§2.1.2). */
  readonly maxBlockedStreams: number;
  /**
   * The capacity to use, at most `maxTableCapacity` (default: all of it). A non-zero capacity is announced
   * with Set Dynamic Table Capacity at the start of the first encoder-stream bytes (§3.2.2: it starts at 0).
   */
  readonly tableCapacity?: number;
  /** When to Huffman-code strings. Default 'auto' (only when shorter). */
  readonly huffman?: QpackHuffmanMode;
  /** Also return per-line and per-instruction records for the docs' views (slower). Default false. */
  readonly annotate?: boolean;
}

export interface QpackEncodedSection {
  /** The encoded field section: the payload of a HEADERS frame. */
  readonly fieldSection: Uint8Array;
  /** Encoder-stream bytes to send before (or with) it: empty when nothing was inserted. */
  readonly encoderStream: Uint8Array;
  /** With `annotate: true`. */
  readonly prefix?: QpackSectionPrefix;
  readonly lines?: readonly QpackFieldLineRecord[];
  readonly instructions?: readonly QpackEncoderInstructionRecord[];
}

export interface QpackEncoderTableRow extends QpackTableRow {
  /** Unacknowledged field sections referencing the entry (the 'Ref' column of RFC 9204 Appendix B). */
  readonly references: number;
  /** Below the Known Received Count: the decoder has it. */
  readonly acknowledged: boolean;
}

export interface QpackEncoderTableState {
  readonly capacity: number;
  readonly size: number;
  readonly insertCount: number;
  readonly knownReceivedCount: number;
  readonly entries: readonly QpackEncoderTableRow[];
}

interface Outstanding {
  readonly requiredInsertCount: number;
  readonly refs: readonly number[];
}

/** Bytes kept free before a section's lines for its prefix: two integers, each at most 10 bytes for 62 bits. */
const PREFIX_ROOM = 20;

/** Cookies shorter than this are guessable by probing the table (§7.1.3); nghttp2 draws the same line. */
const SHORT_COOKIE = 20;

function autoNeverIndexed(name: string, value: string): boolean {
  if (name === 'authorization' || name === 'proxy-authorization') return true;
  return (name === 'cookie' || name === 'set-cookie') && value.length < SHORT_COOKIE;
}

const local = (message: string): WireError => new WireError({ code: 'QPACK_ENCODER_MISUSE', side: 'local', message });

export class QpackEncoder {
  #maxTableCapacity: number;
  #maxBlockedStreams: number;
  #maxEntries: number;
  readonly #huffman: QpackHuffmanMode;
  readonly #table = new QpackDynamicTable();
  /** Absolute index -> unacknowledged sections referencing it. */
  readonly #refs = new Map<number, number>();
  /** Stream -> its unacknowledged sections that reference the dynamic table, oldest first. */
  readonly #sections = new Map<number, Outstanding[]>();
  #known = 0;
  /** name -> value -> newest absolute index holding it; name -> newest absolute index with that name. */
  readonly #fieldIndex = new Map<string, Map<string, number>>();
  readonly #nameIndex = new Map<string, number>();
  readonly #policy = new IndexingPolicy();
  readonly #stream = new QpackWriter(256);
  readonly #section = new QpackWriter(256);
  readonly #head = new QpackWriter(PREFIX_ROOM);
  /** Decoder-stream bytes not yet a whole instruction, and the stream offset of their first byte. */
  #pending: Uint8Array = new Uint8Array(0);
  #pendingOffset = 0;
  #failed: QpackError | null = null;
  /** With `annotate`: a decoder fed our own output, which describes it exactly as the peer will read it. */
  #shadow: QpackDecoder | null;
  #decoderRecords: QpackDecoderInstructionRecord[] = [];
  #taken: QpackEncoderInstructionRecord[] = [];
  /** First absolute index that is not draining, cached per table change. */
  #draining = -1;

  constructor(options: QpackEncoderOptions) {
    for (const key of ['maxTableCapacity', 'maxBlockedStreams'] as const) {
      const v = options[key];
      if (!Number.isSafeInteger(v) || v < 0) throw local(`QpackEncoder: ${key} must be a non-negative integer, got ${v}.`);
    }
    this.#maxTableCapacity = options.maxTableCapacity;
    this.#maxBlockedStreams = options.maxBlockedStreams;
    this.#maxEntries = Math.floor(options.maxTableCapacity / QPACK_ENTRY_OVERHEAD);
    this.#huffman = options.huffman ?? 'auto';
    this.#shadow = options.annotate ? new QpackDecoder({ maxTableCapacity: options.maxTableCapacity, maxBlockedStreams: 0, annotate: true }) : null;
    const capacity = options.tableCapacity ?? options.maxTableCapacity;
    if (capacity > 0) this.setTableCapacity(capacity);
  }

  /** The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY. */
  get maxTableCapacity(): number {
    return this.#maxTableCapacity;
  }
  /** The peer's SETTINGS_QPACK_BLOCKED_STREAMS. */
  get maxBlockedStreams(): number {
    return this.#maxBlockedStreams;
  }

  /**
   * The peer's SETTINGS arrived. Until then a client that did not use 0-RTT must assume a maximum capacity
   * of 0 (§3.2.3), so the encoder starts with 0 and learns the real limits here; `tableCapacity` (default:
   * the new maximum) is announced in the next encoder-stream bytes. If the encoder already had a non-zero
   * maximum (remembered for 0-RTT), the peer must repeat it: any other value is QPACK_DECODER_STREAM_ERROR.
   */
  applyPeerSettings(settings: { readonly maxTableCapacity: number; readonly maxBlockedStreams: number }, tableCapacity = settings.maxTableCapacity): void {
    this.#check();
    const { maxTableCapacity, maxBlockedStreams } = settings;
    for (const [key, v] of [
      ['maxTableCapacity', maxTableCapacity],
      ['maxBlockedStreams', maxBlockedStreams],
    ] as const) {
      if (!Number.isSafeInteger(v) || v < 0) throw local(`applyPeerSettings: ${key} must be a non-negative integer, got ${v}.`);
    }
    if (this.#maxTableCapacity !== 0) {
      if (maxTableCapacity !== this.#maxTableCapacity) {
        this.#failed = new QpackError(
          'QPACK_DECODER_STREAM_ERROR',
          `The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY is ${maxTableCapacity}, but ${this.#maxTableCapacity} was remembered and used: it must be sent again unchanged (RFC 9204 §3.2.3).`,
          0,
          'decoder-stream',
        );
        throw this.#failed;
      }
      this.#maxBlockedStreams = maxBlockedStreams;
      return;
    }
    this.#maxTableCapacity = maxTableCapacity;
    this.#maxBlockedStreams = maxBlockedStreams;
    this.#maxEntries = Math.floor(maxTableCapacity / QPACK_ENTRY_OVERHEAD);
    if (this.#shadow) this.#shadow = new QpackDecoder({ maxTableCapacity, maxBlockedStreams: 0, annotate: true });
    if (tableCapacity > 0) this.setTableCapacity(tableCapacity);
  }

  get insertCount(): number {
    return this.#table.insertCount;
  }
  /** Inserts the decoder has acknowledged (§2.1.4). */
  get knownReceivedCount(): number {
    return this.#known;
  }
  /** Streams whose unacknowledged sections could block at the decoder (§2.1.2). */
  get blockingStreams(): number[] {
    const out: number[] = [];
    for (const [id, list] of this.#sections) if (list.some((s) => s.requiredInsertCount > this.#known)) out.push(id);
    return out;
  }

  tableState(): QpackEncoderTableState {
    const t = this.#table;
    return {
      capacity: t.capacity,
      size: t.size,
      insertCount: t.insertCount,
      knownReceivedCount: this.#known,
      entries: t.entries().map((e) => ({
        absoluteIndex: e.absoluteIndex,
        name: e.name,
        value: e.value,
        size: e.size,
        references: this.#refs.get(e.absoluteIndex) ?? 0,
        acknowledged: e.absoluteIndex < this.#known,
      })),
    };
  }

  /** Encoder-stream bytes written by `setTableCapacity`, `insert` or `duplicate` and not yet taken. */
  takeEncoderStream(): Uint8Array {
    const bytes = this.#stream.take();
    if (this.#shadow) {
      this.#shadow.receiveEncoderStream(bytes);
      this.#taken.push(...this.#shadow.takeEncoderInstructions());
    }
    return bytes;
  }

  /** With `annotate: true`: records of the encoder-stream bytes handed out by `takeEncoderStream`. */
  takeEncoderInstructions(): QpackEncoderInstructionRecord[] {
    const out = this.#taken;
    this.#taken = [];
    return out;
  }

  /** With `annotate: true`: the decoder instructions read since the last call. */
  takeDecoderInstructions(): QpackDecoderInstructionRecord[] {
    const out = this.#decoderRecords;
    this.#decoderRecords = [];
    return out;
  }

  /** §4.3.1: changes the capacity (at most `maxTableCapacity`); refuses to evict entries that are not evictable. */
  setTableCapacity(capacity: number): void {
    this.#check();
    if (!Number.isSafeInteger(capacity) || capacity < 0 || capacity > this.#maxTableCapacity) {
      throw local(`Table capacity ${capacity} is outside 0-${this.#maxTableCapacity} (the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY, RFC 9204 §3.2.3).`);
    }
    const evict = this.#table.wouldEvict(0, capacity) ?? [];
    const stuck = evict.find((e) => !this.#evictable(e.absoluteIndex, null));
    if (stuck) {
      throw local(
        `Lowering the capacity to ${capacity} would evict entry ${stuck.absoluteIndex}, which is ${stuck.absoluteIndex >= this.#known ? 'not yet acknowledged' : 'still referenced'} (RFC 9204 §2.1.1).`,
      );
    }
    this.#stream.integer(capacity, 5, 0x20);
    this.#forget(this.#table.setCapacity(capacity));
  }

  /**
   * Inserts a field (§4.3.2, §4.3.3: the name by reference when a table has it) and returns its absolute
   * index. Throws when it cannot fit without evicting an entry that is not evictable.
   */
  insert(field: { name: string; value: string }): number {
    this.#check();
    const name = textToOctets(field.name);
    const value = textToOctets(field.value);
    const size = name.length + value.length + QPACK_ENTRY_OVERHEAD;
    if (!this.#canInsert(size, null)) {
      throw local(
        `Cannot insert ${field.name}: the ${size}-byte entry does not fit the table (capacity ${this.#table.capacity}) without evicting entries still needed (RFC 9204 §2.1.1).`,
      );
    }
    return this.#insert(name, value);
  }

  /** §4.3.4: inserts a copy of the entry at `absoluteIndex` and returns the copy's absolute index. */
  duplicate(absoluteIndex: number): number {
    this.#check();
    const e = this.#table.get(absoluteIndex);
    if (!e) throw local(`Cannot duplicate absolute index ${absoluteIndex}: the table holds ${this.#table.dropped}-${this.#table.insertCount - 1}.`);
    if (!this.#canInsert(e.size, null))
      throw local(`Cannot duplicate entry ${absoluteIndex}: no room without evicting entries still needed (RFC 9204 §2.1.1).`);
    return this.#duplicate(e);
  }

  /** Encodes one field section for `streamId`; `encoderStream` carries the inserts it relies on. */
  encodeFieldSection(streamId: number, fields: readonly QpackEncodableField[]): QpackEncodedSection {
    this.#check();
    const table = this.#table;
    const w = this.#section;
    // The lines are written after room for the prefix, which is known only at the end (§4.5.1).
    w.pos = PREFIX_ROOM;
    const base = table.insertCount;
    const current = new Set<number>();
    const mayBlock = this.#isBlocking(streamId) || this.#blockingCount() < this.#maxBlockedStreams;
    const huffman = this.#huffman;
    for (const field of fields) {
      const name = textToOctets(field.name);
      const value = textToOctets(field.value);
      const never = field.neverIndexed === true || field.sensitive === true || autoNeverIndexed(name, value);
      if (!never) {
        const exact = QPACK_STATIC_FIELD_INDEX.get(name)?.get(value);
        if (exact !== undefined) {
          w.integer(exact, 6, 0xc0); // §4.5.2 1 T=1 index
          continue;
        }
        const repeat = this.#policy.observe(name, value);
        let abs = this.#fieldIndex.get(name)?.get(value);
        if (abs !== undefined && this.#usable(abs, mayBlock)) {
          this.#indexed(abs, base);
          current.add(abs);
          continue;
        }
        const size = name.length + value.length + QPACK_ENTRY_OVERHEAD;
        if (table.capacity > 0 && this.#canInsert(size, current)) {
          if (abs !== undefined && mayBlock) {
            // The only copy is draining (or unusable): a Duplicate keeps the field referenceable (§2.1.1.1).
            abs = this.#duplicate(table.get(abs)!);
            this.#indexed(abs, base);
            current.add(abs);
            continue;
          }
          // A stream that may not block pays for an insert twice (instruction + literal): only a value
          // seen before is likely enough to come back.
          const worth = mayBlock ? this.#policy.shouldIndex(name, QPACK_STATIC_NAME_INDEX.has(name) || this.#nameIndex.has(name), repeat) : repeat;
          if (abs === undefined && worth) {
            abs = this.#insert(name, value);
            if (mayBlock) {
              this.#indexed(abs, base);
              current.add(abs);
              continue;
            }
          }
        }
      }
      const n = never ? 0x20 : 0;
      const staticName = QPACK_STATIC_NAME_INDEX.get(name);
      if (staticName !== undefined) {
        w.integer(staticName, 4, 0x50 | n); // §4.5.4 01 N T=1 index
      } else {
        const abs = this.#nameIndex.get(name);
        if (abs !== undefined && this.#usable(abs, mayBlock)) {
          if (abs < base)
            w.integer(base - 1 - abs, 4, 0x40 | n); // §4.5.4 01 N T=0 relative index
          else w.integer(abs - base, 3, never ? 0x08 : 0); // §4.5.5 0000 N post-base index
          current.add(abs);
        } else {
          w.str(name, 3, 0x08, 0x20 | (never ? 0x10 : 0), never ? 'never' : huffman); // §4.5.6 001 N H len
        }
      }
      w.str(value, 7, 0x80, 0, never ? 'never' : huffman);
    }
    // §4.5.1: the prefix, now that the Required Insert Count is known.
    let highest = -1;
    for (const abs of current) if (abs > highest) highest = abs;
    const ric = highest + 1;
    const head = this.#head;
    head.pos = 0;
    if (ric === 0) {
      head.integer(0, 8, 0);
      head.integer(0, 7, 0);
    } else {
      head.integer((ric % (2 * this.#maxEntries)) + 1, 8, 0); // §4.5.1.1
      if (base >= ric) head.integer(base - ric, 7, 0x00);
      else head.integer(ric - base - 1, 7, 0x80); // §4.5.1.2: S=1
      const refs = [...current];
      for (const abs of refs) this.#refs.set(abs, (this.#refs.get(abs) ?? 0) + 1);
      const list = this.#sections.get(streamId);
      if (list) list.push({ requiredInsertCount: ric, refs });
      else this.#sections.set(streamId, [{ requiredInsertCount: ric, refs }]);
    }
    const start = PREFIX_ROOM - head.pos;
    for (let i = 0; i < head.pos; i++) w.buf[start + i] = head.buf[i]!;
    const fieldSection = w.buf.slice(start, w.pos);
    const encoderStream = this.#stream.take();
    const shadow = this.#shadow;
    if (!shadow) return { fieldSection, encoderStream };
    shadow.receiveEncoderStream(encoderStream);
    const instructions = shadow.takeEncoderInstructions();
    const decoded = shadow.decodeFieldSection(streamId, fieldSection);
    shadow.takeDecoderStream(); // its acknowledgments are not ours to send
    if ('blocked' in decoded) throw new Error('unreachable: the shadow decoder has every insert');
    return { fieldSection, encoderStream, prefix: decoded.prefix!, lines: decoded.lines!, instructions };
  }

  /** Applies decoder-stream bytes (any split). Errors are QPACK_DECODER_STREAM_ERROR with the stream offset. */
  receiveDecoderStream(bytes: Uint8Array): void {
    this.#check();
    let buf: Uint8Array;
    if (this.#pending.length === 0) buf = bytes;
    else {
      buf = new Uint8Array(this.#pending.length + bytes.length);
      buf.set(this.#pending);
      buf.set(bytes, this.#pending.length);
    }
    try {
      const { instructions, consumed } = readDecoderInstructions(buf, this.#pendingOffset);
      for (const i of instructions) {
        const fail = (message: string): QpackError => new QpackError('QPACK_DECODER_STREAM_ERROR', message, i.start, 'decoder-stream');
        if (i.kind === 'section-ack') {
          const list = this.#sections.get(i.value);
          const section = list?.shift();
          if (!section) {
            throw fail(
              `Section Acknowledgment for stream ${i.value}, which has no unacknowledged field section that uses the dynamic table (RFC 9204 §4.4.1).`,
            );
          }
          if (list!.length === 0) this.#sections.delete(i.value);
          this.#release(section);
          if (section.requiredInsertCount > this.#known) this.#known = section.requiredInsertCount;
        } else if (i.kind === 'stream-cancel') {
          for (const section of this.#sections.get(i.value) ?? []) this.#release(section);
          this.#sections.delete(i.value);
        } else {
          if (i.value === 0) throw fail('Insert Count Increment of 0 (RFC 9204 §4.4.3).');
          if (this.#known + i.value > this.#table.insertCount) {
            throw fail(
              `Insert Count Increment of ${i.value} takes the Known Received Count to ${this.#known + i.value}, beyond the ${this.#table.insertCount} inserts sent (RFC 9204 §4.4.3).`,
            );
          }
          this.#known += i.value;
        }
        this.#draining = -1;
        if (this.#shadow) this.#decoderRecords.push(decoderInstructionRecord(buf, this.#pendingOffset, i));
      }
      this.#pending = consumed === buf.length ? new Uint8Array(0) : buf.slice(consumed);
      this.#pendingOffset += consumed;
    } catch (error) {
      if (error instanceof QpackError) this.#failed = error;
      throw error;
    }
  }

  #check(): void {
    if (this.#failed) throw this.#failed;
  }

  #blockingCount(): number {
    let n = 0;
    for (const list of this.#sections.values()) if (list.some((s) => s.requiredInsertCount > this.#known)) n++;
    return n;
  }

  #isBlocking(streamId: number): boolean {
    const list = this.#sections.get(streamId);
    return list?.some((s) => s.requiredInsertCount > this.#known) ?? false;
  }

  #release(section: Outstanding): void {
    for (const abs of section.refs) {
      const n = (this.#refs.get(abs) ?? 1) - 1;
      if (n === 0) this.#refs.delete(abs);
      else this.#refs.set(abs, n);
    }
  }

  /** §2.1.1: acknowledged, and referenced by no unacknowledged section nor by the one being encoded. */
  #evictable(abs: number, current: ReadonlySet<number> | null): boolean {
    return abs < this.#known && !this.#refs.has(abs) && !(current?.has(abs) ?? false);
  }

  #canInsert(size: number, current: ReadonlySet<number> | null): boolean {
    const evict = this.#table.wouldEvict(size);
    return evict?.every((e) => this.#evictable(e.absoluteIndex, current)) ?? false;
  }

  /** §2.1.1.1: the oldest entries that fill more than three quarters of the capacity are not referenced. */
  #drainingIndex(): number {
    if (this.#draining >= 0) return this.#draining;
    const t = this.#table;
    const excess = t.size - Math.floor((t.capacity * 3) / 4);
    let index = t.dropped;
    for (let freed = 0; freed < excess; index++) freed += t.get(index)!.size;
    this.#draining = index;
    return index;
  }

  /** May this section reference entry `abs`: present, not draining, and acknowledged unless it may block. */
  #usable(abs: number, mayBlock: boolean): boolean {
    return abs >= this.#drainingIndex() && (abs < this.#known || mayBlock) && this.#table.get(abs) !== undefined;
  }

  #indexed(abs: number, base: number): void {
    if (abs < base)
      this.#section.integer(base - 1 - abs, 6, 0x80); // §4.5.2 1 T=0 relative index
    else this.#section.integer(abs - base, 4, 0x10); // §4.5.3 0001 post-base index
  }

  #insert(name: string, value: string): number {
    const t = this.#table;
    const s = this.#stream;
    const staticName = QPACK_STATIC_NAME_INDEX.get(name);
    const dynamicName = staticName === undefined ? this.#nameIndex.get(name) : undefined;
    if (staticName !== undefined) {
      s.integer(staticName, 6, 0xc0); // §4.3.2 1 T=1 index
    } else if (dynamicName !== undefined) {
      s.integer(t.insertCount - 1 - dynamicName, 6, 0x80); // §4.3.2 1 T=0 relative index
    } else {
      s.str(name, 5, 0x20, 0x40, this.#huffman); // §4.3.3 01 H len
    }
    s.str(value, 7, 0x80, 0, this.#huffman);
    return this.#added(t.insert(name, value, name.length, value.length));
  }

  #duplicate(e: QpackEntry): number {
    const t = this.#table;
    this.#stream.integer(t.insertCount - 1 - e.absoluteIndex, 5, 0x00); // §4.3.4 000 relative index
    return this.#added(t.insert(e.name, e.value, e.nameOctets, e.size - e.nameOctets - QPACK_ENTRY_OVERHEAD));
  }

  #added({ entry, evicted }: { entry: QpackEntry; evicted: QpackEntry[] }): number {
    this.#forget(evicted);
    let byValue = this.#fieldIndex.get(entry.name);
    if (!byValue) this.#fieldIndex.set(entry.name, (byValue = new Map()));
    byValue.set(entry.value, entry.absoluteIndex);
    this.#nameIndex.set(entry.name, entry.absoluteIndex);
    this.#draining = -1;
    return entry.absoluteIndex;
  }

  #forget(evicted: readonly QpackEntry[]): void {
    for (const e of evicted) {
      if (!this.#evictable(e.absoluteIndex, null)) throw new Error(`bug: evicted entry ${e.absoluteIndex}, which is not evictable`);
      const byValue = this.#fieldIndex.get(e.name);
      if (byValue?.get(e.value) === e.absoluteIndex) {
        byValue.delete(e.value);
        if (byValue.size === 0) this.#fieldIndex.delete(e.name);
      }
      if (this.#nameIndex.get(e.name) === e.absoluteIndex) this.#nameIndex.delete(e.name);
    }
    this.#draining = -1;
  }
}

/** For tests: the table as the decoder sees it, to compare with the encoder's. */
export { snapshot as qpackTableSnapshot };
