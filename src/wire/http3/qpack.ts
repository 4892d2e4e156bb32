/**
 * QPACK field compression (RFC 9204) without a dynamic table: the static table and literals, one field
 * section at a time with no state. This is what our simulated HTTP/3 endpoints use (they advertise a table
 * capacity of 0). The complete codec, with the dynamic table, the encoder and decoder streams and blocked
 * streams, is `QpackEncoder` / `QpackDecoder` in `qpack/`.
 *
 * QPACK is HPACK (RFC 7541) rebuilt for QUIC. HPACK's dynamic table is updated by every header block in
 * order, which only works because TCP delivers the blocks in order; over QUIC's independent streams a
 * block could arrive before the update it depends on. QPACK moves table updates to a separate encoder
 * stream and lets each field section say which table state it needs (Required Insert Count).
 *
 * What this file does:
 * - Field section prefix (§4.5.1): Required Insert Count 0 and Delta Base 0, meaning "no dynamic table
 *   references": such a section can always be decoded at once, so a stream is never blocked on another.
 * - Indexed Field Line with a static index (§4.5.2) for a field the static table holds whole.
 * - Literal Field Line with Name Reference (§4.5.4) when only the name is in the static table.
 * - Literal Field Line with Literal Name (§4.5.6) otherwise.
 * - String literals are Huffman-coded (RFC 7541 §5.2, same code as HPACK) when that is shorter, and the
 *   decoder accepts both forms. Strings are UTF-8 on the wire, as in our HPACK. The integer and string
 *   primitives are the full codec's (`qpack/primitives.ts`).
 *
 * Simplifications (documented on purpose):
 * - No dynamic table: the encoder never inserts, our endpoints advertise SETTINGS_QPACK_MAX_TABLE_CAPACITY
 *   0 and SETTINGS_QPACK_BLOCKED_STREAMS 0, and so (RFC 9204 §4.2) they open no encoder or decoder
 *   stream. A section that references the dynamic table (Required Insert Count > 0, T=0 indexes,
 *   post-base forms) is rejected with QPACK_DECOMPRESSION_FAILED, as the RFC requires of a decoder
 *   whose table capacity is 0.
 * - Hence no blocked streams, no Section Acknowledgment, no Insert Count Increment.
 * - The "never indexed" N bit is written as 0 and ignored on input (it only matters to intermediaries
 *   that re-encode with a dynamic table).
 */
import { textToOctets } from '../hpack/primitives';
import { QpackError } from './qpack/errors';
import { QpackReader, QpackWriter } from './qpack/primitives';
import { QPACK_STATIC_FIELD_INDEX, QPACK_STATIC_NAME_INDEX, QPACK_STATIC_TABLE } from './qpack-static-table';

export interface QpackField {
  readonly name: string;
  readonly value: string;
}

/** How one field line was represented: what the docs show next to the bytes. */
export type QpackLine =
  | { readonly kind: 'indexed'; readonly index: number; readonly field: QpackField }
  | { readonly kind: 'literal-name-ref'; readonly index: number; readonly field: QpackField; readonly huffman: boolean }
  | { readonly kind: 'literal'; readonly field: QpackField; readonly huffman: boolean };

export interface QpackEncoded {
  readonly bytes: Uint8Array;
  readonly lines: readonly QpackLine[];
}

const writer = new QpackWriter(256);

/** Encodes a field section (names must already be lowercase: RFC 9114 §4.2). Strings are sent as UTF-8. */
export function encodeQpack(fields: readonly QpackField[]): QpackEncoded {
  const w = writer;
  w.pos = 0;
  // §4.5.1: Required Insert Count 0 (8-bit prefix), then S=0 and Delta Base 0 (7-bit prefix).
  w.integer(0, 8, 0);
  w.integer(0, 7, 0);
  const lines: QpackLine[] = [];
  for (const field of fields) {
    const exact = QPACK_STATIC_FIELD_INDEX.get(field.name)?.get(field.value);
    if (exact !== undefined) {
      w.integer(exact, 6, 0xc0); // §4.5.2: 1, T=1 (static), 6-bit index
      lines.push({ kind: 'indexed', index: exact, field });
      continue;
    }
    const value = textToOctets(field.value);
    const nameIndex = QPACK_STATIC_NAME_INDEX.get(field.name);
    if (nameIndex !== undefined) {
      w.integer(nameIndex, 4, 0x50); // §4.5.4: 01, N=0, T=1, 4-bit index
      const huffman = w.str(value, 7, 0x80, 0, 'auto');
      lines.push({ kind: 'literal-name-ref', index: nameIndex, field, huffman });
      continue;
    }
    // §4.5.6: 001, N=0, H, 3-bit name length; then the value with H and a 7-bit length.
    const nameHuffman = w.str(textToOctets(field.name), 3, 0x08, 0x20, 'auto');
    const valueHuffman = w.str(value, 7, 0x80, 0, 'auto');
    lines.push({ kind: 'literal', field, huffman: nameHuffman || valueHuffman });
  }
  return { bytes: w.buf.slice(0, w.pos), lines };
}

const DYNAMIC = 'it refers to the dynamic table, which this decoder set to capacity 0 (SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0)';

function staticEntry(index: number, at: number): QpackField {
  const entry = QPACK_STATIC_TABLE[index];
  if (!entry) throw failed(`Static table index ${index} does not exist (RFC 9204 Appendix A has 0-98).`, at);
  return { name: entry.name, value: entry.value };
}

const failed = (message: string, offset: number): QpackError => new QpackError('QPACK_DECOMPRESSION_FAILED', message, offset, 'field-section');

export function decodeQpack(bytes: Uint8Array): QpackEncoded & { readonly fields: readonly QpackField[] } {
  const r = new QpackReader(bytes, 'QPACK_DECOMPRESSION_FAILED', 'field-section', false);
  const ric = r.integer(8, 'the Required Insert Count');
  if (ric !== 0) throw failed(`Required Insert Count is ${ric}, but ${DYNAMIC} (RFC 9204 §4.5.1.1).`, 0);
  r.integer(7, 'the Delta Base');
  const lines: QpackLine[] = [];
  const fields: QpackField[] = [];
  while (!r.done) {
    const pos = r.pos;
    const first = bytes[pos]!;
    if (first & 0x80) {
      if (!(first & 0x40)) throw failed(`An Indexed Field Line with T=0 cannot be decoded: ${DYNAMIC}.`, pos);
      const index = r.integer(6, 'an index');
      const field = staticEntry(index, pos);
      lines.push({ kind: 'indexed', index, field });
      fields.push(field);
    } else if (first & 0x40) {
      if (!(first & 0x10)) throw failed(`A Literal Field Line with a dynamic name reference cannot be decoded: ${DYNAMIC}.`, pos);
      const index = r.integer(4, 'a name index');
      const name = staticEntry(index, pos).name;
      const value = r.string(7, 0x80, 'a field value');
      const field = { name, value: value.text };
      lines.push({ kind: 'literal-name-ref', index, field, huffman: value.huffman });
      fields.push(field);
    } else if (first & 0x20) {
      const name = r.string(3, 0x08, 'a field name');
      const value = r.string(7, 0x80, 'a field value');
      const field = { name: name.text, value: value.text };
      lines.push({ kind: 'literal', field, huffman: name.huffman || value.huffman });
      fields.push(field);
    } else {
      throw failed(`A post-base representation (0x${first.toString(16)}) cannot be decoded: ${DYNAMIC}.`, pos);
    }
  }
  return { bytes: Uint8Array.from(bytes), lines, fields };
}
