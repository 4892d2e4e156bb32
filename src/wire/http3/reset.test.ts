import { describe, expect, it } from 'vitest';
import { QuicPair, type PairOptions } from './testing';
import type { QuicFrame } from './packets';

const CANCELLED = 0x10c; // H3_REQUEST_CANCELLED, RFC 9114 §8.1
const body = (n: number): Uint8Array => new Uint8Array(n).fill(66);
const isStream0 = (f: QuicFrame): boolean => f.type === 'STREAM' && f.streamId === 0;

/** A client that sends one request on stream 0; the server answers with `size` bytes, and `after` runs then. */
function exchange(
  size: number,
  options: { drop?: PairOptions['drop']; afterAnswer?: (pair: QuicPair) => void; onClientData?: (pair: QuicPair) => void } = {},
): QuicPair {
  let stopped = false;
  const pair = new QuicPair({
    ...(options.drop ? { drop: options.drop } : {}),
    onEvent: (p, side, event) => {
      if (side === 'client' && event.type === 'ready') p.apply('client', p.client.write(0, Uint8Array.of(1, 2, 3), true, p.now));
      if (side === 'server' && event.type === 'stream-data' && event.streamId === 0 && event.fin) {
        p.apply('server', p.server.write(0, body(size), true, p.now));
        options.afterAnswer?.(p);
      }
      // The first sign of the response: bytes delivered, or bytes held behind a gap.
      const arrived = (event.type === 'stream-data' || event.type === 'stream-blocked') && event.streamId === 0;
      if (side === 'client' && arrived && !stopped && options.onClientData) {
        stopped = true;
        options.onClientData(p);
      }
    },
  });
  pair.apply('client', pair.client.start(0));
  pair.run();
  return pair;
}

describe('RESET_STREAM (RFC 9000 §3.1, §19.4)', () => {
  it('a reset stream sends RESET_STREAM with its final size and never re-sends its lost data (§13.3)', () => {
    let dropped = false;
    const pair = exchange(3000, {
      // Lose the server's first datagram of stream 0 data.
      drop: (datagram, from) => {
        if (from !== 'server' || dropped || !datagram.packets.some((p) => p.frames.some(isStream0))) return false;
        return (dropped = true);
      },
      afterAnswer: (p) => p.apply('server', p.server.resetStream(0, CANCELLED, p.now)),
    });
    expect(dropped).toBe(true);
    const reset = pair.events('server', 'stream-reset');
    expect(reset.map((l) => l.event)).toEqual([{ type: 'stream-reset', by: 'server', streamId: 0, errorCode: CANCELLED, finalSize: 3000 }]);
    const sent = pair.events('server', 'packet-sent');
    const resetPacket = sent.find((l) => l.event.packet.frames.some((f) => f.type === 'RESET_STREAM'))!;
    expect(resetPacket.event.packet.frames.find((f) => f.type === 'RESET_STREAM')).toEqual({
      type: 'RESET_STREAM',
      streamId: 0,
      errorCode: CANCELLED,
      finalSize: 3000,
    });
    // The loss was detected, yet nothing of stream 0 went out again.
    expect(pair.events('server', 'packets-lost').flatMap((l) => l.event.streams)).toContain(0);
    const stream0After = sent.filter((l) => l.event.packet.number > resetPacket.event.packet.number && l.event.packet.frames.some(isStream0));
    expect(stream0After).toEqual([]);
    // The client learns the reset and never sees the stream complete.
    expect(pair.events('client', 'stream-reset').map((l) => [l.event.by, l.event.finalSize])).toEqual([['server', 3000]]);
    expect(pair.events('client', 'stream-data').filter((l) => l.event.streamId === 0 && l.event.fin)).toEqual([]);
  });

  it('a stream whose data is all acknowledged cannot be reset: nothing is sent', () => {
    const pair = exchange(100);
    pair.apply('server', pair.server.resetStream(0, CANCELLED, pair.now));
    expect(pair.events('server', 'stream-reset')).toEqual([]);
    expect(pair.server.isReset(0)).toBe(false);
  });

  it('a reset stream refuses further writes with a clear error', () => {
    const pair = exchange(100, { afterAnswer: (p) => p.apply('server', p.server.resetStream(4, CANCELLED, p.now)) });
    expect(pair.server.isReset(4)).toBe(true);
    expect(() => pair.server.write(4, body(1), true, pair.now)).toThrow(/reset/);
  });
});

describe('STOP_SENDING (RFC 9000 §3.5, §19.5)', () => {
  it('in "Send" the peer answers at once with RESET_STREAM carrying the same code', () => {
    // 60 kB is more than the initial window: the server is still sending when STOP_SENDING arrives.
    const pair = exchange(60_000, { onClientData: (p) => p.apply('client', p.client.stopSending(0, CANCELLED, p.now)) });
    const stop = pair.events('client', 'stop-sending')[0]!;
    const received = pair.events('server', 'stop-sending')[0]!;
    expect(received.event).toEqual({ type: 'stop-sending', by: 'client', streamId: 0, errorCode: CANCELLED });
    expect(received.at).toBe(stop.at + 50);
    const reset = pair.events('server', 'stream-reset')[0]!;
    expect(reset.at).toBe(received.at);
    expect(reset.event.errorCode).toBe(CANCELLED);
    expect(reset.event.finalSize).toBeLessThan(60_000);
    // Nothing more of stream 0 after the reset, and the client delivered nothing after its STOP_SENDING.
    const later = pair.events('server', 'packet-sent').filter((l) => l.at > reset.at && l.event.packet.frames.some(isStream0));
    expect(later).toEqual([]);
    expect(pair.events('client', 'stream-data').filter((l) => l.event.streamId === 0 && l.at > stop.at)).toEqual([]);
  });

  it('in "Data Sent" the peer resets only when some of the data sent is declared lost', () => {
    let dropped = false;
    const pair = exchange(3000, {
      drop: (datagram, from) => {
        if (from !== 'server' || dropped || !datagram.packets.some((p) => p.frames.some(isStream0))) return false;
        return (dropped = true);
      },
      onClientData: (p) => p.apply('client', p.client.stopSending(0, CANCELLED, p.now)),
    });
    const received = pair.events('server', 'stop-sending')[0]!;
    const lost = pair.events('server', 'packets-lost').find((l) => l.event.streams.includes(0))!;
    const reset = pair.events('server', 'stream-reset')[0]!;
    // Everything including the FIN had been sent when STOP_SENDING arrived; the reset waited for the loss.
    expect(lost.at).toBeGreaterThan(received.at);
    expect(reset.at).toBe(lost.at);
    expect(reset.event).toMatchObject({ errorCode: CANCELLED, finalSize: 3000 });
    const resent = pair.events('server', 'packet-sent').filter((l) => l.at >= lost.at && l.event.packet.frames.some(isStream0));
    expect(resent).toEqual([]);
  });

  it('in "Data Sent" with nothing lost, no RESET_STREAM is needed', () => {
    const pair = exchange(3000, { onClientData: (p) => p.apply('client', p.client.stopSending(0, CANCELLED, p.now)) });
    expect(pair.events('server', 'stop-sending')).toHaveLength(1);
    expect(pair.events('server', 'stream-reset')).toEqual([]);
  });
});
