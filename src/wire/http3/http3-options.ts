/**
 * What an Http3Connection is made with: its options, among them the QPACK limits it announces for its
 * decoder, and the SETTINGS frame those limits make (RFC 9114 §7.2.4, RFC 9204 §5). Apart from
 * http3-connection.ts, as http3-events.ts is, so that file holds the engine itself and reads in one sitting.
 */
import type { WireRole } from '../engine';
import type { QuicConnectionOptions } from './connection';
import { HTTP3_SETTINGS, type Http3Frame } from './frames';

/**
 * The QPACK limits an endpoint announces for its decoder (RFC 9204 §5), which bind the peer's encoder:
 * SETTINGS_QPACK_MAX_TABLE_CAPACITY (0x01, §3.2.3) and SETTINGS_QPACK_BLOCKED_STREAMS (0x07, §2.1.2).
 */
export interface Http3QpackOptions {
  /** The largest dynamic table the peer's encoder may use, bytes. 0: static table and literals only. */
  readonly maxTableCapacity?: number;
  /** How many streams may wait for the encoder stream at once. 0: the peer's encoder never makes one wait. */
  readonly maxBlockedStreams?: number;
}

/** Defaults: 4096 bytes and 100 streams, what ngtcp2's example client and server set in nghttp3's settings. */
export const HTTP3_QPACK_DEFAULTS: Readonly<Required<Http3QpackOptions>> = Object.freeze({ maxTableCapacity: 4096, maxBlockedStreams: 100 });

/** The SETTINGS frame an endpoint with these QPACK limits sends first on its control stream (RFC 9114 §7.2.4). */
export function http3LocalSettings(qpack: Http3QpackOptions = {}): Http3Frame {
  return {
    type: 'SETTINGS',
    settings: [
      { id: HTTP3_SETTINGS.QPACK_MAX_TABLE_CAPACITY, value: qpack.maxTableCapacity ?? HTTP3_QPACK_DEFAULTS.maxTableCapacity },
      { id: HTTP3_SETTINGS.QPACK_BLOCKED_STREAMS, value: qpack.maxBlockedStreams ?? HTTP3_QPACK_DEFAULTS.maxBlockedStreams },
    ],
  };
}

/** Our endpoints' SETTINGS with the default QPACK limits (RFC 9204 §5). */
export const HTTP3_LOCAL_SETTINGS: Http3Frame = http3LocalSettings();

export interface Http3ConnectionOptions {
  readonly role: WireRole;
  /** Client only: a session ticket from an earlier connection to this server, enabling 0-RTT. */
  readonly resume?: boolean;
  /** QUIC's restart after idle (http3/recovery.ts); default true. */
  readonly restartAfterIdle?: boolean;
  /** QUIC's congestion control (QuicConnectionOptions.congestionControl); default 'cubic'. */
  readonly congestionControl?: QuicConnectionOptions['congestionControl'];
  /** Server: size of its TLS Certificate message, bytes (QuicConnectionOptions.certificateChainBytes). */
  readonly certificateChainBytes?: number;
  /** QUIC pacing (QuicConnectionOptions.pacing); default false. */
  readonly pacing?: boolean;
  /** The TLS key exchange (QuicConnectionOptions.keyShare). */
  readonly keyShare?: QuicConnectionOptions['keyShare'];
  /** The QPACK limits this endpoint announces (HTTP3_QPACK_DEFAULTS when left out). */
  readonly qpack?: Http3QpackOptions;
}
