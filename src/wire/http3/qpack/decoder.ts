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
 *
 * This file holds the field sections (§4.5), the blocked streams and the decoder stream. The encoder
 * stream's instructions are read in encoder-stream.ts, and the bit-level parts an annotating decoder records
 * for the docs' views are built in record-parts.ts.
 */
import { QPACK_STATIC_TABLE } from '../qpack-static-table';
import { QpackError } from './errors';
import { QPACK_ENTRY_OVERHEAD, QpackDynamicTable, type QpackEntry } from './dynamic-table';
import { EncoderStreamReader } from './encoder-stream';
import { type QpackString, QpackReader, QpackWriter } from './primitives';
import { fieldLineRecord, prefixRecord, snapshot } from './record-parts';
import type { QpackEncoderInstructionRecord, QpackFieldLineKind, QpackFieldLineRecord, QpackSectionPrefix, QpackTableSnapshot } from './records';

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

/** The field section prefix as read (§4.5.1), kept with a blocked section until it can be decoded. */
export interface Prefix {
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
  /** The encoder stream (§4.3), which fills #table. */
  readonly #encoderStream: EncoderStreamReader;
  /** Blocked streams in the order they blocked, each with its sections in arrival order. */
  readonly #blocked = new Map<number, Waiting[]>();
  readonly #out = new QpackWriter(64);
  /** Inserts the encoder knows we received (§2.1.4), as implied by what we sent or queued. */
  #knownReceived = 0;
  #failed: QpackError | null = null;

  constructor(options: QpackDecoderOptions) {
    checkLimit('maxTableCapacity', options.maxTableCapacity);
    checkLimit('maxBlockedStreams', options.maxBlockedStreams);
    this.maxTableCapacity = options.maxTableCapacity;
    this.maxBlockedStreams = options.maxBlockedStreams;
    this.#annotate = options.annotate === true;
    // §4.5.1.1: the most entries the table can hold, each at least 32 bytes.
    this.#maxEntries = Math.floor(options.maxTableCapacity / QPACK_ENTRY_OVERHEAD);
    this.#encoderStream = new EncoderStreamReader(this.#table, options.maxTableCapacity, this.#annotate);
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
    return this.#encoderStream.pendingBytes;
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
      this.#encoderStream.receive(bytes);
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
    return this.#encoderStream.takeInstructions();
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

function staticEntry(index: number, r: QpackReader, at: number): { name: string; value: string } {
  const e = QPACK_STATIC_TABLE[index];
  if (!e) throw r.fail(`Static table index ${index} does not exist: the static table has 0-98 (RFC 9204 §3.1, Appendix A).`, at);
  return e;
}
