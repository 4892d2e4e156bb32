/**
 * The bookkeeping of QUIC's three packet number spaces (RFC 9000 §12.3: Initial, Handshake and
 * application data, which 0-RTT and 1-RTT packets share) for one endpoint: the next packet number of each,
 * the numbers received and whether an ACK is owed, and the fate of our Initial and Handshake packets until
 * their keys are discarded (RFC 9001 §4.9). connection.ts owns the rest: what to send, and the application
 * space's loss recovery (recovery.ts).
 *
 * Simplification: datagrams without STREAM frames are never lost (the same rule as link.ts for TCP control
 * segments), so the Initial and Handshake spaces need no loss recovery, and their ACKs are only piggy-backed on
 * packets of that space that are sent anyway. Their packets still take room in the congestion window, and
 * the ACKs they get grow it (RFC 9002 §7): the server's Handshake flight, acknowledged by the client's
 * Finished, adds its 3,299 bytes, as the server's TLS flight does to TCP's window. Those never acknowledged
 * (the server's Initial, the client's Finished) leave the flight when their keys are discarded (RFC 9001 §4.9,
 * RFC 9002 §6.4).
 */
import type { WireRole } from '../engine';
import { ackRanges, isAckEliciting, type QuicFrame, type QuicPacket, type QuicSpace } from './packets';
import type { CongestionChange, QuicRecovery } from './recovery';
import { roundTime } from '../transport/time';

export type NumberSpace = 'initial' | 'handshake' | 'app';

/** RFC 9000 §13.2.2: an ACK goes without delay once this many ack-eliciting packets are unacknowledged. */
export const ACK_ELICITING_THRESHOLD = 2;
/** Our max_ack_delay, ms: RFC 9000 §18.2's default, which we announce by leaving the transport parameter out. */
export const MAX_ACK_DELAY = 25;
/** RFC 9000 §18.2's default ack_delay_exponent: the ACK Delay field counts units of 2^3 microseconds. */
const ACK_DELAY_EXPONENT = 3;
type HandshakeSpace = 'initial' | 'handshake';

export const numberSpace = (space: QuicSpace): NumberSpace => (space === '0rtt' || space === '1rtt' ? 'app' : space);

/** What the Initial and Handshake spaces tell the shared congestion controller. */
type UntrackedRecovery = Pick<QuicRecovery<unknown>, 'sampleRtt' | 'onUntrackedSent' | 'onUntrackedAcked' | 'onUntrackedDiscarded'>;

export class PacketSpaces {
  readonly #role: WireRole;
  readonly #recovery: UntrackedRecovery;
  readonly #next: Record<NumberSpace, number> = { initial: 0, handshake: 0, app: 0 };
  readonly #received: Record<NumberSpace, Set<number>> = { initial: new Set(), handshake: new Set(), app: new Set() };
  readonly #ackPending: Record<NumberSpace, boolean> = { initial: false, handshake: false, app: false };
  /**
   * The application space's delayed ACK (RFC 9000 §13.2.1-13.2.2): ack-eliciting packets received since our
   * last ACK, when the first of them arrived, whether one came out of order (which is acknowledged at once),
   * the largest number received and when.
   */
  #appOwed = 0;
  #appOwedSince = 0;
  #appAckNow = false;
  #appLargest = -1;
  #appLargestAt = 0;
  /**
   * Our ack-eliciting Initial and Handshake packets not yet acknowledged, by number: never lost here, so loss
   * detection does not track them, but they count in bytes in flight and their ACKs grow the window, as in
   * every space (RFC 9002 §7), until their keys are discarded (`discard`, RFC 9002 §6.4).
   */
  readonly #handshakeInFlight: Record<HandshakeSpace, Map<number, { readonly size: number; readonly sentAt: number }>> = {
    initial: new Map(),
    handshake: new Map(),
  };
  readonly #discarded = { initial: false, handshake: false };

  constructor(role: WireRole, recovery: UntrackedRecovery) {
    this.#role = role;
    this.#recovery = recovery;
  }

  /** The number our next packet in `space`'s number space will take, without taking it. */
  peekNumber(space: QuicSpace): number {
    return this.#next[numberSpace(space)];
  }

  /** The number for our next packet in `space`'s number space. */
  nextNumber(space: QuicSpace): number {
    return this.#next[numberSpace(space)]++;
  }

  /** True when a packet received in `space` was ack-eliciting and no ACK has gone out since. */
  ackPending(space: NumberSpace): boolean {
    return this.#ackPending[space];
  }

  /**
   * Whether an ACK owed in `space` must go now, on a packet of its own if nothing else is sent: at once in
   * the Initial and Handshake spaces (RFC 9000 §13.2.1); in the application space once two ack-eliciting
   * packets are owed (§13.2.2), when one arrived out of order or after a gap (§13.2.1), or max_ack_delay
   * after the first owed one arrived. An owed ACK also rides on any packet sent earlier.
   */
  ackDue(space: NumberSpace, now: number): boolean {
    if (!this.#ackPending[space]) return false;
    if (space !== 'app') return true;
    return this.#appAckNow || this.#appOwed >= ACK_ELICITING_THRESHOLD || now >= this.#appAckAt();
  }

  /** When the application space's delayed ACK is due (undefined when none is owed). */
  get ackDeadline(): number | undefined {
    return this.#ackPending.app ? this.#appAckAt() : undefined;
  }

  /**
   * One rounded sum for the timer and the test above: the clock rounds due times to microseconds, and an
   * unrounded 4,094.36 + 25 = 4,119.360000000001 would never be reached at the timer's 4,119.36, which would
   * re-arm at that instant forever (seed 7 at 2 % loss did).
   */
  #appAckAt(): number {
    return roundTime(this.#appOwedSince + MAX_ACK_DELAY);
  }

  /**
   * An ACK frame listing every packet number received in `space`; no ACK is owed there any more. In the
   * application space it reports how long it held the largest packet (the ACK Delay field, RFC 9000 §19.3),
   * which the peer takes off its RTT sample (RFC 9002 §5.3).
   */
  ack(space: NumberSpace, now?: number): QuicFrame {
    this.#ackPending[space] = false;
    const ranges = ackRanges(this.#received[space]);
    if (space !== 'app') return { type: 'ACK', ranges };
    this.#appOwed = 0;
    this.#appAckNow = false;
    const held = now === undefined ? 0 : Math.max(0, now - this.#appLargestAt);
    return { type: 'ACK', ranges, ackDelay: Math.round((held * 1000) / 2 ** ACK_DELAY_EXPONENT) };
  }

  /** A packet from the peer arrived: remember its number, and owe an ACK if it asks for one. */
  onReceived(packet: QuicPacket, now = 0): void {
    const space = numberSpace(packet.space);
    // RFC 9001 §4.9.1: a server discards its Initial keys when it first processes a Handshake packet.
    if (space === 'handshake' && this.#role === 'server') this.discard('initial');
    this.#received[space].add(packet.number);
    const eliciting = isAckEliciting(packet.frames);
    if (space === 'app') {
      // §13.2.1: a packet below the largest received, or past a gap, is acknowledged without delay.
      if (eliciting && packet.number !== this.#appLargest + 1) this.#appAckNow = true;
      if (packet.number > this.#appLargest) {
        this.#appLargest = packet.number;
        this.#appLargestAt = now;
      }
      if (eliciting) {
        if (this.#appOwed === 0) this.#appOwedSince = now;
        this.#appOwed++;
      }
    }
    if (eliciting) this.#ackPending[space] = true;
  }

  /**
   * We sent `packet` (`size` bytes): an ack-eliciting Initial or Handshake packet, while its keys last, counts
   * in bytes in flight until acknowledged or discarded. Application packets are recovery.ts's, not ours.
   */
  onSent(packet: QuicPacket, size: number, now: number): void {
    const ns = numberSpace(packet.space);
    if (ns === 'app' || this.#discarded[ns] || !isAckEliciting(packet.frames)) return;
    // RFC 9001 §4.9.1: a client discards its Initial keys when it first sends a Handshake packet.
    if (ns === 'handshake' && this.#role === 'client') this.discard('initial');
    this.#handshakeInFlight[ns].set(packet.number, { size, sentAt: now });
    this.#recovery.onUntrackedSent(size, now);
  }

  /**
   * An ACK frame in an Initial or Handshake packet. Handshake packets are never lost, so there is nothing to
   * recover; but the bytes they acknowledge grow the window like any others (RFC 9002 §7.3.1), as TCP's
   * window grows on its handshake's ACKs.
   */
  onAck(space: HandshakeSpace, ranges: readonly (readonly [number, number])[], now: number): CongestionChange | undefined {
    const sent = this.#handshakeInFlight[space];
    // RFC 9002 §5.1: an ACK that newly acknowledges its largest packet number, an ack-eliciting one, is
    // an RTT sample in every space (ack_delay is not subtracted in Initial and Handshake, §5.3), as TCP
    // samples its handshake: the first one usually comes from the peer's Initial.
    const largest = sent.get(Math.max(...ranges.map(([, high]) => high)));
    if (largest) this.#recovery.sampleRtt(roundTime(now - largest.sentAt));
    const acked: { size: number; sentAt: number }[] = [];
    for (const [low, high] of ranges) {
      for (const [number, packet] of sent) {
        if (number < low || number > high) continue;
        acked.push(packet);
        sent.delete(number);
      }
    }
    return this.#recovery.onUntrackedAcked(acked);
  }

  /**
   * RFC 9001 §4.9: Initial keys go once the Handshake space is in use, Handshake keys once the handshake is
   * confirmed; RFC 9002 §6.4: what was sent with them leaves bytes in flight, unacknowledged (our ACKs of
   * those spaces ride only on packets of the space sent anyway, so the last ones never get one).
   */
  discard(space: HandshakeSpace): void {
    if (this.#discarded[space]) return;
    this.#discarded[space] = true;
    if (space === 'handshake') this.discard('initial');
    const sent = this.#handshakeInFlight[space];
    let bytes = 0;
    for (const packet of sent.values()) bytes += packet.size;
    sent.clear();
    this.#recovery.onUntrackedDiscarded(bytes);
  }
}
