/**
 * What an `Http2Connection` reports (ARCHITECTURE.md, 'Engines'): immutable values discriminated by `type`.
 * Frames to send travel separately, in the `frames`/`bytes` of the same result.
 */
import type { HeaderField } from '../hpack/index';
import type { Settings } from './constants';
import type { Http2Error } from './errors';
import type { PriorityFields, SettingsParameter } from './frames';

export type HeadersKind = 'request' | 'informational' | 'response' | 'trailers';

export type Http2Event =
  /** The peer's SETTINGS arrived and now apply; the ACK is among the frames to send. */
  | { readonly type: 'settings-received'; readonly settings: Partial<Settings>; readonly unknown: readonly SettingsParameter[] }
  /** The peer acknowledged our SETTINGS, which now apply. */
  | { readonly type: 'settings-acknowledged'; readonly settings: Partial<Settings> }
  | {
      readonly type: 'headers';
      readonly streamId: number;
      readonly kind: HeadersKind;
      readonly headers: readonly HeaderField[];
      readonly endStream: boolean;
      readonly priority?: PriorityFields;
    }
  | {
      readonly type: 'data';
      readonly streamId: number;
      readonly data: Uint8Array;
      readonly endStream: boolean;
      /** Octets counted against flow control: data plus padding plus the Pad Length octet. */
      readonly flowControlledLength: number;
    }
  | {
      readonly type: 'push-promise';
      readonly streamId: number;
      readonly promisedStreamId: number;
      readonly headers: readonly HeaderField[];
    }
  /** The peer reset a stream. */
  | { readonly type: 'stream-reset'; readonly streamId: number; readonly errorCode: number; readonly errorName: string }
  /** The peer broke the rules on one stream: we reset it (RST_STREAM is among the frames to send). */
  | { readonly type: 'stream-error'; readonly streamId: number; readonly error: Http2Error }
  /** The peer broke the rules for the connection: we sent GOAWAY and the connection is finished. */
  | { readonly type: 'connection-error'; readonly error: Http2Error }
  | { readonly type: 'ping'; readonly opaqueData: Uint8Array }
  | { readonly type: 'ping-ack'; readonly opaqueData: Uint8Array }
  | {
      readonly type: 'goaway';
      readonly lastStreamId: number;
      readonly errorCode: number;
      readonly errorName: string;
      readonly debugData: Uint8Array;
      /** Our streams above lastStreamId: the peer did not process them, so they may be retried. */
      readonly unprocessedStreams: readonly number[];
    }
  | { readonly type: 'window-update'; readonly streamId: number; readonly increment: number; readonly window: number }
  | { readonly type: 'priority'; readonly streamId: number; readonly priority: PriorityFields }
  /** A stream reached the closed state. */
  | { readonly type: 'stream-closed'; readonly streamId: number };

export type Http2EventType = Http2Event['type'];

/** Builds a frozen event: events are values, never filled in later. */
export const event = <E extends Http2Event>(e: E): E => Object.freeze(e);
