// Public surface of src/wire/hpack, re-exported by src/wire/index.ts.
export { HpackEncoder } from './encoder';
export type { EncodedBlock, HpackEncoderOptions, HuffmanMode } from './encoder';
export { HpackDecoder, DEFAULT_HEADER_TABLE_SIZE } from './decoder';
export type { DecodedBlock, HpackDecoderOptions } from './decoder';
export { HpackError } from './errors';
export type { HpackErrorCode } from './errors';
export { STATIC_TABLE, STATIC_TABLE_LENGTH } from './static-table';
export type { StaticEntry } from './static-table';
export { HUFFMAN_CODE_LENGTHS, HUFFMAN_CODES, huffmanEncode, huffmanDecode } from './huffman';
export { ENTRY_OVERHEAD } from './dynamic-table';
export { REPRESENTATIONS } from './annotations';
export type {
  DynamicTableRow,
  EncodableField,
  HeaderField,
  HpackRepresentation,
  HpackStep,
  HpackTableState,
  IndexedStep,
  LiteralStep,
  SizeUpdateStep,
} from './annotations';
