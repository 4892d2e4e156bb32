/**
 * The encoder stream as the decoder reads it (RFC 9204 §4.3): Set Dynamic Table Capacity, Insert with Name
 * Reference, Insert with Literal Name and Duplicate, applied to the dynamic table the decoder's field
 * sections refer to. The stream is unframed, so bytes may stop anywhere: an instruction cut short waits for
 * the rest. Apart from decoder.ts, which owns the table and the blocked sections this unblocks, because the
 * instructions are a concern of their own (§4.3 against the field sections' §4.5) and the two together were
 * too long to read in one sitting. Errors are QpackError QPACK_ENCODER_STREAM_ERROR, located in the stream.
 */
import { QPACK_STATIC_TABLE } from '../qpack-static-table';
import { QPACK_ENTRY_OVERHEAD, type QpackDynamicTable } from './dynamic-table';
import { bitsOf, INCOMPLETE, type QpackString, QpackReader } from './primitives';
import { instructionParts, part, row, snapshot } from './record-parts';
import type { QpackEncoderInstructionRecord } from './records';

const kindName = (kind: string): string =>
  kind === 'duplicate' ? 'Duplicate' : kind === 'insert-name-ref' ? 'Insert with Name Reference' : 'Insert with Literal Name';

/** Reads a decoder's encoder stream into its dynamic table, and with `annotate` records each instruction. */
export class EncoderStreamReader {
  /** SETTINGS_QPACK_MAX_TABLE_CAPACITY the decoder sent: the largest capacity the encoder may set (§3.2.3). */
  readonly maxTableCapacity: number;
  readonly #annotate: boolean;
  readonly #table: QpackDynamicTable;
  /** Encoder-stream bytes not yet forming a whole instruction, and the stream offset of their first byte. */
  #pending: Uint8Array = new Uint8Array(0);
  #pendingOffset = 0;
  #instructions: QpackEncoderInstructionRecord[] = [];

  constructor(table: QpackDynamicTable, maxTableCapacity: number, annotate: boolean) {
    this.#table = table;
    this.maxTableCapacity = maxTableCapacity;
    this.#annotate = annotate;
  }

  /** Encoder-stream bytes held back because they end inside an instruction. */
  get pendingBytes(): number {
    return this.#pending.length;
  }

  /** Applies encoder-stream bytes (any split: an instruction cut short waits for the rest). */
  receive(bytes: Uint8Array): void {
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
  }

  /** With `annotate`: the instructions applied since the last call, in stream order. */
  takeInstructions(): QpackEncoderInstructionRecord[] {
    const out = this.#instructions;
    this.#instructions = [];
    return out;
  }

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
