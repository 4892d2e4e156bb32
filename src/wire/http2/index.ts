// Public surface of src/wire/http2, re-exported by src/wire/index.ts.
export { encodeFrame, encodeFrames, decodeFrames, decodeFramesAnnotated, parseFrame } from './frame-codec';
export type { DecodeOptions, ParseResult } from './frame-codec';
export type {
  AnnotatedFrame,
  ContinuationFrame,
  DataFrame,
  FieldRange,
  Frame,
  FrameOfType,
  GoawayFrame,
  HeadersFrame,
  IgnoredFrame,
  PingFrame,
  PriorityFields,
  PriorityFrame,
  PushPromiseFrame,
  RstStreamFrame,
  SettingsFrame,
  SettingsParameter,
  WindowUpdateFrame,
} from './frames';
export {
  CLIENT_PREFACE,
  DEFAULT_SETTINGS,
  DEFINED_FLAGS,
  ERROR_CODES,
  FLAGS,
  FRAME_TYPE_CODES,
  FRAME_TYPE_NAMES,
  SETTINGS_IDS,
  errorCodeName,
} from './constants';
export type { ErrorCodeName, FrameTypeName, SettingName, Settings as Http2Settings } from './constants';
export { Http2Error } from './errors';
export type { ErrorScope as Http2ErrorScope } from './errors';
export { STREAM_STATES, STREAM_EVENTS, TRANSITIONS as STREAM_TRANSITIONS, ERRORS as STREAM_ERRORS, transition as streamTransition } from './stream-states';
export type {
  Direction as StreamDirection,
  StreamEvent,
  StreamState,
  TransitionError as StreamTransitionError,
  TransitionResult as StreamTransitionResult,
} from './stream-states';
export { FlowControlWindow } from './flow-control';
export { CONNECTION_SPECIFIC_FIELDS, validateFieldBlock } from './header-validation';
export type { BlockKind as FieldBlockKind } from './header-validation';
export { Http2Connection, DEFAULT_HTTP2_LIMITS } from './connection';
export type {
  Http2ConnectionOptions,
  Http2Limits,
  ReceiveResult as Http2ReceiveResult,
  Role as Http2Role,
  SendResult as Http2SendResult,
} from './connection';
export type { HeadersKind, Http2Event, Http2EventType } from './events';
// What each field and flag of a frame means, as the simulator's trace and the inspector show them.
export { frameFields, frameFlagNames } from './describe';
