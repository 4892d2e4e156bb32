/**
 * What a QuicConnection reports (ARCHITECTURE.md, 'Engines'): its events, immutable values discriminated by
 * `type`, and the output of every call, which carries them with the datagrams to send and the next timer.
 * Apart from connection.ts, as http3-events.ts is from http3-connection.ts, so the engine's file holds the
 * engine and reads in one sitting; Http3Connection passes these events through beside its own.
 */
import type { QuicDatagram, QuicPacket, QuicSpace } from './packets';
import type { CongestionChange } from './recovery';
import type { QuicStreamTransition } from './stream-states';

export type QuicRole = 'client' | 'server';

export type QuicEvent =
  | { readonly type: 'handshake'; readonly from: QuicRole; readonly space: QuicSpace; readonly messages: string }
  /** This side may now send 1-RTT packets; `handshakeMs` is from start (client) or first packet (server). */
  | { readonly type: 'ready'; readonly side: QuicRole; readonly handshakeMs: number; readonly resumed: boolean }
  | { readonly type: 'confirmed'; readonly side: QuicRole }
  | { readonly type: 'stream-data'; readonly streamId: number; readonly data: Uint8Array; readonly fin: boolean }
  /** RESET_STREAM sent (`by` is this side) or received (`by` is the peer): that half of the stream is abandoned. */
  | { readonly type: 'stream-reset'; readonly by: QuicRole; readonly streamId: number; readonly errorCode: number; readonly finalSize: number }
  /** STOP_SENDING sent (`by` is this side) or received (`by` is the peer). */
  | { readonly type: 'stop-sending'; readonly by: QuicRole; readonly streamId: number; readonly errorCode: number }
  /** A stream part changed state (RFC 9000 §3.1-3.2, tables in stream-states.ts). */
  | ({ readonly type: 'stream-transition' } & QuicStreamTransition)
  | { readonly type: 'stream-blocked'; readonly streamId: number; readonly waitingFor: number; readonly heldBytes: number }
  | {
      readonly type: 'packet-sent';
      readonly packet: QuicPacket;
      readonly size: number;
      readonly cwnd: number;
      readonly bytesInFlight: number;
      readonly probe: boolean;
    }
  | { readonly type: 'packet-received'; readonly packet: QuicPacket }
  | {
      readonly type: 'packets-lost';
      readonly numbers: readonly number[];
      readonly streams: readonly number[];
      readonly reason: 'packet-threshold' | 'time-threshold';
    }
  | { readonly type: 'pto'; readonly pto: number; readonly count: number }
  | ({ readonly type: 'congestion' } & CongestionChange)
  | { readonly type: 'closed'; readonly by: QuicRole; readonly errorCode: number; readonly reason: string };

export interface QuicOutput {
  readonly datagrams: readonly QuicDatagram[];
  readonly events: readonly QuicEvent[];
  /** Virtual time at which `timeout` should run, if any. */
  readonly timer: number | undefined;
}
