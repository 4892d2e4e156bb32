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
 * - Bursty loss (`lossModel: { kind: 'gilbert-elliott', burst }`): real paths lose packets in runs (a queue
 *   overflowing, a radio fading), which independent draws almost never produce. The Gilbert-Elliott model is a
 *   two-state Markov chain per generator: in the Good state a packet goes through, in the Bad state it is lost
 *   (Gilbert's special case of the model, loss 0 in Good and 1 in Bad). From Good the chain moves to Bad with
 *   probability p per packet, from Bad back to Good with probability r, so a burst lasts 1/r packets on
 *   average (geometric), and the chain spends p / (p + r) of the packets in Bad. Given the mean loss `loss`
 *   and the mean burst length `burst`, r = 1/burst and p = loss x r / (1 - loss), so the average loss is the
 *   same as the independent model's. The chain starts in its stationary state (Bad with probability `loss`)
 *   and takes one draw per packet, from the same generators as above, so two stacks with one seed meet the
 *   same bursts at the same packet positions of their data. Retransmissions run on a chain of their own.
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

/**
 * How random loss is drawn: 'independent' (each data packet lost with probability `loss`, the default) or a
 * Gilbert-Elliott chain with the same mean loss whose losses come in bursts of `burst` packets on average.
 */
export type LossModel = 'independent' | { readonly kind: 'gilbert-elliott'; readonly burst: number };

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
  /** How the `loss` rate is drawn: independent per packet (default) or in Gilbert-Elliott bursts. */
  readonly lossModel?: LossModel;
}

/**
 * Loss decisions from one generator: one draw per packet, whatever the model, so the draws stay in step with
 * the packets. Independent: lost when the draw is below `loss`. Gilbert-Elliott: the draw moves the chain
 * (Good -> Bad below p, Bad -> Good below r) and the packet is lost when the chain is then in Bad.
 */
class LossDraws {
  readonly #random: Random;
  readonly #loss: number;
  /** Gilbert-Elliott's p and r; undefined for independent loss. */
  readonly #chain: { readonly p: number; readonly r: number } | undefined;
  #bad = false;

  constructor(random: Random, loss: number, model: LossModel) {
    this.#random = random;
    this.#loss = loss;
    if (model === 'independent' || loss === 0 || loss === 1) return;
    const r = 1 / model.burst;
    this.#chain = { p: (loss * r) / (1 - loss), r };
    // The stationary start: Bad with probability p / (p + r) = loss, so every packet's loss probability is `loss`.
    this.#bad = random.next() < loss;
    // The first packet's draw then moves the chain on from this state.
  }

  /** Whether the next packet is lost. */
  next(): boolean {
    if (this.#loss === 0) return false;
    const u = this.#random.next();
    const chain = this.#chain;
    if (chain === undefined) return u < this.#loss;
    this.#bad = this.#bad ? u >= chain.r : u < chain.p;
    return this.#bad;
  }
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
  readonly lossModel: LossModel;
  readonly #firstDraws: Record<Direction, LossDraws>;
  readonly #retransmitDraws: Record<Direction, LossDraws>;
  readonly #unknownDraws: LossDraws;
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
    const model = options.lossModel ?? 'independent';
    if (model !== 'independent' && !(model.kind === 'gilbert-elliott' && model.burst >= 1 && Number.isFinite(model.burst))) {
      throw new RangeError(
        `Link lossModel must be 'independent' or { kind: 'gilbert-elliott', burst } with a mean burst >= 1 packet, got ${JSON.stringify(model)}.`,
      );
    }
    if (model !== 'independent' && options.loss < 1 && model.burst < options.loss / (1 - options.loss)) {
      // p = loss / ((1 - loss) x burst) is a probability only up to 1.
      throw new RangeError(
        `Link lossModel: a mean loss of ${options.loss} needs bursts of at least loss / (1 - loss) = ${(options.loss / (1 - options.loss)).toFixed(3)} packets, got ${model.burst}.`,
      );
    }
    this.lossModel = model;
    const draws = (label: string) => new LossDraws(random.fork(label), options.loss, model);
    this.#firstDraws = { up: draws('up'), down: draws('down') };
    this.#retransmitDraws = { up: draws('up/again'), down: draws('down/again') };
    this.#unknownDraws = draws('unknown');
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
    const random = draws.next();
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
