// Public surface of src/wire/http2, re-exported by src/wire/index.ts.
// Every name carries an Http2/HTTP2 prefix (CONTRIBUTING.md, 'Naming and layout'). The unprefixed names
// this area exported first stay as deprecated aliases of the same values and types, at the end of the file.
import type { WireRole } from '../engine';
import {
  CLIENT_PREFACE as clientPreface,
  DEFAULT_SETTINGS as defaultSettings,
  DEFINED_FLAGS as definedFlags,
  ERROR_CODES as errorCodes,
  FLAGS as flags,
  FRAME_TYPE_CODES as frameTypeCodes,
  FRAME_TYPE_NAMES as frameTypeNames,
  SETTINGS_IDS as settingsIds,
  errorCodeName as errorName,
  type ErrorCodeName as Http2ErrorCodeName,
  type FrameTypeName as Http2FrameTypeName,
  type SettingName as Http2SettingName,
} from './constants';
import {
  decodeFrames as decodeAll,
  decodeFramesAnnotated as decodeAnnotated,
  encodeFrame as encodeOne,
  encodeFrames as encodeAll,
  parseFrame as parseOne,
} from './frame-codec';
import type { DecodeOptions as Http2DecodeOptions, ParseResult as Http2ParseResult } from './frame-codec';
import type {
  AnnotatedFrame as Http2AnnotatedFrame,
  ContinuationFrame as Http2ContinuationFrame,
  DataFrame as Http2DataFrame,
  FieldRange as Http2FieldRange,
  Frame as Http2Frame,
  FrameOfType as Http2FrameOfType,
  GoawayFrame as Http2GoawayFrame,
  HeadersFrame as Http2HeadersFrame,
  IgnoredFrame as Http2IgnoredFrame,
  PingFrame as Http2PingFrame,
  PriorityFields as Http2PriorityFields,
  PriorityFrame as Http2PriorityFrame,
  PushPromiseFrame as Http2PushPromiseFrame,
  RstStreamFrame as Http2RstStreamFrame,
  SettingsFrame as Http2SettingsFrame,
  SettingsParameter as Http2SettingsParameter,
  WindowUpdateFrame as Http2WindowUpdateFrame,
} from './frames';
import {
  STREAM_EVENTS as streamEvents,
  STREAM_STATES as streamStates,
  ERRORS as streamErrors,
  TRANSITIONS as streamTransitions,
  transition,
} from './stream-states';
import type {
  Direction as Http2StreamDirection,
  StreamEvent as Http2StreamEvent,
  StreamState as Http2StreamState,
  TransitionError as Http2StreamTransitionError,
  TransitionResult as Http2StreamTransitionResult,
} from './stream-states';
import { FlowControlWindow as FlowWindow } from './flow-control';
import { CONNECTION_SPECIFIC_FIELDS as connectionSpecificFields, validateFieldBlock as validateBlock } from './header-validation';
import type { BlockKind as Http2FieldBlockKind } from './header-validation';
import { DEFAULT_HTTP2_LIMITS as defaultLimits } from './limits';
import { frameFields as describeFields, frameFlagNames as describeFlags } from './describe';

export {
  encodeFrame as encodeHttp2Frame,
  encodeFrames as encodeHttp2Frames,
  decodeFrames as decodeHttp2Frames,
  decodeFramesAnnotated as decodeHttp2FramesAnnotated,
  parseFrame as parseHttp2Frame,
} from './frame-codec';
export type {
  Http2DecodeOptions,
  Http2ParseResult,
  Http2AnnotatedFrame,
  Http2ContinuationFrame,
  Http2DataFrame,
  Http2FieldRange,
  Http2Frame,
  Http2FrameOfType,
  Http2GoawayFrame,
  Http2HeadersFrame,
  Http2IgnoredFrame,
  Http2PingFrame,
  Http2PriorityFields,
  Http2PriorityFrame,
  Http2PushPromiseFrame,
  Http2RstStreamFrame,
  Http2SettingsFrame,
  Http2SettingsParameter,
  Http2WindowUpdateFrame,
  Http2ErrorCodeName,
  Http2FrameTypeName,
  Http2SettingName,
  Http2StreamDirection,
  Http2StreamEvent,
  Http2StreamState,
  Http2StreamTransitionError,
  Http2StreamTransitionResult,
  Http2FieldBlockKind,
};
export {
  CLIENT_PREFACE as HTTP2_CLIENT_PREFACE,
  DEFAULT_SETTINGS as HTTP2_DEFAULT_SETTINGS,
  DEFINED_FLAGS as HTTP2_DEFINED_FLAGS,
  ERROR_CODES as HTTP2_ERROR_CODES,
  FLAGS as HTTP2_FLAGS,
  FRAME_TYPE_CODES as HTTP2_FRAME_TYPE_CODES,
  FRAME_TYPE_NAMES as HTTP2_FRAME_TYPE_NAMES,
  SETTINGS_IDS as HTTP2_SETTINGS_IDS,
  errorCodeName as http2ErrorCodeName,
} from './constants';
export type { Settings as Http2Settings } from './constants';
export { Http2Error } from './errors';
export type { ErrorScope as Http2ErrorScope } from './errors';
export {
  STREAM_STATES as HTTP2_STREAM_STATES,
  STREAM_EVENTS as HTTP2_STREAM_EVENTS,
  TRANSITIONS as HTTP2_STREAM_TRANSITIONS,
  ERRORS as HTTP2_STREAM_ERRORS,
  transition as http2StreamTransition,
} from './stream-states';
export { FlowControlWindow as Http2FlowControlWindow } from './flow-control';
export { CONNECTION_SPECIFIC_FIELDS as HTTP2_CONNECTION_SPECIFIC_FIELDS, validateFieldBlock as validateHttp2FieldBlock } from './header-validation';
export { Http2Connection } from './connection';
export type { Http2ConnectionOptions, ReceiveResult as Http2ReceiveResult, SendResult as Http2SendResult } from './connection';
export { DEFAULT_HTTP2_LIMITS as HTTP2_DEFAULT_LIMITS } from './limits';
export type { Http2Limits } from './limits';
export type { HeadersKind, Http2Event, Http2EventType } from './events';
// What each field and flag of a frame means, as the simulator's trace and the inspector show them.
export { frameFields as http2FrameFields, frameFlagNames as http2FrameFlagNames } from './describe';

// --- deprecated unprefixed names: the same values and types as the prefixed ones above ----------------

/** @deprecated Use `WireRole`, the one role name of every engine. */
export type Http2Role = WireRole;
/** @deprecated Use `HTTP2_DEFAULT_LIMITS`. */
export const DEFAULT_HTTP2_LIMITS = defaultLimits;
/** @deprecated Use `encodeHttp2Frame`. */
export const encodeFrame = encodeOne;
/** @deprecated Use `encodeHttp2Frames`. */
export const encodeFrames = encodeAll;
/** @deprecated Use `decodeHttp2Frames`. */
export const decodeFrames = decodeAll;
/** @deprecated Use `decodeHttp2FramesAnnotated`. */
export const decodeFramesAnnotated = decodeAnnotated;
/** @deprecated Use `parseHttp2Frame`. */
export const parseFrame = parseOne;
/** @deprecated Use `HTTP2_CLIENT_PREFACE`. */
export const CLIENT_PREFACE = clientPreface;
/** @deprecated Use `HTTP2_DEFAULT_SETTINGS`. */
export const DEFAULT_SETTINGS = defaultSettings;
/** @deprecated Use `HTTP2_DEFINED_FLAGS`. */
export const DEFINED_FLAGS = definedFlags;
/** @deprecated Use `HTTP2_ERROR_CODES`. */
export const ERROR_CODES = errorCodes;
/** @deprecated Use `HTTP2_FLAGS`. */
export const FLAGS = flags;
/** @deprecated Use `HTTP2_FRAME_TYPE_CODES`. */
export const FRAME_TYPE_CODES = frameTypeCodes;
/** @deprecated Use `HTTP2_FRAME_TYPE_NAMES`. */
export const FRAME_TYPE_NAMES = frameTypeNames;
/** @deprecated Use `HTTP2_SETTINGS_IDS`. */
export const SETTINGS_IDS = settingsIds;
/** @deprecated Use `http2ErrorCodeName`. */
export const errorCodeName = errorName;
/** @deprecated Use `HTTP2_STREAM_STATES`. */
export const STREAM_STATES = streamStates;
/** @deprecated Use `HTTP2_STREAM_EVENTS`. */
export const STREAM_EVENTS = streamEvents;
/** @deprecated Use `HTTP2_STREAM_TRANSITIONS`. */
export const STREAM_TRANSITIONS = streamTransitions;
/** @deprecated Use `HTTP2_STREAM_ERRORS`. */
export const STREAM_ERRORS = streamErrors;
/** @deprecated Use `http2StreamTransition`. */
export const streamTransition = transition;
/** @deprecated Use `Http2FlowControlWindow`. */
export const FlowControlWindow = FlowWindow;
/** @deprecated Use `Http2FlowControlWindow`. */
export type FlowControlWindow = FlowWindow;
/** @deprecated Use `HTTP2_CONNECTION_SPECIFIC_FIELDS`. */
export const CONNECTION_SPECIFIC_FIELDS = connectionSpecificFields;
/** @deprecated Use `validateHttp2FieldBlock`. */
export const validateFieldBlock = validateBlock;
/** @deprecated Use `http2FrameFields`. */
export const frameFields = describeFields;
/** @deprecated Use `http2FrameFlagNames`. */
export const frameFlagNames = describeFlags;
/** @deprecated Use `Http2DecodeOptions`. */
export type DecodeOptions = Http2DecodeOptions;
/** @deprecated Use `Http2ParseResult`. */
export type ParseResult = Http2ParseResult;
/** @deprecated Use `Http2AnnotatedFrame`. */
export type AnnotatedFrame = Http2AnnotatedFrame;
/** @deprecated Use `Http2ContinuationFrame`. */
export type ContinuationFrame = Http2ContinuationFrame;
/** @deprecated Use `Http2DataFrame`. */
export type DataFrame = Http2DataFrame;
/** @deprecated Use `Http2FieldRange`. */
export type FieldRange = Http2FieldRange;
/** @deprecated Use `Http2Frame`. */
export type Frame = Http2Frame;
/** @deprecated Use `Http2FrameOfType`. */
export type FrameOfType<T extends Http2FrameTypeName> = Http2FrameOfType<T>;
/** @deprecated Use `Http2GoawayFrame`. */
export type GoawayFrame = Http2GoawayFrame;
/** @deprecated Use `Http2HeadersFrame`. */
export type HeadersFrame = Http2HeadersFrame;
/** @deprecated Use `Http2IgnoredFrame`. */
export type IgnoredFrame = Http2IgnoredFrame;
/** @deprecated Use `Http2PingFrame`. */
export type PingFrame = Http2PingFrame;
/** @deprecated Use `Http2PriorityFields`. */
export type PriorityFields = Http2PriorityFields;
/** @deprecated Use `Http2PriorityFrame`. */
export type PriorityFrame = Http2PriorityFrame;
/** @deprecated Use `Http2PushPromiseFrame`. */
export type PushPromiseFrame = Http2PushPromiseFrame;
/** @deprecated Use `Http2RstStreamFrame`. */
export type RstStreamFrame = Http2RstStreamFrame;
/** @deprecated Use `Http2SettingsFrame`. */
export type SettingsFrame = Http2SettingsFrame;
/** @deprecated Use `Http2SettingsParameter`. */
export type SettingsParameter = Http2SettingsParameter;
/** @deprecated Use `Http2WindowUpdateFrame`. */
export type WindowUpdateFrame = Http2WindowUpdateFrame;
/** @deprecated Use `Http2ErrorCodeName`. */
export type ErrorCodeName = Http2ErrorCodeName;
/** @deprecated Use `Http2FrameTypeName`. */
export type FrameTypeName = Http2FrameTypeName;
/** @deprecated Use `Http2SettingName`. */
export type SettingName = Http2SettingName;
/** @deprecated Use `Http2StreamDirection`. */
export type StreamDirection = Http2StreamDirection;
/** @deprecated Use `Http2StreamEvent`. */
export type StreamEvent = Http2StreamEvent;
/** @deprecated Use `Http2StreamState`. */
export type StreamState = Http2StreamState;
/** @deprecated Use `Http2StreamTransitionError`. */
export type StreamTransitionError = Http2StreamTransitionError;
/** @deprecated Use `Http2StreamTransitionResult`. */
export type StreamTransitionResult = Http2StreamTransitionResult;
/** @deprecated Use `Http2FieldBlockKind`. */
export type FieldBlockKind = Http2FieldBlockKind;
