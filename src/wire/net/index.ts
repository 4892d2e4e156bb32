// Public surface of src/wire/net, re-exported by src/wire/index.ts.
export { VirtualClock, roundTime } from './clock';
export type { Clock, TimerId } from './clock';
export { createRandom, hashSeed } from './random';
export type { Random } from './random';
export { Link, HEADER_OVERHEAD } from './link';
export type { LinkOptions, LossModel, Direction as LinkDirection } from './link';
export { TcpNetwork, TcpSocket, MSS as TCP_MSS, INITIAL_CWND as TCP_INITIAL_CWND, MIN_RTO as TCP_MIN_RTO } from './tcp';
export type { NetContext, TcpOptions } from './tcp';
export { LossRecovery } from '../transport/congestion';
export type { TransportRules, LossReason, CongestionPhase, CongestionChange, RecoveryOutcome, TimeoutOutcome, SentPacketInfo } from '../transport/congestion';
export { TlsStream, TLS_FLIGHTS, TLS_RECORD_PROTECTION } from './tls';
export type { TlsVersion, TlsStreamOptions } from './tls';
export { TLS_DEFAULT_KEY_SHARE, TLS_KEY_SHARE_EXTRA_BYTES } from '../transport/tls-sizes';
export type { TlsKeyShare } from '../transport/tls-sizes';
export { TLS_CIPHER_SUITES, TLS_EXTENSION_TYPES, TLS_HANDSHAKE_TYPES, TLS_NAMED_GROUPS } from '../transport/tls-names';
export { isWholeTlsRecords, parseTlsPartLabel, readTlsRecords, tlsPartLabel } from './tls-records';
export type { ReadTlsRecordsOptions, TlsPartLabel, TlsRecordSpan } from './tls-records';
export type { ByteStream, CloseInfo as ByteStreamCloseInfo, StreamState as ByteStreamState } from './stream';
export { CLIENT_CONNECTION_TABLE } from './connection-table';
export type { ClientConnectionState, ClientConnectionInput, TransitionRow as ClientConnectionTransition } from './connection-table';
export type {
  MessageCodec,
  WireRequest,
  WireResponse,
  HeaderField as WireHeaderField,
  Decoded as WireDecoded,
  ResponseContext as WireResponseContext,
  Http1Version as WireHttp1Version,
} from './codec';
export { SIMULATION_OPTIONS, resolveOptions } from './options';
export type {
  ResolvedSimulationOptions,
  ProxyOptions,
  SimHttpVersion,
  TlsOption,
  Http2FlowControl,
  Http2SimulationOptions,
  Http3SimulationOptions,
} from './options';
