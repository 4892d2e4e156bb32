/**
 * HTTP/2 protocol constants as data (RFC 9113 §6, §7, §11): frame type codes, flags, settings
 * parameters and their defaults, error codes, and the client connection preface.
 */

/** RFC 9113 §6: the ten frame types defined by the RFC, by type code. */
export const FRAME_TYPE_CODES = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export type FrameTypeName = keyof typeof FRAME_TYPE_CODES;

export const FRAME_TYPE_NAMES: readonly FrameTypeName[] = Object.keys(FRAME_TYPE_CODES) as FrameTypeName[];

/** Flag bits (RFC 9113 §6). The same bit means different things on different frame types. */
export const FLAGS = {
  /** DATA, HEADERS */
  END_STREAM: 0x1,
  /** SETTINGS, PING */
  ACK: 0x1,
  /** HEADERS, PUSH_PROMISE, CONTINUATION */
  END_HEADERS: 0x4,
  /** DATA, HEADERS, PUSH_PROMISE */
  PADDED: 0x8,
  /** HEADERS */
  PRIORITY: 0x20,
} as const;

/** Which flags each frame type defines; others are ignored on receipt and must be unset on send. */
export const DEFINED_FLAGS: Readonly<Record<FrameTypeName, number>> = {
  DATA: FLAGS.END_STREAM | FLAGS.PADDED,
  HEADERS: FLAGS.END_STREAM | FLAGS.END_HEADERS | FLAGS.PADDED | FLAGS.PRIORITY,
  PRIORITY: 0,
  RST_STREAM: 0,
  SETTINGS: FLAGS.ACK,
  PUSH_PROMISE: FLAGS.END_HEADERS | FLAGS.PADDED,
  PING: FLAGS.ACK,
  GOAWAY: 0,
  WINDOW_UPDATE: 0,
  CONTINUATION: FLAGS.END_HEADERS,
};

/** RFC 9113 §7: error codes, by name. */
export const ERROR_CODES = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;

export type ErrorCodeName = keyof typeof ERROR_CODES;

/** Name of a numeric error code; unknown codes must not trigger special behaviour (RFC 9113 §7). */
export function errorCodeName(code: number): ErrorCodeName | `UNKNOWN_0x${string}` {
  for (const [name, value] of Object.entries(ERROR_CODES)) if (value === code) return name as ErrorCodeName;
  return `UNKNOWN_0x${code.toString(16)}`;
}

/** RFC 9113 §6.5.2: settings parameters, by identifier. */
export const SETTINGS_IDS = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

export type SettingName = keyof typeof SETTINGS_IDS;

export type Settings = Record<SettingName, number>;

/** Initial values (RFC 9113 §6.5.2); "unlimited" is Infinity. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  HEADER_TABLE_SIZE: 4096,
  ENABLE_PUSH: 1,
  MAX_CONCURRENT_STREAMS: Infinity,
  INITIAL_WINDOW_SIZE: 65_535,
  MAX_FRAME_SIZE: 16_384,
  MAX_HEADER_LIST_SIZE: Infinity,
});

/** RFC 9113 §4.2: SETTINGS_MAX_FRAME_SIZE lies in [2^14, 2^24 - 1]. */
export const MIN_MAX_FRAME_SIZE = 16_384;
export const MAX_MAX_FRAME_SIZE = 16_777_215;
/** RFC 9113 §6.9.1: windows never exceed 2^31 - 1. */
export const MAX_WINDOW_SIZE = 2_147_483_647;
/** RFC 9113 §6.9.2: both connection and stream windows start at 65,535. */
export const DEFAULT_WINDOW_SIZE = 65_535;
export const FRAME_HEADER_LENGTH = 9;

/** RFC 9113 §3.4: the client connection preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n". */
export const CLIENT_PREFACE: Uint8Array = new TextEncoder().encode('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
