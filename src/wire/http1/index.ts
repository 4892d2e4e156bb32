// Public surface of src/wire/http1, re-exported by src/wire/index.ts. Names carry an Http1/HTTP1 prefix so
// they cannot collide with the other engines' exports through `export *`.
import type { WireRole } from '../engine';

export { parseHttp1, parseHttp1Async, serializeHttp1 } from './parse';
export {
  decodeTransferCodings as decodeHttp1TransferCodings,
  DECODABLE_TRANSFER_CODINGS as HTTP1_DECODABLE_TRANSFER_CODINGS,
  canDecodeTransferCodings as canDecodeHttp1TransferCodings,
  undecodedCodingsNote as http1UndecodedCodingsNote,
} from './codings';
export type { Http1Message, Http1Request, Http1Response, ParseHttp1Options, ParseHttp1Result } from './parse';

export {
  Http1Connection,
  DEFAULT_HEADER_TIMEOUT_MS as HTTP1_DEFAULT_HEADER_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS as HTTP1_DEFAULT_IDLE_TIMEOUT_MS,
} from './connection';
export type { Http1ConnectionOptions, Http1Deadline, Http1EngineEvent } from './connection';
export {
  Http1Reader,
  DEFAULT_MAX_HEADER_BYTES as HTTP1_DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_TARGET_BYTES as HTTP1_DEFAULT_MAX_TARGET_BYTES,
  DEFAULT_MAX_BODY_BYTES as HTTP1_DEFAULT_MAX_BODY_BYTES,
} from './reader';
export type {
  ReaderOptions as Http1ReaderOptions,
  ReadStep as Http1ReadStep,
  ResponseContext as Http1ResponseContext,
  HeadMeta as Http1HeadMeta,
} from './reader';
export { Http1Writer } from './writer';

export {
  requestEvent as http1Request,
  informationalEvent as http1Informational,
  responseEvent as http1Response,
  dataEvent as http1Data,
  endOfMessageEvent as http1EndOfMessage,
  connectionClosedEvent as http1ConnectionClosed,
  HTTP1_EVENT_TYPES,
} from './events';
export type {
  Header as Http1Header,
  Http1Version,
  Http1Event,
  Http1EventType,
  RequestEvent as Http1RequestEvent,
  InformationalEvent as Http1InformationalEvent,
  ResponseEvent as Http1ResponseEvent,
  DataEvent as Http1DataEvent,
  EndOfMessageEvent as Http1EndOfMessageEvent,
  ConnectionClosedEvent as Http1ConnectionClosedEvent,
} from './events';

export {
  HTTP1_STATES,
  EVENT_TRANSITIONS as HTTP1_EVENT_TRANSITIONS,
  SETTLE_RULES as HTTP1_SETTLE_RULES,
  findTransition as findHttp1Transition,
} from './state';
export type {
  Http1State,
  Http1Guard,
  EventTransition as Http1EventTransition,
  SettleRule as Http1SettleRule,
  SettleCondition as Http1SettleCondition,
  FiredTransition as Http1FiredTransition,
} from './state';

export { HTTP1_ERROR_CODES } from './codes';
export type { Http1ErrorCode, Tolerated as Http1Tolerated } from './codes';
export { isPersistent as isHttp1Persistent, parseKeepAlive as parseHttp1KeepAlive } from './framing';
export type { BodyFraming as Http1BodyFraming } from './framing';

/** @deprecated Use `WireRole`, the one role name of every engine (the same two words). */
export type Http1Role = WireRole;
