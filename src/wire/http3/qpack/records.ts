/**
 * What a QPACK stepper shows, as data: every field line, encoder instruction and decoder instruction with
 * its byte range, the meaning of each group of bits, which table entry it used or created, and the
 * dynamic table after it. The decoder and the encoder produce these when created with `annotate: true`;
 * for the same bytes both sides describe a field line identically.
 */

/** One group of bits inside a representation or instruction. */
export interface QpackPart {
  /** What the bits are: 'pattern', 'N', 'T', 'H', 'S', 'index', 'name length', 'name', 'value', ... */
  readonly label: string;
  /** Bytes [start, end) the part lies in (offsets in the field section, or in the whole stream). */
  readonly start: number;
  readonly end: number;
  /** For a part that starts inside a byte: its bits there, e.g. '01' for a pattern or '0011' for a 4-bit prefix. */
  readonly bits?: string;
  readonly value: string | number | boolean;
  /** One line a reader can follow, naming the RFC 9204 section. */
  readonly meaning: string;
}

export interface QpackTableRow {
  readonly absoluteIndex: number;
  readonly name: string;
  readonly value: string;
  readonly size: number;
}

export interface QpackTableSnapshot {
  readonly capacity: number;
  readonly size: number;
  /** Entries ever inserted (= the next absolute index). */
  readonly insertCount: number;
  /** Oldest first. */
  readonly entries: readonly QpackTableRow[];
}

/** The field section prefix (§4.5.1). */
export interface QpackSectionPrefix {
  readonly start: number;
  readonly end: number;
  /** The value on the wire (§4.5.1.1), and the Required Insert Count it stands for. */
  readonly encodedInsertCount: number;
  readonly requiredInsertCount: number;
  /** The S bit: Base is below the Required Insert Count. */
  readonly sign: boolean;
  readonly deltaBase: number;
  readonly base: number;
  readonly parts: readonly QpackPart[];
}

/** The five field line representations of §4.5.2-§4.5.6. */
export type QpackFieldLineKind =
  | 'indexed' //                     §4.5.2  1Txxxxxx
  | 'indexed-post-base' //           §4.5.3  0001xxxx
  | 'literal-name-ref' //            §4.5.4  01NTxxxx
  | 'literal-post-base-name-ref' //  §4.5.5  0000Nxxx
  | 'literal-name'; //               §4.5.6  001NHxxx

export const QPACK_FIELD_LINE_KINDS: readonly QpackFieldLineKind[] = [
  'indexed',
  'indexed-post-base',
  'literal-name-ref',
  'literal-post-base-name-ref',
  'literal-name',
];

export interface QpackFieldLineRecord {
  readonly kind: QpackFieldLineKind;
  readonly start: number;
  readonly end: number;
  readonly name: string;
  readonly value: string;
  /** The N bit (§4.5.4): intermediaries must keep this field a literal. Always false for indexed lines. */
  readonly neverIndexed: boolean;
  /** Where the field (indexed) or its name (name reference) came from; null for a literal name. */
  readonly table: 'static' | 'dynamic' | null;
  /** The index as sent: static index, relative index (to Base), or post-base index; null for a literal name. */
  readonly index: number | null;
  /** The dynamic entry's absolute index (§3.2.4), for dynamic and post-base references. */
  readonly absoluteIndex: number | null;
  readonly postBase: boolean;
  /** Whether the name / value were Huffman-coded; null where not sent as a string. */
  readonly huffmanName: boolean | null;
  readonly huffmanValue: boolean | null;
  readonly parts: readonly QpackPart[];
}

/** The four encoder instructions of §4.3. */
export type QpackEncoderInstructionKind =
  | 'set-capacity' //          §4.3.1  001xxxxx
  | 'insert-name-ref' //       §4.3.2  1Txxxxxx
  | 'insert-literal-name' //   §4.3.3  01Hxxxxx
  | 'duplicate'; //            §4.3.4  000xxxxx

export interface QpackEncoderInstructionRecord {
  readonly kind: QpackEncoderInstructionKind;
  /** Offsets counted from the first byte of the encoder stream. */
  readonly start: number;
  readonly end: number;
  /** The new capacity (set-capacity only). */
  readonly capacity: number | null;
  /** Where the name (insert-name-ref) or the entry (duplicate) came from. */
  readonly table: 'static' | 'dynamic' | null;
  /** As sent: a static index, or a relative index (0 = the newest entry, §3.2.5). */
  readonly index: number | null;
  /** Absolute index of the referenced dynamic entry. */
  readonly referencedIndex: number | null;
  readonly huffmanName: boolean | null;
  readonly huffmanValue: boolean | null;
  /** The entry this instruction inserted (all but set-capacity). */
  readonly inserted: QpackTableRow | null;
  /** Absolute indexes of the entries it evicted, oldest first. */
  readonly evicted: readonly number[];
  readonly tableAfter: QpackTableSnapshot;
  readonly parts: readonly QpackPart[];
}

/** The three decoder instructions of §4.4. */
export type QpackDecoderInstructionKind =
  | 'section-ack' //              §4.4.1  1xxxxxxx
  | 'stream-cancel' //            §4.4.2  01xxxxxx
  | 'insert-count-increment'; //  §4.4.3  00xxxxxx

export interface QpackDecoderInstructionRecord {
  readonly kind: QpackDecoderInstructionKind;
  readonly start: number;
  readonly end: number;
  /** The stream acknowledged or cancelled. */
  readonly streamId: number | null;
  /** The Insert Count Increment. */
  readonly increment: number | null;
  readonly parts: readonly QpackPart[];
}
