/**
 * The QPACK decoder (RFC 9204 §2.2): reads field sections, applies the encoder stream's instructions to
 * its dynamic table, holds back the sections that need entries not yet received, and writes the decoder
 * stream that tells the encoder what arrived.
 *
 * - A field section whose Required Insert Count is above the table's Insert Count blocks its stream
 *   (§2.2.1) until the encoder stream catches up; `receiveEncoderStream` returns the sections it unblocked.
 *   A later section on a blocked stream waits behind the earlier one. Blocking more streams than
 *   `maxBlockedStreams` (our SETTINGS_QPACK_BLOCKED_STREAMS) is QPACK_DECOMPRESSION_FAILED (§2.1.2).
 * - Encoder-stream bytes may stop anywhere: an incomplete instruction waits for the rest.
 * - The decoder stream (§4.4) carries a Section Acknowledgment for every decoded section that used the
 *   dynamic table, a Stream Cancellation for every stream given up (`cancelStream`), and an Insert Count
 *   Increment for inserts that no acknowledgment has implied yet (§2.2.2.3: coalesced, sent on
 *   `takeDecoderStream`).
 * - Every error of §2.2.3, §3 and §4 is a QpackError with its code and the offset where it was found.
 *   After one, the decoder stays failed: every later call throws the same error. A Required Insert Count
 *   larger than the section's references need is refused as well (§2.2.1 makes that optional: a
 *   conforming encoder sends exactly the count it needs, as nghttp3's does in fixtures/).
 * - Strings are read as UTF-8 (invalid sequences shown as U+FFFD); entry sizes count the octets received.
 */
import { QPACK_STATIC_TABLE } from '../qpack-static-table';
import { QpackError } from './errors';
import { QPACK_ENTRY_OVERHEAD, QpackDynamicTable, type QpackEntry } from './dynamic-table';
import { bitsOf, INCOMPLETE, type QpackString, QpackReader, QpackWriter } from './primitives';
import type { QpackEncoderInstructionRecord, QpackFieldLineKind, QpackFieldLineRecord, QpackPart, QpackSectionPrefix, QpackTableSnapshot } from './records';

export interface QpackDecodedField {
  readonly name: string;
  readonly value: string;
  /** Present when the line had its N bit set (§4.5.4, §7.1.3): re-encode it as a literal with N set. */
  readonly neverIndexed?: true;
}

export interface QpackDecoderOptions {
  /** SETTINGS_QPACK_MAX_TABLE_CAPACITY we sent: the largest capacity the encoder may set (§3.2.3). */
  readonly maxTableCapacity: number;
  /** SETTINGS_QPACK_BLOCKED_STREAMS we sent (§2.1.2). */
  readonly maxBlockedStreams: number;
  /** Also return per-line and per-instruction records for the docs' views (slower). Default false. */
  readonly annotate?: boolean;
}

export interface QpackDecodedSection {
  readonly fields: readonly QpackDecodedField[];
  /** With `annotate: true`: the prefix and one record per field line. */
  readonly prefix?: QpackSectionPrefix;
  readonly lines?: readonly QpackFieldLineRecord[];
}

export interface QpackBlockedSection {
  readonly blocked: true;
  readonly requiredInsertCount: number;
  /** The Insert Count when the section arrived. */
  readonly insertCount: number;
}

export interface QpackUnblockedSection extends QpackDecodedSection {
  readonly streamId: number;
}

interface Prefix {
  readonly encodedInsertCount: number;
  readonly requiredInsertCount: number;
  readonly sign: boolean;
  readonly deltaBase: number;
  readonly base: number;
  readonly end: number;
  readonly ricEnd: number;
}

interface Waiting {
  readonly bytes: Uint8Array;
  readonly prefix: Prefix;
}

function checkLimit(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

export class QpackDecoder {
  readonly maxTableCapacity: number;
  readonly maxBlockedStreams: number;
  readonly #annotate: boolean;
  readonly #maxEntries: number;
  readonly #table = new QpackDynamicTable();
  /** Encoder-stream bytes not yet forming a whole instruction, and the stream offset of their first byte. */
  #pending: Uint8Array = new Uint8Array(0);
  #pendingOffset = 0;
  /** Blocked streams in the order they blocked, each with its sections in arrival order. */
  readonly #blocked = new Map<number, Waiting[]>();
  readonly #out = new QpackWriter(64);
  /** Inserts the encoder knows we received (§2.1.4), as implied by what we sent or queued. */
  #knownReceived = 0;
  #failed: QpackError | null = null;
  #instructions: QpackEncoderInstructionRecord[] = [];

  constructor(options: QpackDecoderOptions) {
    checkLimit('maxTableCapacity', options.maxTableCapacity);
    checkLimit('maxBlockedStreams', options.maxBlockedStreams);
    this.maxTableCapacity = options.maxTableCapacity;
    this.maxBlockedStreams = options.maxBlockedStreams;
    this.#annotate = options.annotate === true;
    // §4.5.1.1: the most entries the table can hold, each at least 32 bytes.
    this.#maxEntries = Math.floor(options.maxTableCapacity / QPACK_ENTRY_OVERHEAD);
  }

  /** Entries inserted so far (the Insert Count, §1.1). */
  get insertCount(): number {
    return this.#table.insertCount;
  }

  /** Streams with a section waiting for the encoder stream. */
  get blockedStreams(): readonly number[] {
    return [...this.#blocked.keys()];
  }

  /** Encoder-stream bytes held back because they end inside an instruction. */
  get pendingEncoderStreamBytes(): number {
    return this.#pending.length;
  }

  /** The error that stopped this decoder, if one did. */
  get error(): QpackError | null {
    return this.#failed;
  }

  tableState(): QpackTableSnapshot {
    return snapshot(this.#table);
  }

  /**
   * Decodes one encoded field section (the payload of a HEADERS frame) received on `streamId`. Returns the
   * fields, or `{ blocked: true }` when it needs entries that have not arrived (§2.2.1); the fields then come
   * out of the `receiveEncoderStream` call that brings them.
   */
  decodeFieldSection(streamId: number, bytes: Uint8Array): QpackDecodedSection | QpackBlockedSection {
    this.#check();
    return this.#guard(() => {
      const prefix = this.#prefix(streamId, bytes);
      const queue = this.#blocked.get(streamId);
      if (prefix.requiredInsertCount > this.#table.insertCount || queue) {
        if (!queue && this.#blocked.size >= this.maxBlockedStreams) {
          throw new QpackError(
            'QPACK_DECOMPRESSION_FAILED',
            `Stream ${streamId} needs Required Insert Count ${prefix.requiredInsertCount} but only ${this.#table.insertCount} entries have arrived, and ${this.#blocked.size} stream${this.#blocked.size === 1 ? ' is' : 's are'} already blocked: more than the ${this.maxBlockedStreams} allowed by SETTINGS_QPACK_BLOCKED_STREAMS (RFC 9204 §2.1.2).`,
            0,
            'field-section',
            streamId,
          );
        }
        const waiting: Waiting = { bytes: Uint8Array.from(bytes), prefix };
        if (queue) queue.push(waiting);
        else this.#blocked.set(streamId, [waiting]);
        return { blocked: true, requiredInsertCount: prefix.requiredInsertCount, insertCount: this.#table.insertCount };
      }
      return this.#decode(streamId, bytes, prefix);
    });
  }

  /**
   * Applies encoder-stream bytes (any split: an instruction cut short waits for the rest) and returns the
   * sections this unblocked, in the order their streams blocked.
   */
  receiveEncoderStream(bytes: Uint8Array): QpackUnblockedSection[] {
    this.#check();
    return this.#guard(() => {
      let buf: Uint8Array;
      if (this.#pending.length === 0) buf = bytes;
      else {
        buf = new Uint8Array(this.#pending.length + bytes.length);
        buf.set(this.#pending);
        buf.set(bytes, this.#pending.length);
      }
      let pos = 0;
      while (pos < buf.length) {
        const next = this.#instruction(buf, pos);
        if (next === null) break;
        pos = next;
      }
      this.#pending = pos === buf.length ? new Uint8Array(0) : buf.slice(pos);
      this.#pendingOffset += pos;
      return this.#unblock();
    });
  }

  /**
   * Gives up the sections of `streamId` (the stream was reset or its reading abandoned, §2.2.2.2) and
   * queues a Stream Cancellation, unless our capacity is 0 (then there can be no references to cancel).
   */
  cancelStream(streamId: number): void {
    this.#check();
    this.#blocked.delete(streamId);
    if (this.maxTableCapacity > 0) this.#out.integer(streamId, 6, 0x40);
  }

  /**
   * Decoder-stream bytes to send: the Section Acknowledgments and Stream Cancellations queued so far, then
   * one Insert Count Increment for the inserts no acknowledgment covered (§4.4.3). Empty when there is nothing.
   */
  takeDecoderStream(): Uint8Array {
    const inserted = this.#table.insertCount;
    if (inserted > this.#knownReceived) {
      this.#out.integer(inserted - this.#knownReceived, 6, 0x00);
      this.#knownReceived = inserted;
    }
    return this.#out.take();
  }

  /** With `annotate: true`: the encoder instructions applied since the last call, in stream order. */
  takeEncoderInstructions(): QpackEncoderInstructionRecord[] {
    const out = this.#instructions;
    this.#instructions = [];
    return out;
  }

  #check(): void {
    if (this.#failed) throw this.#failed;
  }

  #guard<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (error instanceof QpackError) this.#failed = error;
      throw error;
    }
  }

  // ---- field sections (§4.5) ------------------------------------------------------------------------

  /** §4.5.1: Required Insert Count (decoded per §4.5.1.1) and Base (§4.5.1.2). */
  #prefix(streamId: number, bytes: Uint8Array): Prefix {
    const r = new QpackReader(bytes, 'QPACK_DECOMPRESSION_FAILED', 'field-section', false, 0, streamId);
    const encoded = r.integer(8, 'the Required Insert Count');
    const ricEnd = r.pos;
    const ric = this.#requiredInsertCount(encoded, r);
    if (r.done) throw r.fail('The field section ends after the Required Insert Count: the Base is missing (RFC 9204 §4.5.1).', r.pos);
    const sign = (bytes[r.pos]! & 0x80) !== 0;
    const deltaStart = r.pos;
    const delta = r.integer(7, 'the Delta Base');
    let base: number;
    if (sign) {
      if (ric <= delta) {
        throw r.fail(
          `Sign bit 1 with Delta Base ${delta} and Required Insert Count ${ric} gives a negative Base (${ric} - ${delta} - 1), which RFC 9204 §4.5.1.2 forbids.`,
          deltaStart,
        );
      }
      base = ric - delta - 1;
    } else {
      base = ric + delta;
    }
    return { encodedInsertCount: encoded, requiredInsertCount: ric, sign, deltaBase: delta, base, end: r.pos, ricEnd };
  }

  /** §4.5.1.1: undo the modulo 2 * MaxEntries wrap, relative to the inserts received so far. */
  #requiredInsertCount(encoded: number, r: QpackReader): number {
    if (encoded === 0) return 0;
    const fullRange = 2 * this.#maxEntries;
    if (encoded > fullRange) {
      const why =
        this.#maxEntries === 0
          ? 'our dynamic table capacity is 0 (SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0), so it must be 0'
          : `it is at most 2 * MaxEntries = ${fullRange} (MaxEntries = floor(${this.maxTableCapacity} / 32))`;
      throw r.fail(`Encoded Required Insert Count ${encoded} is impossible: ${why} (RFC 9204 §4.5.1.1).`, 0);
    }
    const maxValue = this.#table.insertCount + this.#maxEntries;
    const maxWrapped = Math.floor(maxValue / fullRange) * fullRange;
    let ric = maxWrapped + encoded - 1;
    if (ric > maxValue) {
      if (ric <= fullRange) {
        throw r.fail(
          `Encoded Required Insert Count ${encoded} decodes to ${ric}, more than ${this.#maxEntries} entries beyond the ${this.#table.insertCount} received: no encoder could have sent it (RFC 9204 §4.5.1.1).`,
          0,
        );
      }
      ric -= fullRange;
    }
    if (ric === 0) throw r.fail(`Encoded Required Insert Count ${encoded} decodes to 0, which must be encoded as 0 (RFC 9204 §4.5.1.1).`, 0);
    return ric;
  }

  #decode(streamId: number, bytes: Uint8Array, prefix: Prefix): QpackDecodedSection {
    const r = new QpackReader(bytes, 'QPACK_DECOMPRESSION_FAILED', 'field-section', false, 0, streamId, prefix.end);
    const annotate = this.#annotate;
    const { requiredInsertCount: ric, base } = prefix;
    const fields: QpackDecodedField[] = [];
    const lines: QpackFieldLineRecord[] | null = annotate ? [] : null;
    let highest = -1;
    const dynamic = (absolute: number, at: number, what: string, index: number): QpackEntry => {
      const entry = this.#entry(r, ric, absolute, at, what, index, base);
      if (absolute > highest) highest = absolute;
      return entry;
    };
    while (!r.done) {
      const start = r.pos;
      const b = bytes[start]!;
      let kind: QpackFieldLineKind;
      let name: string;
      let value: string;
      let n = false;
      let table: 'static' | 'dynamic' | null = null;
      let index: number | null = null;
      let absolute: number | null = null;
      let nameString: QpackString | null = null;
      let valueString: QpackString | null = null;
      let indexEnd = start;
      if (b & 0x80) {
        // §4.5.2 Indexed Field Line: 1 T index(6+)
        kind = 'indexed';
        index = r.integer(6, 'an index');
        indexEnd = r.pos;
        if (b & 0x40) {
          table = 'static';
          const e = staticEntry(index, r, start);
          name = e.name;
          value = e.value;
        } else {
          table = 'dynamic';
          absolute = base - 1 - index;
          const e = dynamic(absolute, start, 'Indexed Field Line with relative index', index);
          name = e.name;
          value = e.value;
        }
      } else if (b & 0x40) {
        // §4.5.4 Literal Field Line with Name Reference: 01 N T index(4+), value
        kind = 'literal-name-ref';
        n = (b & 0x20) !== 0;
        index = r.integer(4, 'a name index');
        indexEnd = r.pos;
        if (b & 0x10) {
          table = 'static';
          name = staticEntry(index, r, start).name;
        } else {
          table = 'dynamic';
          absolute = base - 1 - index;
          name = dynamic(absolute, start, 'Literal Field Line with dynamic name reference', index).name;
        }
        valueString = r.string(7, 0x80, 'a field value');
        value = valueString.text;
      } else if (b & 0x20) {
        // §4.5.6 Literal Field Line with Literal Name: 001 N H len(3+), name, value
        kind = 'literal-name';
        n = (b & 0x10) !== 0;
        nameString = r.string(3, 0x08, 'a field name');
        valueString = r.string(7, 0x80, 'a field value');
        name = nameString.text;
        value = valueString.text;
      } else if (b & 0x10) {
        // §4.5.3 Indexed Field Line with Post-Base Index: 0001 index(4+)
        kind = 'indexed-post-base';
        table = 'dynamic';
        index = r.integer(4, 'a post-base index');
        indexEnd = r.pos;
        absolute = base + index;
        const e = dynamic(absolute, start, 'Indexed Field Line with post-base index', index);
        name = e.name;
        value = e.value;
      } else {
        // §4.5.5 Literal Field Line with Post-Base Name Reference: 0000 N index(3+), value
        kind = 'literal-post-base-name-ref';
        table = 'dynamic';
        n = (b & 0x08) !== 0;
        index = r.integer(3, 'a post-base name index');
        indexEnd = r.pos;
        absolute = base + index;
        name = dynamic(absolute, start, 'Literal Field Line with post-base name reference', index).name;
        valueString = r.string(7, 0x80, 'a field value');
        value = valueString.text;
      }
      fields.push(n ? { name, value, neverIndexed: true } : { name, value });
      if (lines) {
        lines.push(fieldLineRecord(kind, bytes, start, r.pos, indexEnd, { name, value, n, table, index, absolute, base, nameString, valueString }));
      }
    }
    // §2.2.1: the Required Insert Count must be exactly what the references need.
    if (ric !== highest + 1) {
      const needs = highest < 0 ? 'no entry of the dynamic table, so it must be 0' : `entries up to absolute index ${highest}, so it must be ${highest + 1}`;
      throw r.fail(`Required Insert Count is ${ric}, but the section references ${needs} (RFC 9204 §2.1.2, §2.2.1).`, 0);
    }
    if (ric > 0) {
      // §4.4.1 Section Acknowledgment; it tells the encoder that every insert up to ric arrived (§2.1.4).
      this.#out.integer(streamId, 7, 0x80);
      if (ric > this.#knownReceived) this.#knownReceived = ric;
    }
    if (!lines) return { fields };
    return { fields, prefix: prefixRecord(bytes, prefix), lines };
  }

  /** §2.2.3: a dynamic reference must be below the Required Insert Count and not evicted. */
  #entry(r: QpackReader, ric: number, absolute: number, at: number, what: string, index: number, base: number): QpackEntry {
    const entry = this.#table.get(absolute);
    if (entry && absolute < ric) return entry;
    const how = `${what} ${index} (Base ${base})`;
    if (absolute < 0) throw r.fail(`${how} points before the first entry ever inserted (absolute index ${absolute}) (RFC 9204 §3.2.5).`, at);
    if (absolute >= ric) {
      throw r.fail(
        `${how} refers to absolute index ${absolute}, but the Required Insert Count is ${ric}: a section may only use entries below it (RFC 9204 §2.2.3).`,
        at,
      );
    }
    throw r.fail(`${how} refers to absolute index ${absolute}, which has already been evicted (RFC 9204 §2.2.3).`, at);
  }

  #unblock(): QpackUnblockedSection[] {
    const out: QpackUnblockedSection[] = [];
    for (const [streamId, queue] of this.#blocked) {
      while (queue.length > 0 && queue[0]!.prefix.requiredInsertCount <= this.#table.insertCount) {
        const { bytes, prefix } = queue.shift()!;
        out.push({ streamId, ...this.#decode(streamId, bytes, prefix) });
      }
      if (queue.length === 0) this.#blocked.delete(streamId);
    }
    return out;
  }

  // ---- encoder stream (§4.3) ------------------------------------------------------------------------

  /** Reads and applies one instruction at `pos`; returns the position after it, or null when it is incomplete. */
  #instruction(buf: Uint8Array, pos: number): number | null {
    const r = new QpackReader(buf, 'QPACK_ENCODER_STREAM_ERROR', 'encoder-stream', true, this.#pendingOffset, undefined, pos);
    const b = buf[pos]!;
    const at = pos + this.#pendingOffset;
    const table = this.#table;
    // The longest string an entry could hold is the maximum capacity less the 32 bytes of overhead.
    const maxRaw = this.maxTableCapacity;
    try {
      if (b & 0x80) {
        // §4.3.2 Insert with Name Reference: 1 T index(6+), value
        const isStatic = (b & 0x40) !== 0;
        const index = r.integer(6, 'a name index');
        const indexEnd = r.pos;
        let name: string;
        let nameOctets: number;
        let referenced: number | null = null;
        if (isStatic) {
          const e = QPACK_STATIC_TABLE[index];
          if (!e) throw r.fail(`Insert with Name Reference uses static index ${index}; the static table has 0-98 (RFC 9204 §3.1).`, pos);
          name = e.name;
          nameOctets = e.name.length;
        } else {
          referenced = table.insertCount - 1 - index;
          const e = table.get(referenced);
          if (!e) throw r.fail(this.#badRelative('Insert with Name Reference', index), pos);
          name = e.name;
          nameOctets = e.nameOctets;
        }
        this.#lengthGuard(r, maxRaw - nameOctets - QPACK_ENTRY_OVERHEAD, 'Insert with Name Reference', 7, 0x80);
        const value = r.string(7, 0x80, 'the value to insert');
        this.#insert(r, at, name, value.text, nameOctets, value.octets, 'insert-name-ref', {
          table: isStatic ? 'static' : 'dynamic',
          index,
          referenced,
          nameString: null,
          valueString: value,
          buf,
          pos,
          indexEnd,
        });
      } else if (b & 0x40) {
        // §4.3.3 Insert with Literal Name: 01 H len(5+), name, value
        this.#lengthGuard(r, maxRaw - QPACK_ENTRY_OVERHEAD, 'Insert with Literal Name', 5, 0x20);
        const name = r.string(5, 0x20, 'the name to insert');
        this.#lengthGuard(r, maxRaw - name.octets - QPACK_ENTRY_OVERHEAD, 'Insert with Literal Name', 7, 0x80);
        const value = r.string(7, 0x80, 'the value to insert');
        this.#insert(r, at, name.text, value.text, name.octets, value.octets, 'insert-literal-name', {
          table: null,
          index: null,
          referenced: null,
          nameString: name,
          valueString: value,
          buf,
          pos,
          indexEnd: pos,
        });
      } else if (b & 0x20) {
        // §4.3.1 Set Dynamic Table Capacity: 001 capacity(5+)
        const capacity = r.integer(5, 'the capacity');
        if (capacity > this.maxTableCapacity) {
          throw r.fail(
            `Set Dynamic Table Capacity to ${capacity} exceeds the ${this.maxTableCapacity} we allowed in SETTINGS_QPACK_MAX_TABLE_CAPACITY (RFC 9204 §4.3.1).`,
            pos,
          );
        }
        const evicted = table.setCapacity(capacity);
        if (this.#annotate) {
          this.#instructions.push({
            kind: 'set-capacity',
            start: at,
            end: r.pos + this.#pendingOffset,
            capacity,
            table: null,
            index: null,
            referencedIndex: null,
            huffmanName: null,
            huffmanValue: null,
            inserted: null,
            evicted: evicted.map((e) => e.absoluteIndex),
            tableAfter: snapshot(table),
            parts: [
              part('pattern', at, at + 1, bitsOf(b, 0, 3), '001', 'Set Dynamic Table Capacity (RFC 9204 §4.3.1)'),
              part('capacity', at, r.pos + this.#pendingOffset, bitsOf(b, 3, 5), capacity, `New capacity: ${capacity} bytes (5-bit prefix integer)`),
            ],
          });
        }
      } else {
        // §4.3.4 Duplicate: 000 index(5+)
        const index = r.integer(5, 'a relative index');
        const referenced = table.insertCount - 1 - index;
        const e = table.get(referenced);
        if (!e) throw r.fail(this.#badRelative('Duplicate', index), pos);
        this.#insert(r, at, e.name, e.value, e.nameOctets, e.size - e.nameOctets - QPACK_ENTRY_OVERHEAD, 'duplicate', {
          table: 'dynamic',
          index,
          referenced,
          nameString: null,
          valueString: null,
          buf,
          pos,
          indexEnd: r.pos,
        });
      }
    } catch (error) {
      if (error === INCOMPLETE) return null;
      throw error;
    }
    return r.pos;
  }

  #badRelative(what: string, index: number): string {
    const t = this.#table;
    if (t.length === 0) return `${what} uses relative index ${index}, but the dynamic table is empty (RFC 9204 §3.2.5, §2.2.3).`;
    return `${what} uses relative index ${index}, which is absolute index ${t.insertCount - 1 - index}: the table holds ${t.dropped}-${t.insertCount - 1} only (evicted or never inserted, RFC 9204 §2.2.3).`;
  }

  /**
   * A string announced longer than any entry could be is refused at once rather than buffered: an encoder
   * stream cannot make us hold more than the table's capacity (§7.3). Huffman code can expand to 8/5.
   */
  #lengthGuard(r: QpackReader, room: number, what: string, lengthBits: number, hBit: number): void {
    const b = r.buf[r.pos];
    if (b === undefined) return;
    const save = r.pos;
    const huffman = (b & hBit) !== 0;
    const length = r.integer(lengthBits, 'a string length');
    r.pos = save;
    const limit = huffman ? Math.ceil((Math.max(room, 0) * 30) / 8) : Math.max(room, 0);
    if (length > limit) {
      throw r.fail(
        `${what} announces a ${huffman ? 'Huffman-coded ' : ''}string of ${length} bytes: the entry could not fit the maximum table capacity of ${this.maxTableCapacity} (RFC 9204 §3.2.2).`,
        save,
      );
    }
  }

  #insert(
    r: QpackReader,
    at: number,
    name: string,
    value: string,
    nameOctets: number,
    valueOctets: number,
    kind: 'insert-name-ref' | 'insert-literal-name' | 'duplicate',
    detail: {
      table: 'static' | 'dynamic' | null;
      index: number | null;
      referenced: number | null;
      nameString: QpackString | null;
      valueString: QpackString | null;
      buf: Uint8Array;
      pos: number;
      indexEnd: number;
    },
  ): void {
    const table = this.#table;
    const size = nameOctets + valueOctets + QPACK_ENTRY_OVERHEAD;
    if (size > table.capacity) {
      throw r.fail(
        `${kindName(kind)} adds an entry of ${size} bytes (${nameOctets} + ${valueOctets} + 32) to a table of capacity ${table.capacity} (RFC 9204 §3.2.2).`,
        detail.pos,
      );
    }
    const { entry, evicted } = table.insert(name, value, nameOctets, valueOctets);
    if (!this.#annotate) return;
    const end = r.pos + this.#pendingOffset;
    this.#instructions.push({
      kind,
      start: at,
      end,
      capacity: null,
      table: detail.table,
      index: detail.index,
      referencedIndex: detail.referenced,
      huffmanName: detail.nameString ? detail.nameString.huffman : null,
      huffmanValue: detail.valueString ? detail.valueString.huffman : null,
      inserted: row(entry),
      evicted: evicted.map((e) => e.absoluteIndex),
      tableAfter: snapshot(table),
      parts: instructionParts(kind, detail.buf, detail.pos, this.#pendingOffset, detail.indexEnd, detail, entry),
    });
  }
}

/**
 * Describes encoder-stream bytes on their own, from an empty table: for /inspect/ and the stepper. Never
 * throws on bad input: the instructions before the problem are returned with the located error.
 */
export function describeQpackEncoderStream(
  bytes: Uint8Array,
  options: { readonly maxTableCapacity?: number } = {},
): { instructions: QpackEncoderInstructionRecord[]; table: QpackTableSnapshot; incomplete: number; error: QpackError | null } {
  // Without the SETTINGS at hand, allow any capacity (§4.3.1's limit is the peer's setting).
  const decoder = new QpackDecoder({ maxTableCapacity: options.maxTableCapacity ?? 2 ** 32, maxBlockedStreams: 0, annotate: true });
  let error: QpackError | null = null;
  try {
    decoder.receiveEncoderStream(bytes);
  } catch (e) {
    if (!(e instanceof QpackError)) throw e;
    error = e;
  }
  return {
    instructions: decoder.takeEncoderInstructions(),
    table: decoder.tableState(),
    incomplete: error ? 0 : decoder.pendingEncoderStreamBytes,
    error,
  };
}

// ---- helpers shared with the encoder's records --------------------------------------------------------

const kindName = (kind: string): string =>
  kind === 'duplicate' ? 'Duplicate' : kind === 'insert-name-ref' ? 'Insert with Name Reference' : 'Insert with Literal Name';

function staticEntry(index: number, r: QpackReader, at: number): { name: string; value: string } {
  const e = QPACK_STATIC_TABLE[index];
  if (!e) throw r.fail(`Static table index ${index} does not exist: the static table has 0-98 (RFC 9204 §3.1, Appendix A).`, at);
  return e;
}

export function row(e: QpackEntry): { absoluteIndex: number; name: string; value: string; size: number } {
  return { absoluteIndex: e.absoluteIndex, name: e.name, value: e.value, size: e.size };
}

export function snapshot(table: QpackDynamicTable): QpackTableSnapshot {
  return { capacity: table.capacity, size: table.size, insertCount: table.insertCount, entries: table.entries().map(row) };
}

export function part(label: string, start: number, end: number, bits: string | undefined, value: string | number | boolean, meaning: string): QpackPart {
  return bits === undefined ? { label, start, end, value, meaning } : { label, start, end, bits, value, meaning };
}

function stringParts(s: QpackString, buf: Uint8Array, offset: number, lengthBits: number, what: string): QpackPart[] {
  const first = buf[s.start - offset]!;
  const hPos = 7 - lengthBits;
  return [
    part(
      'H',
      s.start,
      s.start + 1,
      bitsOf(first, hPos, 1),
      s.huffman,
      s.huffman ? `The ${what} is Huffman-coded (RFC 7541 §5.2)` : `The ${what} is sent as raw octets`,
    ),
    part(
      `${what} length`,
      s.start,
      s.dataStart,
      bitsOf(first, hPos + 1, lengthBits),
      s.dataStart === s.end ? 0 : s.end - s.dataStart,
      `${s.end - s.dataStart} bytes follow (${lengthBits}-bit prefix integer)${s.huffman ? `, ${s.octets} once decoded` : ''}`,
    ),
    part(what, s.dataStart, s.end, undefined, s.text, `"${s.text}"`),
  ];
}

/** The bit-level parts of one field line, from the bytes and what the decoder or encoder resolved. */
export function fieldLineRecord(
  kind: QpackFieldLineKind,
  bytes: Uint8Array,
  start: number,
  end: number,
  indexEnd: number,
  d: {
    name: string;
    value: string;
    n: boolean;
    table: 'static' | 'dynamic' | null;
    index: number | null;
    absolute: number | null;
    base: number;
    nameString: QpackString | null;
    valueString: QpackString | null;
  },
): QpackFieldLineRecord {
  const b = bytes[start]!;
  const parts: QpackPart[] = [];
  const where =
    d.table === 'static'
      ? `static table index ${d.index}`
      : kind === 'indexed-post-base' || kind === 'literal-post-base-name-ref'
        ? `post-base index ${d.index}: absolute index = Base (${d.base}) + ${d.index} = ${d.absolute}`
        : `relative index ${d.index}: absolute index = Base (${d.base}) - ${d.index} - 1 = ${d.absolute}`;
  switch (kind) {
    case 'indexed':
      parts.push(
        part('pattern', start, start + 1, bitsOf(b, 0, 1), '1', 'Indexed Field Line (RFC 9204 §4.5.2)'),
        part('T', start, start + 1, bitsOf(b, 1, 1), d.table === 'static', d.table === 'static' ? 'T=1: the static table' : 'T=0: the dynamic table'),
        part('index', start, indexEnd, bitsOf(b, 2, 6), d.index!, `${where} (6-bit prefix integer): ${d.name}: ${d.value}`),
      );
      break;
    case 'indexed-post-base':
      parts.push(
        part('pattern', start, start + 1, bitsOf(b, 0, 4), '0001', 'Indexed Field Line with Post-Base Index (RFC 9204 §4.5.3)'),
        part('index', start, indexEnd, bitsOf(b, 4, 4), d.index!, `${where} (4-bit prefix integer): ${d.name}: ${d.value}`),
      );
      break;
    case 'literal-name-ref':
      parts.push(
        part('pattern', start, start + 1, bitsOf(b, 0, 2), '01', 'Literal Field Line with Name Reference (RFC 9204 §4.5.4)'),
        nBit(start, b, 2, d.n),
        part(
          'T',
          start,
          start + 1,
          bitsOf(b, 3, 1),
          d.table === 'static',
          d.table === 'static' ? 'T=1: the name is in the static table' : 'T=0: the name is in the dynamic table',
        ),
        part('name index', start, indexEnd, bitsOf(b, 4, 4), d.index!, `${where} (4-bit prefix integer): name ${d.name}`),
        ...stringParts(d.valueString!, bytes, 0, 7, 'value'),
      );
      break;
    case 'literal-post-base-name-ref':
      parts.push(
        part('pattern', start, start + 1, bitsOf(b, 0, 4), '0000', 'Literal Field Line with Post-Base Name Reference (RFC 9204 §4.5.5)'),
        nBit(start, b, 4, d.n),
        part('name index', start, indexEnd, bitsOf(b, 5, 3), d.index!, `${where} (3-bit prefix integer): name ${d.name}`),
        ...stringParts(d.valueString!, bytes, 0, 7, 'value'),
      );
      break;
    case 'literal-name':
      parts.push(
        part('pattern', start, start + 1, bitsOf(b, 0, 3), '001', 'Literal Field Line with Literal Name (RFC 9204 §4.5.6)'),
        nBit(start, b, 3, d.n),
        ...stringParts(d.nameString!, bytes, 0, 3, 'name'),
        ...stringParts(d.valueString!, bytes, 0, 7, 'value'),
      );
      break;
  }
  return {
    kind,
    start,
    end,
    name: d.name,
    value: d.value,
    neverIndexed: d.n,
    table: d.table,
    index: d.index,
    absoluteIndex: d.absolute,
    postBase: kind === 'indexed-post-base' || kind === 'literal-post-base-name-ref',
    huffmanName: d.nameString ? d.nameString.huffman : null,
    huffmanValue: d.valueString ? d.valueString.huffman : null,
    parts,
  };
}

const nBit = (at: number, b: number, bit: number, n: boolean): QpackPart =>
  part('N', at, at + 1, bitsOf(b, bit, 1), n, n ? 'N=1: never indexed, intermediaries must keep it a literal (RFC 9204 §7.1.3)' : 'N=0: may be indexed');

export function prefixRecord(bytes: Uint8Array, p: Prefix): QpackSectionPrefix {
  const signByte = bytes[p.ricEnd]!;
  return {
    start: 0,
    end: p.end,
    encodedInsertCount: p.encodedInsertCount,
    requiredInsertCount: p.requiredInsertCount,
    sign: p.sign,
    deltaBase: p.deltaBase,
    base: p.base,
    parts: [
      part(
        'Required Insert Count',
        0,
        p.ricEnd,
        bitsOf(bytes[0]!, 0, 8),
        p.encodedInsertCount,
        p.encodedInsertCount === 0
          ? 'Encoded Required Insert Count 0: no dynamic table references (RFC 9204 §4.5.1.1)'
          : `Encoded ${p.encodedInsertCount} (8-bit prefix integer) = Required Insert Count ${p.requiredInsertCount} (RFC 9204 §4.5.1.1)`,
      ),
      part(
        'S',
        p.ricEnd,
        p.ricEnd + 1,
        bitsOf(signByte, 0, 1),
        p.sign,
        p.sign ? 'S=1: Base is below the Required Insert Count' : 'S=0: Base is at or above the Required Insert Count',
      ),
      part(
        'Delta Base',
        p.ricEnd,
        p.end,
        bitsOf(signByte, 1, 7),
        p.deltaBase,
        p.sign
          ? `Base = ${p.requiredInsertCount} - ${p.deltaBase} - 1 = ${p.base} (RFC 9204 §4.5.1.2)`
          : `Base = ${p.requiredInsertCount} + ${p.deltaBase} = ${p.base} (RFC 9204 §4.5.1.2)`,
      ),
    ],
  };
}

function instructionParts(
  kind: 'insert-name-ref' | 'insert-literal-name' | 'duplicate',
  buf: Uint8Array,
  pos: number,
  offset: number,
  indexEnd: number,
  d: { table: 'static' | 'dynamic' | null; index: number | null; referenced: number | null; nameString: QpackString | null; valueString: QpackString | null },
  entry: QpackEntry,
): QpackPart[] {
  const b = buf[pos]!;
  const at = pos + offset;
  const ref =
    d.table === 'static'
      ? `static table index ${d.index}`
      : `relative index ${d.index}: absolute index = Insert Count (${entry.absoluteIndex}) - ${d.index} - 1 = ${d.referenced}`;
  if (kind === 'duplicate') {
    return [
      part('pattern', at, at + 1, bitsOf(b, 0, 3), '000', 'Duplicate (RFC 9204 §4.3.4)'),
      part('index', at, indexEnd + offset, bitsOf(b, 3, 5), d.index!, `${ref} (5-bit prefix integer): copied as absolute index ${entry.absoluteIndex}`),
    ];
  }
  if (kind === 'insert-name-ref') {
    return [
      part('pattern', at, at + 1, bitsOf(b, 0, 1), '1', 'Insert with Name Reference (RFC 9204 §4.3.2)'),
      part(
        'T',
        at,
        at + 1,
        bitsOf(b, 1, 1),
        d.table === 'static',
        d.table === 'static' ? 'T=1: the name is in the static table' : 'T=0: the name is in the dynamic table',
      ),
      part('name index', at, indexEnd + offset, bitsOf(b, 2, 6), d.index!, `${ref} (6-bit prefix integer): name ${entry.name}`),
      ...stringParts(d.valueString!, buf, offset, 7, 'value'),
    ];
  }
  return [
    part('pattern', at, at + 1, bitsOf(b, 0, 2), '01', 'Insert with Literal Name (RFC 9204 §4.3.3)'),
    ...stringParts(d.nameString!, buf, offset, 5, 'name'),
    ...stringParts(d.valueString!, buf, offset, 7, 'value'),
  ];
}
