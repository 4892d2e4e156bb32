import { describe, expect, it } from 'vitest';
import { QuicRecovery, QUIC_INITIAL_WINDOW, QUIC_MAX_DATAGRAM_SIZE, QUIC_MINIMUM_WINDOW } from './recovery';
import { LossRecovery } from '../transport/congestion';
import { tcpRules } from '../net/tcp';

const MDS = QUIC_MAX_DATAGRAM_SIZE;

function sendMany(r: QuicRecovery<null>, from: number, count: number, at: number): void {
  for (let n = from; n < from + count; n++) r.onSent({ number: n, sentAt: at, size: MDS, ackEliciting: true, payload: null });
}
const range = (from: number, to: number): Set<number> => new Set(Array.from({ length: to - from + 1 }, (_, i) => from + i));

describe('NewReno (RFC 9002 §7), the teaching option', () => {
  it('starts at 10 x max_datagram_size and doubles per round trip in slow start', () => {
    const r = new QuicRecovery<null>({ congestionControl: 'newreno' });
    // RFC 9002 §7.2: min(10 x 1452, max(14720, 2 x 1452)).
    expect(QUIC_INITIAL_WINDOW).toBe(14520);
    expect(r.cwnd).toBe(10 * MDS);
    sendMany(r, 0, 10, 0);
    expect(r.canSend(MDS)).toBe(false); // the window is full
    const out = r.onAck(range(0, 9), 100);
    expect(out.acked).toHaveLength(10);
    expect(r.cwnd).toBe(20 * MDS);
    expect(r.phase).toBe('slow-start');
    sendMany(r, 10, 20, 100);
    r.onAck(range(0, 29), 200);
    expect(r.cwnd).toBe(40 * MDS);
  });

  it('halves the window once per loss episode, then grows by about one datagram per RTT', () => {
    const r = new QuicRecovery<null>({ congestionControl: 'newreno' });
    sendMany(r, 0, 10, 0);
    r.onAck(range(0, 9), 100);
    expect(r.cwnd).toBe(20 * MDS);
    sendMany(r, 10, 20, 100);
    // Packets 10 and 11 are missing; 12-29 arrive: 3+ later packets acknowledged -> lost (§6.1.1).
    const out = r.onAck(range(12, 29), 200);
    expect(out.lost.map((p) => p.number)).toEqual([10, 11]);
    expect(out.lostBy).toBe('packet-threshold');
    expect(out.congestion).toMatchObject({ reason: 'loss', phase: 'recovery' });
    // Acks of packets sent before the loss do not grow the window during recovery (§7.3.2) -- the 18
    // acknowledged packets first grew it to 38 datagrams (still slow start), then the loss halved that.
    expect(r.ssthresh).toBe(19 * MDS);
    expect(r.cwnd).toBe(19 * MDS);
    expect(r.cwnd).toBeGreaterThanOrEqual(QUIC_MINIMUM_WINDOW);
    // A packet sent after recovery began ends it; from now on congestion avoidance.
    sendMany(r, 30, 1, 250);
    r.onAck(new Set([30]), 350);
    expect(r.phase).toBe('congestion-avoidance');
    expect(r.cwnd).toBe(19 * MDS + Math.floor((MDS * MDS) / (19 * MDS)));
  });

  it('measures RTT and arms a probe timeout of srtt + 4 x rttvar + max_ack_delay', () => {
    const r = new QuicRecovery<null>({ congestionControl: 'newreno' });
    sendMany(r, 0, 1, 0);
    r.onAck(new Set([0]), 100);
    expect(r.smoothedRtt).toBe(100);
    expect(r.rttVar).toBe(50);
    // RFC 9002 §6.2.1: 100 + max(4 x 50, 1) + 25 (the default max_ack_delay, RFC 9000 §18.2).
    expect(r.pto).toBe(325);
    sendMany(r, 1, 1, 100);
    expect(r.nextTimer()).toEqual({ at: 425, kind: 'pto' });
    expect(r.onPto()?.number).toBe(1);
    expect(r.pto).toBe(650); // backoff doubles
  });

  it('declares loss by time when too few later packets arrive', () => {
    const r = new QuicRecovery<null>({ congestionControl: 'newreno' });
    sendMany(r, 0, 2, 0);
    const out = r.onAck(new Set([1]), 100);
    expect(out.lost).toHaveLength(0);
    // 9/8 x 100 ms after it was sent, packet 0 is lost.
    expect(r.nextTimer()).toEqual({ at: 112.5, kind: 'loss' });
    const later = r.detectLost(112.5);
    expect(later.lost.map((p) => p.number)).toEqual([0]);
    expect(later.lostBy).toBe('time-threshold');
  });

  it('declares the loss at the very instant the loss timer names, whatever the rounding', () => {
    // Times where sentAt + delay = T, yet T - delay < sentAt in floating point: detection once compared
    // the latter, found nothing lost at T, and the timer re-armed for T forever (a livelock at one instant).
    const [s0, s1, ackAt] = [102.2331, 102.7331, 123.03309999999999];
    const r = new QuicRecovery<null>({ congestionControl: 'newreno' });
    r.onSent({ number: 0, sentAt: s0, size: MDS, ackEliciting: true, payload: null });
    r.onSent({ number: 1, sentAt: s1, size: MDS, ackEliciting: true, payload: null });
    expect(r.onAck(new Set([1]), ackAt).lost).toHaveLength(0);
    const timer = r.nextTimer()!;
    expect(timer.kind).toBe('loss');
    // The deadline is rounded to whole microseconds, as every simulated time is: 102.2331 + 9/8 x 20.3 ms.
    expect(timer.at).toBe(125.071);
    expect(r.detectLost(124.999).lost).toHaveLength(0);
    expect(r.detectLost(timer.at).lost.map((p) => p.number)).toEqual([0]);
    expect(r.nextTimer()).toBeUndefined();
  });
});

describe("restart after idle as Linux's tcp_cwnd_restart, the same rule for QUIC and TCP", () => {
  // After one 100 ms sample: TCP's RTO = 100 + max(4 x 50, 200) = 300; QUIC's PTO = 100 + 4 x 50 + 25 = 325.
  // A second 100 ms sample: RTTVAR = 3/4 x 50 = 37.5, so RTO = 100 + max(150, 200) = 300, PTO = 100 + 150 + 25 = 275.
  for (const [name, make, mss, firstTimeout, timeout] of [
    ['QUIC', (restart: boolean) => new QuicRecovery<null>({ restartAfterIdle: restart }), MDS, 325, 275],
    ['TCP', (restart: boolean) => new LossRecovery<null>(tcpRules(200, restart)), 1448, 300, 300],
  ] as const) {
    it(`${name}: the window halves once per timeout of idle time, down to min(IW, cwnd), unless turned off`, () => {
      const grow = (r: LossRecovery<null>) => {
        for (let n = 0; n < 10; n++) r.onSent({ number: n, sentAt: 0, size: mss, ackEliciting: true, payload: null });
        r.onAck(range(0, 9), 100);
        expect(r.timeout).toBe(firstTimeout);
        // A pause shorter than the timeout keeps the window.
        r.onSent({ number: 10, sentAt: 299, size: mss, ackEliciting: true, payload: null });
        r.onAck(new Set([10]), 399);
        expect(r.timeout).toBe(timeout);
      };
      const r = make(true);
      const initial = r.cwnd;
      grow(r);
      expect(r.cwnd).toBe(initial + 11 * mss); // slow start: 21 segments
      // Idle from 299 (the last send) to 299 + timeout + 50: one timeout passed, so cwnd halves once.
      r.onSent({ number: 11, sentAt: 299 + timeout + 50, size: mss, ackEliciting: true, payload: null });
      expect(r.cwnd).toBe(Math.floor((21 * mss) / 2));
      expect(r.idleRestarts).toBe(1);
      // ssthresh = max(ssthresh, 3/4 cwnd): still infinite, as no loss set it.
      expect(r.ssthresh).toBe(Infinity);

      const long = make(true);
      grow(long);
      // Idle for 1,100 ms: 21 -> 10.5 -> 5.25 segments would pass below the restart window, min(IW, cwnd) = IW.
      long.onSent({ number: 11, sentAt: 1_399, size: mss, ackEliciting: true, payload: null });
      expect(long.cwnd).toBe(initial);

      const kept = make(false);
      grow(kept);
      kept.onSent({ number: 11, sentAt: 5_000, size: mss, ackEliciting: true, payload: null });
      expect(kept.cwnd).toBe(initial + 11 * mss);
    });
  }

  it('TCP: after a loss, ssthresh rises to 3/4 of the window the idle period finds (tcp_current_ssthresh)', () => {
    const r = new LossRecovery<null>(tcpRules(200, true, true, 'newreno'));
    for (let n = 0; n < 10; n++) r.onSent({ number: n, sentAt: 0, size: 1448, ackEliciting: true, payload: null });
    // 1-9 arrive, 0 is lost: slow start grows 14,480 by 9 x 1,448 to 27,512 first, then NewReno halves it.
    const out = r.onAck(range(1, 9), 100, { una: 0, nxt: 14_480 });
    expect(out.lost.map((p) => p.number)).toEqual([0]);
    expect(r.ssthresh).toBe(13_756);
    r.onSent({ number: 10, sentAt: 100, size: 1448, ackEliciting: true, payload: null });
    r.onAck(new Set([10]), 200, { una: 14_480, nxt: 14_480, unaAdvanced: true });
    expect(r.phase).toBe('congestion-avoidance');
    expect(r.cwnd).toBe(13_756); // the recovery ended at ssthresh
    // Say congestion avoidance had taken the window to 40,000 bytes. After a long pause ssthresh =
    // max(13,756, floor(3/4 x 40,000) = 30,000) = 30,000, so slow start climbs back to 3/4 of where it was,
    // and cwnd halves (RTO 300 ms) down to the restart window min(IW, cwnd) = 14,480.
    r.cwnd = 40_000;
    r.onSent({ number: 11, sentAt: 5_000, size: 1448, ackEliciting: true, payload: null });
    expect(r.ssthresh).toBe(30_000);
    expect(r.cwnd).toBe(14_480);
  });
});
