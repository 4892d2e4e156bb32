import { describe, expect, it } from 'vitest';
import { overlaps, rectQuad } from '../placement';
import type { Arrow, Peer } from './sequence';
import { labelText, placeLabels } from './sequence-labels';

const X: Record<Peer, number> = { client: 120, proxy: 400, server: 680 };

function arrow(index: number, from: Peer, to: Peer, sentAt: number, label: string, category: Arrow['category'] = 'request'): Arrow {
  return {
    index,
    endIndex: undefined,
    connectionId: 'c1',
    from,
    to,
    sentAt,
    arriveAt: sentAt + 15,
    lost: false,
    retransmission: false,
    category,
    label,
    description: label,
  };
}

const ends = (arrows: readonly Arrow[]) => (i: number) => {
  const a = arrows[i]!;
  return { x1: X[a.from], y1: 40 + a.sentAt, x2: X[a.to], y2: 40 + a.arriveAt };
};

describe('sequence labels', () => {
  it('a dense burst across three lanes: every label placed is clear of the others and of the obstacles', () => {
    // A proxy's hops a few pixels apart, each way, as the dumb-proxy run draws them at its default scale.
    const arrows: Arrow[] = [];
    const hops: [Peer, Peer][] = [
      ['client', 'proxy'],
      ['proxy', 'server'],
      ['server', 'proxy'],
      ['proxy', 'client'],
    ];
    for (let i = 0; i < 24; i++) {
      const [from, to] = hops[i % 4]!;
      arrows.push(arrow(i, from, to, i * 5, i % 2 ? 'HTTP/1.0 200 OK' : 'GET http://api.example/page/2 HTTP/1.0'));
    }
    const mark = rectQuad(404, 60, 40, 16);
    const placed = placeLabels(arrows, ends(arrows), [mark]);
    expect(placed.length).toBeGreaterThan(4);
    expect(overlaps([mark, ...placed.map((p) => p.box)])).toEqual([]);
  });

  it('arrows that leave together the same way share one label, naming a different kind riding along', () => {
    const arrows = [
      arrow(0, 'client', 'server', 0, 'Finished', 'tls'),
      arrow(1, 'client', 'server', 1, 'GET /', 'request'),
      arrow(2, 'client', 'server', 2, 'DATA', 'request'),
    ];
    const placed = placeLabels(arrows, ends(arrows), []);
    expect(placed.map((p) => p.members)).toEqual([[0, 1, 2]]);
    expect(labelText(arrows, placed[0]!.members, () => true)).toBe('Finished + GET / (+1 more)');
    // Before the others arrive, the first speaks alone.
    expect(labelText(arrows, placed[0]!.members, (a) => a.index === 0)).toBe('Finished');
  });
});
