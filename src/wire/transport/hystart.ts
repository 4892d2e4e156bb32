/**
 * HyStart++ (RFC 9406): slow start that leaves before it overflows the bottleneck queue, by watching the
 * minimum RTT of each round trip rise, then a Conservative Slow Start (CSS) that grows a quarter as fast
 * for up to five rounds in case the rise was noise. The state machine is the table in `STEP` below.
 *
 * - A round (§4.2) ends when a transmission numbered at or past `windowEnd` (the next number when the round
 *   began) is acknowledged. Each round keeps the minimum RTT sample of its ACKs and how many there were.
 * - Slow start -> CSS once a round has N_RTT_SAMPLE (8) samples and its minimum is at least the previous
 *   round's plus RttThresh = clamp(lastRoundMinRTT / 8, 4 ms, 16 ms); cssBaselineMinRtt = that minimum.
 * - CSS -> slow start when a round's minimum (after 8 samples) falls below cssBaselineMinRtt: the rise was
 *   spurious. CSS -> congestion avoidance after CSS_ROUNDS (5) rounds, with ssthresh = cwnd.
 * - In CSS the window grows by acked / CSS_GROWTH_DIVISOR (4). Without pacing L is infinite (§4.2), so the
 *   growth per ACK is not capped further than slow start's own one SMSS per ACK.
 * - A loss in either state ends slow start the usual way; HyStart++ then stays off (`done`), as RFC 9406 §4.3
 *   uses it for the initial slow start.
 */

export const HYSTART_MIN_RTT_THRESH = 4;
export const HYSTART_MAX_RTT_THRESH = 16;
export const HYSTART_MIN_RTT_DIVISOR = 8;
export const HYSTART_N_RTT_SAMPLE = 8;
export const HYSTART_CSS_GROWTH_DIVISOR = 4;
export const HYSTART_CSS_ROUNDS = 5;

export type HyStartState = 'slow-start' | 'css' | 'done';
type Signal = 'rtt-rose' | 'rtt-fell' | 'css-rounds-done' | 'loss';

/** The state machine as data: state x signal -> next state. Pairs not listed leave the state as it is. */
const STEP: Readonly<Record<HyStartState, Partial<Record<Signal, HyStartState>>>> = {
  'slow-start': { 'rtt-rose': 'css', loss: 'done' },
  css: { 'rtt-fell': 'slow-start', 'css-rounds-done': 'done', loss: 'done' },
  done: {},
};

export class HyStartPlusPlus {
  state: HyStartState = 'slow-start';
  lastRoundMinRtt = Infinity;
  currentRoundMinRtt = Infinity;
  rttSampleCount = 0;
  cssBaselineMinRtt = Infinity;
  cssRounds = 0;
  /** The first transmission number of the next round (SND.NXT when this round began). */
  windowEnd = 0;

  #go(signal: Signal): void {
    this.state = STEP[this.state][signal] ?? this.state;
  }

  /** How much of the acknowledged bytes slow start adds: all of them, or a quarter in CSS. */
  growth(bytes: number): number {
    return this.state === 'css' ? bytes / HYSTART_CSS_GROWTH_DIVISOR : bytes;
  }

  /**
   * An ACK in slow start or CSS: `largestAcked` is the largest number it acknowledges, `nextNumber` the
   * number the next transmission will get, `rtt` this ACK's RTT sample if it gave one. Returns true when
   * slow start is over (CSS_ROUNDS rounds of CSS): the caller sets ssthresh = cwnd.
   */
  onAck(largestAcked: number, nextNumber: number, rtt: number | undefined): boolean {
    if (this.state === 'done') return false;
    if (rtt !== undefined) {
      this.currentRoundMinRtt = Math.min(this.currentRoundMinRtt, rtt);
      this.rttSampleCount++;
    }
    const enough = this.rttSampleCount >= HYSTART_N_RTT_SAMPLE && Number.isFinite(this.currentRoundMinRtt);
    if (this.state === 'slow-start' && enough && Number.isFinite(this.lastRoundMinRtt)) {
      const thresh = Math.max(HYSTART_MIN_RTT_THRESH, Math.min(this.lastRoundMinRtt / HYSTART_MIN_RTT_DIVISOR, HYSTART_MAX_RTT_THRESH));
      if (this.currentRoundMinRtt >= this.lastRoundMinRtt + thresh) {
        this.cssBaselineMinRtt = this.currentRoundMinRtt;
        this.cssRounds = 0;
        this.#go('rtt-rose');
      }
    } else if (this.state === 'css' && enough && this.currentRoundMinRtt < this.cssBaselineMinRtt) {
      this.cssBaselineMinRtt = Infinity;
      this.#go('rtt-fell');
    }
    if (largestAcked < this.windowEnd) return false;
    // The round is over: the next one starts with what is sent from now on.
    if (this.state === 'css' && ++this.cssRounds >= HYSTART_CSS_ROUNDS) {
      this.#go('css-rounds-done');
      return true;
    }
    this.lastRoundMinRtt = this.currentRoundMinRtt;
    this.currentRoundMinRtt = Infinity;
    this.rttSampleCount = 0;
    this.windowEnd = nextNumber;
    return false;
  }

  /** A congestion event or timeout ended slow start. */
  onLoss(): void {
    this.#go('loss');
  }
}
