// Public surface of src/wire/http3, re-exported by src/wire/index.ts. Names carry an Http3/Quic/Qpack
// prefix so they never clash with the other areas' exports.
import type { WireRole } from '../engine';

export { Http3Connection } from './http3-connection';
export type { Http3Event, Http3EventType, Http3RequestResult } from './http3-events';
export { HTTP3_LOCAL_SETTINGS, HTTP3_QPACK_DEFAULTS, http3LocalSettings } from './http3-options';
export type { Http3ConnectionOptions, Http3QpackOptions } from './http3-options';
export { HTTP3_CONTROL_STREAM } from './http3-streams';
export type { Http3Message } from './message';
export { QuicConnection } from './connection';
export type { QuicConnectionOptions } from './connection';
export type { QuicEvent, QuicOutput } from './quic-events';
/** @deprecated Use `WireRole`, the one role name of every engine. */
export type QuicRole = WireRole;
export {
  QuicRecovery,
  QUIC_INITIAL_WINDOW,
  QUIC_MAX_DATAGRAM_SIZE,
  QUIC_MINIMUM_WINDOW,
  QUIC_PACKET_THRESHOLD,
  QUIC_TIME_THRESHOLD,
  QUIC_INITIAL_RTT,
} from './recovery';
export type {
  CongestionChange as QuicCongestionChange,
  CongestionPhase as QuicCongestionPhase,
  RecoveryOutcome as QuicRecoveryOutcome,
  SentPacketInfo as QuicSentPacketInfo,
} from './recovery';
export { QUIC_HANDSHAKE, describeFrame as describeQuicFrame } from './packets';
export type { QuicDatagram, QuicFrame, QuicPacket, QuicSpace, QuicHandshakeRow, QuicFlight } from './packets';
export { decodeQuicDatagram, decodeQuicPacket, encodeQuicDatagram, encodeQuicPacket, QUIC_VERSION_1, quicPacketSize } from './quic-codec';
export type { DecodedQuicPacket, QuicDecodeOptions, QuicPacketHeaderOptions, QuicPacketToEncode, QuicRetry, QuicVersionNegotiation } from './quic-codec';
export { QUIC_CODEC_ERROR_CODES, QuicCodecError } from './quic-codec-errors';
export type { QuicCodecErrorCode } from './quic-codec-errors';
export { decodeQuicFrames, readQuicFrame, tlsMessageNames } from './quic-frame-reader';
export type { QuicFrameRead } from './quic-frame-reader';
export { encodeQuicFrames, QUIC_FRAME_TYPES, quicFrameSize, quicFrameType } from './quic-frame-writer';
export {
  decodePacketNumber as decodeQuicPacketNumber,
  quicPacketNumberLength,
  truncatePacketNumber as truncateQuicPacketNumber,
} from './quic-packet-number';
export { encodeVarint as encodeQuicVarint, readVarint as readQuicVarint, varintLength as quicVarintLength, QUIC_VARINT_MAX } from './varint';
export type { VarintRead as QuicVarintRead } from './varint';
export {
  decodeHttp3Frames,
  encodeHttp3Frame,
  encodeHttp3Frames,
  HTTP3_ERROR_CODES,
  http3ErrorName,
  HTTP3_FRAME_TYPES,
  HTTP3_RESERVED_FRAME_TYPES,
  HTTP3_SETTINGS,
  HTTP3_STREAM_TYPES,
} from './frames';
export type { Http3DecodeResult, Http3ErrorCode, Http3Frame, Http3Setting } from './frames';
export { encodeQpack, decodeQpack } from './qpack';
export type { QpackEncoded, QpackField, QpackLine } from './qpack';
export { QPACK_STATIC_TABLE } from './qpack-static-table';
export { describeQpackEncoderStream, QpackDecoder } from './qpack/decoder';
export type { QpackBlockedSection, QpackDecodedField, QpackDecodedSection, QpackDecoderOptions, QpackUnblockedSection } from './qpack/decoder';
export { QpackEncoder } from './qpack/encoder';
export type { QpackEncodableField, QpackEncodedSection, QpackEncoderOptions, QpackEncoderTableRow, QpackEncoderTableState } from './qpack/encoder';
export { describeQpackDecoderStream } from './qpack/decoder-stream';
export { QPACK_ENTRY_OVERHEAD } from './qpack/dynamic-table';
export { QpackError, QPACK_ERROR_CODES } from './qpack/errors';
export type { QpackErrorCode, QpackInput } from './qpack/errors';
export type { QpackHuffmanMode } from './qpack/primitives';
export { QPACK_FIELD_LINE_KINDS } from './qpack/records';
export type {
  QpackDecoderInstructionKind,
  QpackDecoderInstructionRecord,
  QpackEncoderInstructionKind,
  QpackEncoderInstructionRecord,
  QpackFieldLineKind,
  QpackFieldLineRecord,
  QpackPart,
  QpackSectionPrefix,
  QpackTableRow,
  QpackTableSnapshot,
} from './qpack/records';
export type { QpackStaticEntry } from './qpack-static-table';
export type * from './events';
export {
  QUIC_RECV_INPUTS,
  QUIC_RECV_STATES,
  QUIC_RECV_TRANSITIONS,
  QUIC_SEND_INPUTS,
  QUIC_SEND_STATES,
  QUIC_SEND_TRANSITIONS,
  quicRecvTransition,
  quicSendTransition,
} from './stream-states';
export type { QuicRecvInput, QuicRecvState, QuicSendInput, QuicSendState, QuicStreamPart, QuicStreamTransition } from './stream-states';
export {
  deriveQuicInitialKeys,
  protectQuicInitial,
  QUIC_V1_INITIAL_SALT,
  quicInitialHeader,
  readQuicInitialHeader,
  unprotectQuicInitial,
} from './initial-protection';
export type {
  QuicInitialHeaderFields,
  QuicInitialKeys,
  QuicInitialReading,
  QuicInitialReadOptions,
  QuicInitialSide,
  QuicInitialToProtect,
} from './initial-protection';
export { deriveQuicPacketKeys, protectQuicPacket, QUIC_AEAD_TAG_LENGTH, quicHeaderMask, quicNonce, unprotectQuicPacket } from './packet-protection';
export type { QuicAead, QuicOpenedPacket, QuicPacketKeys, QuicPacketPlace, QuicProtectedPacket } from './packet-protection';
export { quicRetryIntegrityTag, verifyQuicRetry } from './retry-protection';
