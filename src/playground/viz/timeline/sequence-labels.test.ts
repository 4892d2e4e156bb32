import { describe, expect, it } from 'vitest';
import { overlaps, rectQuad } from '../placement';
import type { Arrow, Peer } from './sequence';
import { labelText, mergeKey, placeLabels, shorten } from './sequence-labels';

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

  it('arrows that leave together the same way share one label only with their own kind on their own connection', () => {
    const arrows = [
      arrow(0, 'client', 'server', 0, 'Finished', 'tls'),
      arrow(1, 'client', 'server', 1, 'GET /', 'request'),
      arrow(2, 'client', 'server', 2, 'GET /a', 'request'),
      arrow(3, 'client', 'server', 3, 'GET /b', 'request'),
    ];
    const other = { ...arrow(4, 'client', 'server', 3.5, 'GET /c', 'request'), connectionId: 'c2' };
    const all = [...arrows, other];
    const placed = placeLabels(all, ends(all), []);
    expect(placed.map((p) => p.members)).toEqual([[0], [1, 2, 3], [4]]);
    expect(labelText(all, placed[1]!.members, () => true)).toBe('GET / (+2 more)');
    // Before the others arrive, the first speaks alone.
    expect(labelText(all, placed[1]!.members, (a) => a.index === 1)).toBe('GET /');
  });

  it('never merges a connection closing (FIN, RST) or opening (SYN, SYN-ACK, ACK) into another label', () => {
    // Issue #27: HTTP/1.0 closes c1 with a FIN and opens c2 with a SYN at the same moment.
    const fin = arrow(0, 'client', 'server', 0, 'FIN', 'tcp');
    const syn = { ...arrow(1, 'client', 'server', 0, 'SYN', 'tcp'), connectionId: 'c2' };
    const fin2 = arrow(2, 'client', 'server', 0.5, 'FIN', 'tcp');
    const rst = arrow(3, 'client', 'server', 1, 'RST', 'tcp');
    const all = [fin, syn, fin2, rst];
    const placed = placeLabels(all, ends(all), []);
    expect(placed.map((p) => p.members)).toEqual([[0], [1], [2], [3]]);
    expect(placed.map((p) => labelText(all, p.members, () => true))).toEqual(['c1 FIN', 'c2 SYN', 'c1 FIN', 'c1 RST']);
    expect(overlaps(placed.map((p) => p.box))).toEqual([]);
    expect(mergeKey(fin)).not.toBe(mergeKey(fin2));
  });

  it('places the control arrows first: a burst of data never takes their room', () => {
    // A request on c2 and c1's FIN leave together along one line, with room for one label only: above the
    // middle of the line. The FIN, later in the trace, gets it.
    const request = { ...arrow(0, 'client', 'server', 0, 'GET /', 'request'), connectionId: 'c2' };
    const fin = arrow(1, 'client', 'server', 0, 'FIN', 'tcp');
    const flat = () => ({ x1: 0, y1: 100, x2: 400, y2: 100 });
    const walls = [rectQuad(0, 0, 150, 200), rectQuad(250, 0, 150, 200), rectQuad(150, 0, 100, 80), rectQuad(150, 101, 100, 100)];
    const placed = placeLabels([request, fin], flat, walls);
    expect(placed.map((p) => p.members)).toEqual([[1]]);
    expect(overlaps([...walls, placed[0]!.box])).toEqual([]);
  });

  it('a label with no room for its whole text is shortened rather than left out, and left out only when even that finds none', () => {
    const label = 'GET http://api.example/a/rather/long/path HTTP/1.1';
    const arrows = [arrow(0, 'client', 'server', 0, label)];
    const flat = () => ({ x1: 0, y1: 100, x2: 400, y2: 100 });
    // Room only in the middle, 200 px across: too narrow for the whole label, wide enough for 24 characters.
    const walls = (gap: number) => [rectQuad(0, 0, 200 - gap / 2, 200), rectQuad(200 + gap / 2, 0, 200 - gap / 2, 200)];
    const [placed] = placeLabels(arrows, flat, walls(200));
    expect(placed!.chars).toBe(24);
    const text = shorten(
      labelText(arrows, placed!.members, () => true),
      placed!.chars,
    );
    expect(text).toHaveLength(24);
    expect(text.endsWith('…')).toBe(true);
    expect(overlaps([...walls(200), placed!.box])).toEqual([]);
    // With room for the whole text, it is whole.
    expect(placeLabels(arrows, flat, walls(400))[0]!.chars).toBeUndefined();
    // With room for neither, none.
    expect(placeLabels(arrows, flat, walls(60))).toEqual([]);
  });

  it('shorten keeps a text that fits and cuts one that does not, ending in an ellipsis', () => {
    expect(shorten('HTTP/1.0 200 OK', 16)).toBe('HTTP/1.0 200 OK');
    expect(shorten('HTTP/1.0 200 OK', undefined)).toBe('HTTP/1.0 200 OK');
    expect(shorten('ACK + GET http://api.example/page/1 HTTP/1.0', 16)).toBe('ACK + GET http:…');
  });
});
