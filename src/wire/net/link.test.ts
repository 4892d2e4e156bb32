/**
 * The link on its own: the drop-tail bottleneck queue's arithmetic, the loss schedule, and the random draws
 * that keep two runs with one seed losing packets at the same positions of their data.
 */
import { describe, expect, it } from 'vitest';
import { FULL_PACKET, HEADER_OVERHEAD, Link, queueCapacity, type LinkOptions } from './link';
import { createRandom } from './random';

const link = (options: Partial<LinkOptions> = {}, seed: number | string = 1) =>
  new Link({ rtt: 100, bandwidth: 12_000_000, loss: 0, ...options }, createRandom(seed));

describe('queue capacity', () => {
  it("'bdp' is rtt x bandwidth in bytes, at least ten full packets", () => {
    // 100 ms at 12 Mbit/s: 0.1 x 12,000,000 / 8 = 150,000 bytes.
    expect(queueCapacity('bdp', 100, 12_000_000)).toBe(150_000);
    // 10 ms at 1 Mbit/s is 1,250 bytes: less than an initial window's burst, so the floor applies.
    expect(queueCapacity('bdp', 10, 1_000_000)).toBe(10 * FULL_PACKET);
    expect(queueCapacity({ packets: 4 }, 100, 12_000_000)).toBe(6_000);
    expect(queueCapacity({ bytes: 5_000 }, 100, 12_000_000)).toBe(5_000);
    expect(queueCapacity('unlimited', 100, 12_000_000)).toBe(Infinity);
    // Without serialization nothing ever waits, so there is no queue to fill.
    expect(queueCapacity('bdp', 100, Infinity)).toBe(Infinity);
  });
});

describe('drop-tail', () => {
  // 1,460 + 40 = 1,500 bytes take exactly 1 ms at 12 Mbit/s.
  const PAYLOAD = FULL_PACKET - HEADER_OVERHEAD;

  it('holds packets while the queue has room and drops data packets that find it full', () => {
    const l = link({ queue: { packets: 3 } });
    const fresh = { direction: 'down' as const, firstSent: [0, PAYLOAD] as const };
    // A burst of five at t=0 into a 4,500-byte queue (which counts the packet on the wire too): the first
    // leaves at once, the second and third wait behind it (3,000 and 4,500 bytes), a fourth would make 6,000.
    const arrivals: (number | 'dropped')[] = [];
    for (let i = 0; i < 5; i++) {
      const at = l.transmit('down', PAYLOAD, 0);
      arrivals.push(l.drops(fresh) ? 'dropped' : at);
    }
    expect(arrivals).toEqual([51, 52, 53, 'dropped', 'dropped']);
    expect(l.queueDrops).toEqual({ up: 0, down: 2 });
    // Once the queue has drained by one packet (t = 1 ms), one more fits; the other direction is separate.
    expect(l.transmit('down', PAYLOAD, 1)).toBe(54);
    expect(l.drops(fresh)).toBe(false);
    expect(l.transmit('up', PAYLOAD, 1)).toBe(52);
  });

  it('says why a packet is lost: the full queue before the random draw, then the draw, then the schedule', () => {
    // A one-packet queue and certain random loss: the first packet finds room but loses the draw ('random');
    // the second finds the queue full ('queue'), though its draw would also have lost it. That draw is
    // still taken, so the k-th new packet keeps the k-th draw whichever way it goes.
    const l = link({ queue: { packets: 1 }, loss: 1 });
    l.transmit('down', PAYLOAD, 0);
    expect(l.dropCause({ direction: 'down', firstSent: [0, PAYLOAD] })).toBe('random');
    l.transmit('down', PAYLOAD, 0);
    expect(l.dropCause({ direction: 'down', firstSent: [PAYLOAD, 2 * PAYLOAD] })).toBe('queue');
    expect(l.queueDrops.down).toBe(1);
    // No random loss: a scheduled offset is lost by the schedule, others go through.
    const s = link({ lossSchedule: { server: [100] } });
    s.transmit('down', PAYLOAD, 0);
    expect(s.dropCause({ direction: 'down', firstSent: [0, PAYLOAD] })).toBe('schedule');
    s.transmit('down', PAYLOAD, 0);
    expect(s.dropCause({ direction: 'down', firstSent: [PAYLOAD, 2 * PAYLOAD] })).toBeUndefined();
  });

  it('never holds or drops what is not offered to drops(): control packets pass a full queue', () => {
    const l = link({ queue: { packets: 1 } });
    expect(l.transmit('down', PAYLOAD, 0)).toBe(51);
    // The queue is full; a handshake packet (the caller does not ask drops()) still goes, unqueued.
    expect(l.transmit('down', 200, 0)).toBe(50);
    expect(l.queueDrops.down).toBe(0);
  });

  it("'unlimited' never drops: the last of a long burst just waits", () => {
    const l = link({ queue: 'unlimited' });
    let at = 0;
    for (let i = 0; i < 500; i++) {
      at = l.transmit('down', PAYLOAD, 0);
      expect(l.drops({ direction: 'down', firstSent: [i * PAYLOAD, (i + 1) * PAYLOAD] })).toBe(false);
    }
    expect(at).toBe(550);
  });
});

describe('loss schedule', () => {
  it('loses the first transmission of the packet carrying each scheduled offset, in that direction only', () => {
    const l = link({ lossSchedule: { server: [3_000], client: [10] } });
    const down = (start: number, end: number) => l.drops({ direction: 'down', firstSent: [start, end] });
    expect(down(0, 1_460)).toBe(false);
    expect(down(1_460, 2_920)).toBe(false);
    expect(down(2_920, 4_380)).toBe(true);
    // Its retransmission carries no new bytes, so the schedule lets it through.
    expect(l.drops({ direction: 'down', firstSent: undefined })).toBe(false);
    expect(l.drops({ direction: 'up', firstSent: [0, 100] })).toBe(true);
    expect(l.drops({ direction: 'up', firstSent: [100, 200] })).toBe(false);
  });
});

describe('random loss draws', () => {
  it('give the k-th packet of new data the same fate in two runs, however many retransmissions come between', () => {
    const fates = (retransmitEvery: number) => {
      const l = link({ loss: 0.3 }, 'same seed');
      const out: boolean[] = [];
      for (let k = 0; k < 200; k++) {
        out.push(l.drops({ direction: 'down', firstSent: [k * 1_000, (k + 1) * 1_000] }));
        if (k % retransmitEvery === 0) l.drops({ direction: 'down', firstSent: undefined });
        l.drops({ direction: 'up', firstSent: [k, k + 1] });
      }
      return out;
    };
    const a = fates(3);
    const b = fates(7);
    expect(a).toEqual(b);
    // And the rate is the one asked for (about 60 of 200).
    const lost = a.filter(Boolean).length;
    expect(lost).toBeGreaterThan(40);
    expect(lost).toBeLessThan(80);
  });
});
