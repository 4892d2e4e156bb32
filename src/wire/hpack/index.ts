// Public surface of src/wire/hpack, re-exported by src/wire/index.ts. Every name carries an Hpack/HPACK prefix
// (CONTRIBUTING.md, 'Naming and layout'); the unprefixed names exported first stay as deprecated aliases of
// the same values and types, at the end of the file.
import type {
  DynamicTableRow as HpackDynamicTableRow,
  EncodableField as HpackEncodableField,
  HeaderField as HpackHeaderField,
  IndexedStep as HpackIndexedStep,
  LiteralStep as HpackLiteralStep,
  SizeUpdateStep as HpackSizeUpdateStep,
} from './annotations';
import { REPRESENTATIONS as representations } from './annotations';
import { DEFAULT_HEADER_TABLE_SIZE as defaultTableSize, type DecodedBlock as HpackDecodedBlock } from './decoder';
import { ENTRY_OVERHEAD as entryOverhead } from './dynamic-table';
import type { EncodedBlock as HpackEncodedBlock, HuffmanMode as HpackHuffmanMode } from './encoder';
import { HUFFMAN_CODE_LENGTHS as codeLengths, HUFFMAN_CODES as codes, huffmanDecode as decodeHuffman, huffmanEncode as encodeHuffman } from './huffman';
import { STATIC_TABLE as staticTable, STATIC_TABLE_LENGTH as staticTableLength, type StaticEntry as HpackStaticEntry } from './static-table';

export { HpackEncoder } from './encoder';
export type { HpackEncoderOptions } from './encoder';
export { HpackDecoder, DEFAULT_HEADER_TABLE_SIZE as HPACK_DEFAULT_HEADER_TABLE_SIZE } from './decoder';
export type { HpackDecoderOptions } from './decoder';
export { HpackError } from './errors';
export type { HpackErrorCode } from './errors';
export { STATIC_TABLE as HPACK_STATIC_TABLE, STATIC_TABLE_LENGTH as HPACK_STATIC_TABLE_LENGTH } from './static-table';
export {
  HUFFMAN_CODE_LENGTHS as HPACK_HUFFMAN_CODE_LENGTHS,
  HUFFMAN_CODES as HPACK_HUFFMAN_CODES,
  huffmanEncode as hpackHuffmanEncode,
  huffmanDecode as hpackHuffmanDecode,
} from './huffman';
export { ENTRY_OVERHEAD as HPACK_ENTRY_OVERHEAD } from './dynamic-table';
export { REPRESENTATIONS as HPACK_REPRESENTATIONS } from './annotations';
export type { HpackRepresentation, HpackStep, HpackTableState } from './annotations';
export type {
  HpackDecodedBlock,
  HpackDynamicTableRow,
  HpackEncodableField,
  HpackEncodedBlock,
  HpackHeaderField,
  HpackHuffmanMode,
  HpackIndexedStep,
  HpackLiteralStep,
  HpackSizeUpdateStep,
  HpackStaticEntry,
};

// --- deprecated unprefixed names: the same values and types as the prefixed ones above ----------------

/** @deprecated Use `HPACK_DEFAULT_HEADER_TABLE_SIZE`. */
export const DEFAULT_HEADER_TABLE_SIZE = defaultTableSize;
/** @deprecated Use `HPACK_STATIC_TABLE`. */
export const STATIC_TABLE = staticTable;
/** @deprecated Use `HPACK_STATIC_TABLE_LENGTH`. */
export const STATIC_TABLE_LENGTH = staticTableLength;
/** @deprecated Use `HPACK_HUFFMAN_CODE_LENGTHS`. */
export const HUFFMAN_CODE_LENGTHS = codeLengths;
/** @deprecated Use `HPACK_HUFFMAN_CODES`. */
export const HUFFMAN_CODES = codes;
/** @deprecated Use `hpackHuffmanEncode`. */
export const huffmanEncode = encodeHuffman;
/** @deprecated Use `hpackHuffmanDecode`. */
export const huffmanDecode = decodeHuffman;
/** @deprecated Use `HPACK_ENTRY_OVERHEAD`. */
export const ENTRY_OVERHEAD = entryOverhead;
/** @deprecated Use `HPACK_REPRESENTATIONS`. */
export const REPRESENTATIONS = representations;
/** @deprecated Use `HpackDecodedBlock`. */
export type DecodedBlock = HpackDecodedBlock;
/** @deprecated Use `HpackDynamicTableRow`. */
export type DynamicTableRow = HpackDynamicTableRow;
/** @deprecated Use `HpackEncodableField`. */
export type EncodableField = HpackEncodableField;
/** @deprecated Use `HpackEncodedBlock`. */
export type EncodedBlock = HpackEncodedBlock;
/** @deprecated Use `HpackHeaderField`. */
export type HeaderField = HpackHeaderField;
/** @deprecated Use `HpackHuffmanMode`. */
export type HuffmanMode = HpackHuffmanMode;
/** @deprecated Use `HpackIndexedStep`. */
export type IndexedStep = HpackIndexedStep;
/** @deprecated Use `HpackLiteralStep`. */
export type LiteralStep = HpackLiteralStep;
/** @deprecated Use `HpackSizeUpdateStep`. */
export type SizeUpdateStep = HpackSizeUpdateStep;
/** @deprecated Use `HpackStaticEntry`. */
export type StaticEntry = HpackStaticEntry;
