/**
 * The bit-level parts of the stepper's records (records.ts): for a field line, a section prefix or an
 * encoder instruction, which bytes and bits mean what, with the RFC 9204 section they come from. Only an
 * annotating decoder or encoder (`annotate: true`) calls these. Apart from decoder.ts, whose reading they
 * describe, because they are a concern of the docs' views, not of decoding: the decoder reads no less
 * without them, and the encoder (the table snapshot) and decoder-stream.ts (`part`) use them too.
 */
import type { QpackDynamicTable, QpackEntry } from './dynamic-table';
import type { Prefix } from './decoder';
import { bitsOf, type QpackString } from './primitives';
import type { QpackFieldLineKind, QpackFieldLineRecord, QpackPart, QpackSectionPrefix, QpackTableSnapshot } from './records';

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

export function instructionParts(
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
