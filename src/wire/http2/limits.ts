/**
 * The engine's defences against a peer that floods or bloats (RFC 9113 §10.5): the limits (`Http2Limits`,
 * `DEFAULT_HTTP2_LIMITS`), what our preface announces of them, and `FloodGuard`, one connection's counters
 * with the checks that say when the peer went over. Apart from connection.ts so that each attack and its
 * answer read in one place: the connection calls a check where a frame arrives and sends the error it gets
 * as GOAWAY. Two limits act elsewhere: CONTINUATION frames are counted where a field block is assembled
 * (field-block.ts), and the header-list size is enforced by the HPACK decoder. No clock is kept here
 * either: the RST_STREAM budget refills on times the caller passes in. Tested in limits.test.ts.
 */
import { FLAGS, type Settings } from './constants';
import { connectionError, type Http2Error } from './errors';
import type { Frame } from './frames';

/**
 * What one connection lets its peer cost us (RFC 9113 §10.5, "Denial-of-Service Considerations"). Each
 * breach ends the connection with GOAWAY, except the two that concern one stream (too many streams, too
 * large a header list), which reset that stream. Defaults follow nghttp2 (the library behind Node's
 * http2, curl and nghttpd) unless said otherwise.
 */
export interface Http2Limits {
  /**
   * Server: SETTINGS_MAX_CONCURRENT_STREAMS announced in our preface and enforced from the start, before
   * the client acknowledges it; a stream over it is reset with REFUSED_STREAM (§5.1.2). Default 100
   * (nghttpd's, and the smallest value §5.1.2 recommends; nghttp2 the library and Node announce 2^32 - 1,
   * no limit). An explicit `settings.MAX_CONCURRENT_STREAMS` wins.
   */
  maxConcurrentStreams: number;
  /**
   * Largest decoded header list (names + values + 32 per field, §6.5.2). Server: announced as
   * SETTINGS_MAX_HEADER_LIST_SIZE. Enforced while decoding, so a small HPACK block that expands to
   * gigabytes (an "HPACK bomb") costs its own size, not the expansion: the stream is reset with
   * ENHANCE_YOUR_CALM, as Node does (RFC 9113 §10.5.1 suggests answering 431 instead). Default 65,536 (64 KiB),
   * ours: Node's is 65,535. An explicit setting wins.
   */
  maxHeaderListSize: number;
  /**
   * CONTINUATION frames after one HEADERS or PUSH_PROMISE; one more is a CONTINUATION flood
   * (CVE-2024-27316 shape): GOAWAY ENHANCE_YOUR_CALM. Default 8 (nghttp2's, where it is a fatal error).
   */
  maxContinuations: number;
  /**
   * Frames that carry nothing and end nothing: DATA of length 0 without END_STREAM, and empty HEADERS or
   * CONTINUATION fragments without END_HEADERS (CVE-2019-9518). Over the budget: GOAWAY
   * ENHANCE_YOUR_CALM. Default 1000 per connection (Node's maxSessionInvalidFrames).
   */
  maxEmptyFrames: number;
  /**
   * Server: RST_STREAM frames received, as a token bucket of `resetBurst` tokens refilled at
   * `resetRatePerSecond` on the `now` clock (rapid reset, CVE-2023-44487). Out of tokens: GOAWAY
   * INTERNAL_ERROR, nghttp2's answer. Defaults 1000 and 33 (nghttp2's).
   */
  resetBurst: number;
  resetRatePerSecond: number;
  /**
   * PING and SETTINGS acknowledgements produced but not yet reported written (`outputFlushed()`): a peer
   * that sends them and never reads would have us queue answers without end (CVE-2019-9512, -9515).
   * Over the budget: GOAWAY ENHANCE_YOUR_CALM. Default 1000 (nghttp2's max_outbound_ack).
   */
  maxQueuedAcks: number;
}

export const DEFAULT_HTTP2_LIMITS: Readonly<Http2Limits> = Object.freeze({
  maxConcurrentStreams: 100,
  maxHeaderListSize: 65_536,
  maxContinuations: 8,
  maxEmptyFrames: 1000,
  resetBurst: 1000,
  resetRatePerSecond: 33,
  maxQueuedAcks: 1000,
});

/** Our preface's settings: the options', plus (server) the stream and header-list limits we enforce. */
export function prefaceSettings(role: 'client' | 'server', limits: Readonly<Http2Limits>, given: Partial<Settings>): Partial<Settings> {
  if (role !== 'server') return given;
  return {
    MAX_CONCURRENT_STREAMS: limits.maxConcurrentStreams,
    MAX_HEADER_LIST_SIZE: limits.maxHeaderListSize,
    ...given,
  };
}

/**
 * The header-list size our decoder holds the peer to from the first block: the smaller of the limit and
 * our SETTINGS_MAX_HEADER_LIST_SIZE. The setting only tells the peer (§6.5.2 makes it advisory).
 */
export function headerListLimit(limits: Readonly<Http2Limits>, settings: Partial<Settings> = {}): number {
  return Math.min(limits.maxHeaderListSize, settings.MAX_HEADER_LIST_SIZE ?? Infinity);
}

/**
 * The counters of the flood defences of one connection. Each check counts what arrived and returns the
 * connection error to answer with once the peer is over its budget, or null.
 */
export class FloodGuard {
  private emptyFrames = 0;
  private queuedAcks = 0;
  private resetTokens: number;
  private resetRefilledAt: number | null = null;
  /** The time the caller last passed in (`receivedAt`), for when there is no `clock`. */
  private lastNow: number | undefined;

  /** `clock`: the caller's clock in milliseconds (`Http2ConnectionOptions.now`), undefined without one; read when the RST_STREAM budget refills. */
  constructor(
    private readonly limits: Readonly<Http2Limits>,
    private readonly clock: () => number | undefined = () => undefined,
  ) {
    this.resetTokens = limits.resetBurst;
  }

  /** Input arrived at `now` on the caller's clock (the engine verb `receive`): the time the budget refills by without a `clock`. */
  receivedAt(now: number): void {
    this.lastNow = now;
  }

  /** Empty frames (CVE-2019-9518): counts `frame` if it carries and ends nothing. */
  receivedFrame(frame: Frame): Http2Error | null {
    if (!isEmptyFrame(frame) || ++this.emptyFrames <= this.limits.maxEmptyFrames) return null;
    return connectionError(
      'ENHANCE_YOUR_CALM',
      `More than ${this.limits.maxEmptyFrames} empty frames that neither carry nor end anything (RFC 9113 §10.5; CVE-2019-9518).`,
    );
  }

  /** PING and SETTINGS floods: counts one acknowledgement we are about to queue. */
  queueAck(what: 'PING' | 'SETTINGS'): Http2Error | null {
    if (++this.queuedAcks <= this.limits.maxQueuedAcks) return null;
    return connectionError(
      'ENHANCE_YOUR_CALM',
      `More than ${this.limits.maxQueuedAcks} ${what} acknowledgements queued while the peer reads nothing (RFC 9113 §10.5; CVE-2019-9512, CVE-2019-9515).`,
    );
  }

  /** Everything we produced has been written to a peer that reads: no acknowledgement is queued. */
  outputFlushed(): void {
    this.queuedAcks = 0;
  }

  /**
   * Rapid reset (CVE-2023-44487): one token per RST_STREAM received, refilled on the caller's clock: the
   * `clock`, else the time last given to `receivedAt`. Without either the budget never refills, a plain total.
   */
  takeResetToken(): Http2Error | null {
    const { resetBurst, resetRatePerSecond } = this.limits;
    const now = this.clock() ?? this.lastNow;
    if (now !== undefined) {
      if (this.resetRefilledAt !== null) this.resetTokens = Math.min(resetBurst, this.resetTokens + ((now - this.resetRefilledAt) * resetRatePerSecond) / 1000);
      this.resetRefilledAt = now;
    }
    if (this.resetTokens >= 1) {
      this.resetTokens -= 1;
      return null;
    }
    return connectionError(
      'INTERNAL_ERROR',
      `RST_STREAM faster than ${resetRatePerSecond} per second after a burst of ${resetBurst} (rapid reset, CVE-2023-44487).`,
    );
  }
}

/** A frame that carries no octet and ends nothing (CVE-2019-9518's "empty frames"). */
function isEmptyFrame(frame: Frame): boolean {
  switch (frame.type) {
    case 'DATA':
      return frame.data.length === 0 && !(frame.flags & FLAGS.END_STREAM);
    case 'HEADERS':
    case 'CONTINUATION':
      return frame.headerBlockFragment.length === 0 && !(frame.flags & FLAGS.END_HEADERS);
    default:
      return false;
  }
}
