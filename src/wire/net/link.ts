/**
 * The link: the path between two hosts, described by round-trip time, bandwidth, a bottleneck queue and loss.
 *
 * Simplifications, on purpose:
 * - Propagation delay is RTT/2 each way, fixed (no jitter), so a replay matches exactly.
 * - Bandwidth is one transmitter per direction shared by every connection on the link: a packet must
 *   wait until the previous one has left (serialization delay = bits / bandwidth). Each packet costs
 *   its payload plus its headers: 40 bytes of TCP/IPv4 (RFC 9293 §3.1, RFC 791 §3.1 minimum headers), 52
 *   with the TCP timestamp option that tcp.ts adds by default (RFC 7323), or 28 of UDP/IPv4 for a QUIC
 *   datagram (RFC 768).
 * - The packets waiting for the transmitter form the bottleneck queue, drop-tail: a data packet that
 *   finds it full is dropped. Its size is `queue` (LinkOptions): by default one bandwidth-delay product,
 *   the classic router buffer, and never less than ten full packets (an initial window's burst). A
 *   sender whose window outgrows the path plus the queue (slow start's overshoot) loses packets here,
 *   as on a real bottleneck. Control packets (handshakes, ACKs) are never dropped, nor held by a full
 *   queue: they are small and losing them would need rules this model leaves out.
 * - Why a packet was lost (`dropCause`): 'queue' (the full queue), 'random' or 'schedule' (below); the
 *   transports put it in the trace ('packet-lost' and 'quic-datagram-dropped' events, `cause`), so a
 *   reader can tell the sender's own overshoot from the path's loss.
 * - Random loss: each data packet is lost independently with probability `loss`. The k-th packet of new
 *   application data in a direction gets the k-th draw of that direction's generator, and retransmissions
 *   draw from generators of their own, so two runs with one seed (HTTP/2 and HTTP/3, say) lose packets at
 *   the same positions of their data for as long as their packets line up.
 * - A loss schedule (`lossSchedule`) loses exactly the packets that first carry given bytes of the
 *   application data, per connection: the same bytes in every protocol, whatever its packet sizes.
 *   Application data is what the HTTP layer hands the transport after the handshakes (TLS records of
 *   HTTP/1.1 or HTTP/2 over TCP, STREAM bytes over QUIC); handshakes are never lost, in either stack.
 */
import type { Random } from './random';

export type Direction = 'up' | 'down';

/**
 * The bottleneck queue: 'bdp' (one bandwidth-delay product, at least ten full packets), a size in packets
 * of 1,500 bytes or in bytes, or 'unlimited' (a packet only ever waits, as before queues were modelled).
 */
export type QueueSize = 'bdp' | 'unlimited' | { readonly packets: number } | { readonly bytes: number };

/** Application-data byte offsets whose first transmission is lost, per sending side, per connection. */
export interface LossSchedule {
  /** Offsets in the server's application data (responses): the packet that first carries each is lost. */
  readonly server?: readonly number[];
  /** Offsets in the client's application data (requests). */
  readonly client?: readonly number[];
}

export interface LinkOptions {
  /** Round-trip time in virtual ms. */
  readonly rtt: number;
  /** Bits per second in each direction; Infinity means "no serialization delay". */
  readonly bandwidth: number;
  /** Probability in [0, 1] that a data packet is lost. */
  readonly loss: number;
  /** The bottleneck queue in each direction. Default 'bdp'. */
  readonly queue?: QueueSize;
  /** Bytes of application data to lose on their first transmission. Default: none. */
  readonly lossSchedule?: LossSchedule;
}

/** A data packet the link may lose (`drops`). */
export interface DataPacket {
  readonly direction: Direction;
  /**
   * The application bytes this packet sends for the first time, [start, end) on its connection; absent or
   * empty for a packet that only carries data sent before (a retransmission, a QUIC probe).
   */
  readonly firstSent?: readonly [number, number] | undefined;
}

/**
 * Why the link lost a data packet: 'queue' (it found the bottleneck queue full: drop-tail), 'random' (the
 * seeded draw at the `loss` rate), 'schedule' (it first carried a byte named in `lossSchedule`).
 */
export type DropCause = 'queue' | 'random' | 'schedule';

/** TCP (20) + IPv4 (20) header bytes without options. */
export const HEADER_OVERHEAD = 40;
/** UDP (8) + IPv4 (20) header bytes: what a QUIC datagram costs on top of its size. */
export const UDP_HEADER_OVERHEAD = 28;
/** A full Ethernet-sized packet, the unit of `{ packets }` queue sizes. */
export const FULL_PACKET = 1500;
const MIN_BDP_QUEUE = 10 * FULL_PACKET;

export class Link {
  readonly rtt: number;
  readonly bandwidth: number;
  readonly loss: number;
  /** The bottleneck queue's capacity in bytes per direction (Infinity: unlimited). */
  readonly queueBytes: number;
  readonly lossSchedule: LossSchedule;
  /** Data packets dropped because the queue was full, per direction. */
  readonly queueDrops: Record<Direction, number> = { up: 0, down: 0 };
  readonly #busyUntil: Record<Direction, number> = { up: 0, down: 0 };
  readonly #firstDraws: Record<Direction, Random>;
  readonly #retransmitDraws: Record<Direction, Random>;
  readonly #unknownDraws: Random;
  /** Whether the packet `transmit` was last given found the queue full (the caller asks `drops` next). */
  #overflowed = false;

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
    this.queueBytes = queueCapacity(options.queue ?? 'bdp', options.rtt, options.bandwidth);
    this.lossSchedule = options.lossSchedule ?? {};
    this.#firstDraws = { up: random.fork('up'), down: random.fork('down') };
    this.#retransmitDraws = { up: random.fork('up/again'), down: random.fork('down/again') };
    this.#unknownDraws = random.fork('unknown');
  }

  get oneWay(): number {
    return this.rtt / 2;
  }

  /**
   * Puts `payload` bytes on the wire in `direction` at `now` (or when the transmitter frees up) and
   * returns the time the packet arrives at the other end. A packet that finds the queue full takes no
   * transmitter time; `drops` then says it is lost (a data packet) or it goes through unqueued (control).
   */
  transmit(direction: Direction, payload: number, now: number, headers = HEADER_OVERHEAD): number {
    const size = payload + headers;
    if (this.bandwidth === Infinity) {
      this.#overflowed = false;
      return now + this.oneWay;
    }
    const start = Math.max(now, this.#busyUntil[direction]);
    // Bytes still waiting for (or on) the transmitter when this packet arrives at the queue.
    const backlog = ((start - now) * this.bandwidth) / 8000;
    this.#overflowed = backlog + size > this.queueBytes;
    if (this.#overflowed) return now + this.oneWay;
    const serialization = (size * 8 * 1000) / this.bandwidth;
    this.#busyUntil[direction] = start + serialization;
    return start + serialization + this.oneWay;
  }

  /**
   * Whether the data packet just given to `transmit` is lost: dropped by a full queue, scheduled, or by
   * the random draw. Every packet of new data takes one draw, lost or not, so the draws stay in step.
   */
  drops(packet?: DataPacket): boolean {
    return this.dropCause(packet) !== undefined;
  }

  /** `drops`, saying why: undefined when the packet goes through. A full queue comes first, then the draw. */
  dropCause(packet?: DataPacket): DropCause | undefined {
    // A caller that says nothing about the packet draws from a generator of its own and follows no schedule.
    const fresh = packet?.firstSent !== undefined && packet.firstSent[1] > packet.firstSent[0];
    const draws = packet === undefined ? this.#unknownDraws : fresh ? this.#firstDraws[packet.direction] : this.#retransmitDraws[packet.direction];
    const random = this.loss > 0 && draws.next() < this.loss;
    if (this.#overflowed) {
      this.#overflowed = false;
      if (packet) this.queueDrops[packet.direction]++;
      return 'queue';
    }
    if (random) return 'random';
    return packet !== undefined && this.#scheduled(packet) ? 'schedule' : undefined;
  }

  #scheduled(packet: DataPacket): boolean {
    const range = packet.firstSent;
    if (!range || range[1] <= range[0]) return false;
    const offsets = packet.direction === 'down' ? this.lossSchedule.server : this.lossSchedule.client;
    return offsets?.some((at) => at >= range[0] && at < range[1]) ?? false;
  }
}

/** The queue's capacity in bytes for a QueueSize on a path of `rtt` ms and `bandwidth` bits/s. */
export function queueCapacity(queue: QueueSize, rtt: number, bandwidth: number): number {
  if (queue === 'unlimited' || bandwidth === Infinity) return Infinity;
  if (queue === 'bdp') return Math.max((bandwidth * rtt) / 8000, MIN_BDP_QUEUE);
  return 'packets' in queue ? queue.packets * FULL_PACKET : queue.bytes;
}
