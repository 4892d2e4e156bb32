/**
 * What the HPACK stepper in the docs shows: one step per representation in a header block, with the
 * byte range it occupies, which table entry it used or created, and what Huffman coding bought.
 * Both the encoder and the decoder can report these (`encodeAnnotated`, `decodeAnnotated`), and a
 * block's steps from either side are identical for the same bytes.
 */
export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

export interface EncodableField extends HeaderField {
  /** Never index this field, here or at any intermediary (RFC 7541 §7.1.3): use for credentials. */
  readonly sensitive?: boolean;
}

/** The five representations of RFC 7541 §6. */
export type HpackRepresentation =
  | 'indexed' //                  §6.1    1xxxxxxx
  | 'literal-incremental' //      §6.2.1  01xxxxxx
  | 'literal-without-indexing' // §6.2.2  0000xxxx
  | 'literal-never-indexed' //    §6.2.3  0001xxxx
  | 'size-update'; //             §6.3    001xxxxx

export const REPRESENTATIONS: readonly HpackRepresentation[] = [
  'indexed',
  'literal-incremental',
  'literal-without-indexing',
  'literal-never-indexed',
  'size-update',
];

interface StepBase {
  /** Byte range [start, end) inside the header block. */
  readonly start: number;
  readonly end: number;
  /** Dynamic-table entries evicted by this step. */
  readonly evicted: number;
}

export interface SizeUpdateStep extends StepBase {
  readonly representation: 'size-update';
  readonly maxSize: number;
}

export interface IndexedStep extends StepBase {
  readonly representation: 'indexed';
  readonly name: string;
  readonly value: string;
  /** The table index sent (1-61 static, 62+ dynamic). */
  readonly index: number;
  readonly table: 'static' | 'dynamic';
  /** Raw name + value octets minus the octets this step took (can be negative for literals). */
  readonly bytesSaved: number;
}

export interface LiteralStep extends StepBase {
  readonly representation: 'literal-incremental' | 'literal-without-indexing' | 'literal-never-indexed';
  readonly name: string;
  readonly value: string;
  /** Index the name came from, or null when the name was sent as a literal string. */
  readonly nameIndex: number | null;
  readonly nameTable: 'static' | 'dynamic' | null;
  /** null when the name was indexed rather than sent. */
  readonly huffmanName: boolean | null;
  readonly huffmanValue: boolean;
  /** 62 when the step inserted the field into the dynamic table, else null. */
  readonly addedIndex: number | null;
  readonly bytesSaved: number;
}

export type HpackStep = SizeUpdateStep | IndexedStep | LiteralStep;

export interface DynamicTableRow {
  readonly index: number;
  readonly name: string;
  readonly value: string;
  readonly size: number;
}

export interface HpackTableState {
  readonly size: number;
  readonly maxSize: number;
  readonly entries: readonly DynamicTableRow[];
}
