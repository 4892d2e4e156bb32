/**
 * The link: the path between two hosts, described by round-trip time, bandwidth and loss.
 *
 * Simplifications, on purpose:
 * - Propagation delay is RTT/2 each way, fixed (no jitter), so a replay matches exactly.
 * - Bandwidth is one transmitter per direction shared by every connection on the link: a segment must
 *   wait until the previous one has left (serialization delay = bits / bandwidth). Each segment costs
 *   its payload plus 40 bytes of TCP/IPv4 headers (RFC 9293 §3.1, RFC 791 §3.1 minimum headers).
 * - Only data segments can be lost, each independently with probability `loss`, drawn from the link's
 *   seeded generator. Handshakes, ACKs and FINs always arrive: losing them teaches little here and would
 *   need the full RFC 9293 retransmission rules for control segments.
 */
import type { Random } from './random';

export type Direction = 'up' | 'down';

export interface LinkOptions {
  /** Round-trip time in virtual ms. */
  readonly rtt: number;
  /** Bits per second in each direction; Infinity means "no serialization delay". */
  readonly bandwidth: number;
  /** Probability in [0, 1] that a data segment is lost. */
  readonly loss: number;
}

/** TCP (20) + IPv4 (20) header bytes without options. */
export const HEADER_OVERHEAD = 40;

export class Link {
  readonly rtt: number;
  readonly bandwidth: number;
  readonly loss: number;
  readonly #random: Random;
  readonly #busyUntil: Record<Direction, number> = { up: 0, down: 0 };

  constructor(options: LinkOptions, random: Random) {
    if (!(options.rtt >= 0) || !Number.isFinite(options.rtt)) {
      throw new RangeError(`Link rtt must be a finite number of ms >= 0, got ${options.rtt}.`);
    }
    if (!(options.bandwidth > 0)) {
      throw new RangeError(`Link bandwidth must be > 0 bits/s (Infinity for unlimited), got ${options.bandwidth}.`);
    }
    if (!(options.loss >= 0 && options.loss <= 1)) {
      throw new RangeError(`Link loss must be a probability between 0 and 1, got ${options.loss}.`);
    }
    this.rtt = options.rtt;
    this.bandwidth = options.bandwidth;
    this.loss = options.loss;
    this.#random = random;
  }

  get oneWay(): number {
    return this.rtt / 2;
  }

  /**
   * Puts `payload` bytes on the wire in `direction` at `now` (or when the transmitter frees up) and
   * returns the time the segment arrives at the other end.
   */
  transmit(direction: Direction, payload: number, now: number): number {
    const start = Math.max(now, this.#busyUntil[direction]);
    const serialization = this.bandwidth === Infinity ? 0 : ((payload + HEADER_OVERHEAD) * 8 * 1000) / this.bandwidth;
    this.#busyUntil[direction] = start + serialization;
    return start + serialization + this.oneWay;
  }

  /** Draws whether the next data segment is lost. Consumes randomness only when loss > 0. */
  drops(): boolean {
    return this.loss > 0 && this.#random.next() < this.loss;
  }
}
