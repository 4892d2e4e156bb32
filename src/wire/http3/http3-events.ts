/**
 * What an Http3Connection reports (ARCHITECTURE.md, 'Engines'): the QUIC engine's events, passed through
 * unchanged, and the HTTP/3 ones, immutable values discriminated by `type`. Apart from http3-connection.ts,
 * as http1/events.ts and http2/events.ts are from their engines, so the simulator's HTTP/3 client, server and
 * UDP glue (sim/http3/) can name what an endpoint says without the engine. (events.ts beside it holds the
 * trace's events, not these.)
 */
import type { WireError } from '../errors';
import type { QuicEvent } from './quic-events';
import type { Http3Frame, Http3Setting } from './frames';
import type { Http3Message } from './message';
import type { QpackField } from './qpack';

/** An HTTP/3 event; the QUIC engine's events come through unchanged beside these. */
export type Http3Event =
  | QuicEvent
  /** An HTTP/3 frame this side wrote on `streamId`; HEADERS carry the fields they encode. */
  | { readonly type: 'frame-sent'; readonly streamId: number; readonly frame: Http3Frame; readonly fields?: readonly QpackField[] }
  /** The peer's SETTINGS, the first frame of its control stream (RFC 9114 §7.2.4). */
  | { readonly type: 'settings-received'; readonly settings: readonly Http3Setting[] }
  /** Bytes of a request (server) or response (client) stream arrived; the message is not complete yet. */
  | { readonly type: 'message-data'; readonly streamId: number; readonly length: number }
  /** A whole request (server) or response (client): its stream ended (FIN). */
  | ({ readonly type: 'message'; readonly streamId: number; readonly fieldSectionSize: number } & Http3Message)
  /** A malformed message (RFC 9114 §4.1.2); `error.code` is the H3_* (or QPACK_*) code. */
  | { readonly type: 'stream-error'; readonly streamId: number; readonly error: WireError }
  /** The peer's GOAWAY (RFC 9114 §5.2): from a server, the first request stream it will not process. */
  | { readonly type: 'goaway'; readonly id: number }
  /** The peer broke HTTP/3 on its control stream: we closed the connection with `error.code`. */
  | { readonly type: 'connection-error'; readonly error: WireError }
  /**
   * QPACK instructions this side wrote on its encoder stream (RFC 9204 §4.3) or decoder stream (§4.4);
   * `bytes` are the instructions alone (without the stream type), `insertCount` the encoder's or decoder's
   * Insert Count after them.
   */
  | {
      readonly type: 'qpack-instructions';
      readonly stream: 'encoder' | 'decoder';
      readonly streamId: number;
      readonly bytes: Uint8Array;
      readonly insertCount: number;
      /**
       * Where `bytes` start among all the stream bytes this side wrote, in the order written: the offset a
       * `lossSchedule` names (net/options.ts) when each write leaves at once, as it does while the
       * congestion window has room.
       */
      readonly offset: number;
    }
  /** A field section on `streamId` needs inserts that have not arrived (§2.1.2): its message waits. */
  | { readonly type: 'qpack-blocked'; readonly streamId: number; readonly requiredInsertCount: number; readonly insertCount: number }
  /** The encoder stream brought the inserts a blocked section needed: its message follows. */
  | { readonly type: 'qpack-unblocked'; readonly streamId: number; readonly requiredInsertCount: number; readonly insertCount: number };

export type Http3EventType = Http3Event['type'];

/** What `request` returns: the stream it opened and the events, oldest first. */
export interface Http3RequestResult {
  readonly streamId: number;
  /** Bytes of the QPACK field section (HAR's headersSize). */
  readonly fieldSectionSize: number;
  readonly events: readonly Http3Event[];
}
