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
 *   decoder accepts both forms.
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
import { hpackHuffmanDecode as huffmanDecode, hpackHuffmanEncode as huffmanEncode } from '../hpack/index';
import { WireError } from '../errors';
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

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);
const fromLatin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

function failed(message: string, offset: number): WireError {
  return new WireError({ code: 'QPACK_DECOMPRESSION_FAILED', side: 'remote', offset, message });
}

/** RFC 7541 §5.1 prefix integer (QPACK §4.1.1 reuses it): `flags` fill the bits above the prefix. */
function pushInteger(out: number[], flags: number, prefix: number, value: number): void {
  const max = (1 << prefix) - 1;
  if (value < max) {
    out.push(flags | value);
    return;
  }
  out.push(flags | max);
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function readInteger(bytes: Uint8Array, pos: number, prefix: number): { value: number; next: number } {
  if (pos >= bytes.length) throw failed('The field section ends inside an integer.', pos);
  const max = (1 << prefix) - 1;
  let value = bytes[pos]! & max;
  let next = pos + 1;
  if (value < max) return { value, next };
  let scale = 1;
  for (;;) {
    if (next >= bytes.length) throw failed('The field section ends inside a multi-byte integer.', next);
    const b = bytes[next++]!;
    value += (b & 0x7f) * scale;
    scale *= 128;
    // Same guard as HPACK decoders: an integer this long is an attack or a bug, not a header.
    if (scale > 2 ** 35) throw failed('An integer in the field section is too large.', pos);
    if ((b & 0x80) === 0) return { value, next };
  }
}

/** A string literal: H flag at bit `hBit` of the first byte, length with a `prefix`-bit prefix. */
function pushString(out: number[], flags: number, hBit: number, prefix: number, text: string): boolean {
  const raw = fromLatin1(text);
  const coded = huffmanEncode(raw);
  const huffman = coded.length < raw.length;
  const bytes = huffman ? coded : raw;
  pushInteger(out, flags | (huffman ? hBit : 0), prefix, bytes.length);
  for (const b of bytes) out.push(b);
  return huffman;
}

function readString(bytes: Uint8Array, pos: number, hBit: number, prefix: number): { text: string; huffman: boolean; next: number } {
  const huffman = pos < bytes.length && (bytes[pos]! & hBit) !== 0;
  const length = readInteger(bytes, pos, prefix);
  const end = length.next + length.value;
  if (end > bytes.length) throw failed('A string literal runs past the end of the field section.', pos);
  const body = bytes.subarray(length.next, end);
  let decoded: Uint8Array;
  try {
    decoded = huffman ? huffmanDecode(body) : body;
  } catch (error) {
    throw failed(`Bad Huffman string: ${(error as Error).message}`, length.next);
  }
  return { text: latin1(decoded), huffman, next: end };
}

export interface QpackEncoded {
  readonly bytes: Uint8Array;
  readonly lines: readonly QpackLine[];
}

/** Encodes a field section (names must already be lowercase: RFC 9114 §4.2). */
export function encodeQpack(fields: readonly QpackField[]): QpackEncoded {
  // §4.5.1: Required Insert Count 0 (8-bit prefix), then S=0 and Delta Base 0 (7-bit prefix).
  const out: number[] = [0x00, 0x00];
  const lines: QpackLine[] = [];
  for (const field of fields) {
    const exact = QPACK_STATIC_FIELD_INDEX.get(field.name)?.get(field.value);
    if (exact !== undefined) {
      pushInteger(out, 0xc0, 6, exact); // §4.5.2: 1, T=1 (static), 6-bit index
      lines.push({ kind: 'indexed', index: exact, field });
      continue;
    }
    const nameIndex = QPACK_STATIC_NAME_INDEX.get(field.name);
    if (nameIndex !== undefined) {
      pushInteger(out, 0x50, 4, nameIndex); // §4.5.4: 01, N=0, T=1, 4-bit index
      const huffman = pushString(out, 0x00, 0x80, 7, field.value);
      lines.push({ kind: 'literal-name-ref', index: nameIndex, field, huffman });
      continue;
    }
    // §4.5.6: 001, N=0, H, 3-bit name length; then the value with H and a 7-bit length.
    const nameHuffman = pushString(out, 0x20, 0x08, 3, field.name);
    const valueHuffman = pushString(out, 0x00, 0x80, 7, field.value);
    lines.push({ kind: 'literal', field, huffman: nameHuffman || valueHuffman });
  }
  return { bytes: Uint8Array.from(out), lines };
}

function staticEntry(index: number, at: number): QpackField {
  const entry = QPACK_STATIC_TABLE[index];
  if (!entry) throw failed(`Static table index ${index} does not exist (RFC 9204 Appendix A has 0-98).`, at);
  return { name: entry.name, value: entry.value };
}

const DYNAMIC = 'it refers to the dynamic table, which this decoder set to capacity 0 (SETTINGS_QPACK_MAX_TABLE_CAPACITY = 0)';

export function decodeQpack(bytes: Uint8Array): QpackEncoded & { readonly fields: readonly QpackField[] } {
  const ric = readInteger(bytes, 0, 8);
  if (ric.value !== 0) throw failed(`Required Insert Count is ${ric.value}, but ${DYNAMIC} (RFC 9204 §4.5.1.1).`, 0);
  const base = readInteger(bytes, ric.next, 7);
  let pos = base.next;
  const lines: QpackLine[] = [];
  while (pos < bytes.length) {
    const first = bytes[pos]!;
    if (first & 0x80) {
      if (!(first & 0x40)) throw failed(`An Indexed Field Line with T=0 cannot be decoded: ${DYNAMIC}.`, pos);
      const index = readInteger(bytes, pos, 6);
      lines.push({ kind: 'indexed', index: index.value, field: staticEntry(index.value, pos) });
      pos = index.next;
    } else if (first & 0x40) {
      if (!(first & 0x10)) throw failed(`A Literal Field Line with a dynamic name reference cannot be decoded: ${DYNAMIC}.`, pos);
      const index = readInteger(bytes, pos, 4);
      const name = staticEntry(index.value, pos).name;
      const value = readString(bytes, index.next, 0x80, 7);
      lines.push({ kind: 'literal-name-ref', index: index.value, field: { name, value: value.text }, huffman: value.huffman });
      pos = value.next;
    } else if (first & 0x20) {
      const name = readString(bytes, pos, 0x08, 3);
      const value = readString(bytes, name.next, 0x80, 7);
      lines.push({ kind: 'literal', field: { name: name.text, value: value.text }, huffman: name.huffman || value.huffman });
      pos = value.next;
    } else {
      throw failed(`A post-base representation (0x${first.toString(16)}) cannot be decoded: ${DYNAMIC}.`, pos);
    }
  }
  const out = Uint8Array.from(bytes);
  return { bytes: out, lines, fields: lines.map((l) => l.field) };
}
