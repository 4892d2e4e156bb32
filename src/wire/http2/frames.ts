/**
 * HTTP/2 frames as plain data (RFC 9113 §4.1, §6). `flags` is the raw flags octet; the payload fields
 * are typed per frame. When encoding, PADDED follows `padding` and PRIORITY follows `priority`, so a
 * frame built by hand cannot contradict itself; all other flags come from `flags` as given.
 */
import type { FrameTypeName } from './constants';

export interface PriorityFields {
  /** E bit: the stream becomes the sole dependency of `dependency`. */
  readonly exclusive: boolean;
  readonly dependency: number;
  /** 1-256 (sent as weight - 1, RFC 9113 §6.3). */
  readonly weight: number;
}

interface FrameBase {
  readonly streamId: number;
  readonly flags: number;
}

export interface DataFrame extends FrameBase {
  readonly type: 'DATA';
  readonly data: Uint8Array;
  /** Padding octets (PADDED flag); their count is the Pad Length field. */
  readonly padding?: Uint8Array;
}

export interface HeadersFrame extends FrameBase {
  readonly type: 'HEADERS';
  readonly headerBlockFragment: Uint8Array;
  readonly padding?: Uint8Array;
  readonly priority?: PriorityFields;
}

export interface PriorityFrame extends FrameBase {
  readonly type: 'PRIORITY';
  readonly priority: PriorityFields;
}

export interface RstStreamFrame extends FrameBase {
  readonly type: 'RST_STREAM';
  readonly errorCode: number;
}

export interface SettingsParameter {
  readonly id: number;
  readonly value: number;
}

export interface SettingsFrame extends FrameBase {
  readonly type: 'SETTINGS';
  /** In wire order; unknown identifiers are kept (and ignored by the connection, §6.5.2). */
  readonly settings: readonly SettingsParameter[];
}

export interface PushPromiseFrame extends FrameBase {
  readonly type: 'PUSH_PROMISE';
  readonly promisedStreamId: number;
  readonly headerBlockFragment: Uint8Array;
  readonly padding?: Uint8Array;
}

export interface PingFrame extends FrameBase {
  readonly type: 'PING';
  /** Exactly 8 octets. */
  readonly opaqueData: Uint8Array;
}

export interface GoawayFrame extends FrameBase {
  readonly type: 'GOAWAY';
  readonly lastStreamId: number;
  readonly errorCode: number;
  readonly debugData: Uint8Array;
}

export interface WindowUpdateFrame extends FrameBase {
  readonly type: 'WINDOW_UPDATE';
  readonly windowSizeIncrement: number;
}

export interface ContinuationFrame extends FrameBase {
  readonly type: 'CONTINUATION';
  readonly headerBlockFragment: Uint8Array;
}

export type Frame =
  | DataFrame
  | HeadersFrame
  | PriorityFrame
  | RstStreamFrame
  | SettingsFrame
  | PushPromiseFrame
  | PingFrame
  | GoawayFrame
  | WindowUpdateFrame
  | ContinuationFrame;

export type FrameOfType<T extends FrameTypeName> = Extract<Frame, { type: T }>;

/** One field's byte range in the input, for the hex inspector: [start, end) absolute offsets. */
export interface FieldRange {
  readonly field: string;
  readonly start: number;
  readonly end: number;
}

export interface AnnotatedFrame {
  readonly frame: Frame;
  readonly start: number;
  readonly end: number;
  readonly fields: readonly FieldRange[];
}

/** A frame of a type this implementation does not know: skipped, as RFC 9113 §4.1 and §5.5 require. */
export interface IgnoredFrame {
  readonly typeCode: number;
  readonly streamId: number;
  readonly flags: number;
  readonly start: number;
  readonly end: number;
}
