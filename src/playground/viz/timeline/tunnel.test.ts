/**
 * The Sequence view's labels on a CONNECT tunnel (content/snippets/http2-proxy-tunnel.ts, on /http/proxies/):
 * the connection to the proxy carries HTTP/1 first (CONNECT, 200) and HTTP/2 inside TLS after it, so each byte
 * range is named by the protocol that carries it. They were all read as HTTP/2 frames, because the client
 * announces its HTTP/2 session before the CONNECT goes out: "CONNECT api..." became "ACK + type 78 s1129586785".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WireSource } from '../../recording/model';
import { recordSnippet } from '../run-snippet';
import { buildSequence, type Arrow } from './sequence';

describe('http2-proxy-tunnel in the Sequence view', () => {
  let arrows: readonly Arrow[];
  beforeAll(async () => {
    const { recording } = await recordSnippet('http2-proxy-tunnel.ts');
    arrows = buildSequence((recording.sources[0] as WireSource).events).arrows;
  });
  const labelled = (connectionId: string, from: string) =>
    arrows.filter((a) => a.connectionId === connectionId && a.from === from && a.label !== '' && a.category !== 'tcp');

  it('names the CONNECT request and its 200 as the HTTP/1 messages they are', () => {
    const [connect] = labelled('c1', 'client');
    expect(connect).toMatchObject({ label: 'CONNECT api.example:443 HTTP/1.1', category: 'request', to: 'proxy' });
    const [established] = labelled('c1', 'proxy');
    expect(established).toMatchObject({ label: 'HTTP/1.1 200 Connection Established', category: 'response', to: 'client' });
  });

  it('names the frames inside the tunnel as HTTP/2, on both hops, and nothing as an unknown frame type', () => {
    for (const [conn, client, server] of [
      ['c1', 'client', 'proxy'],
      ['c2', 'proxy', 'server'],
    ] as const) {
      const sent = labelled(conn, client).map((a) => a.label);
      const answered = labelled(conn, server).map((a) => a.label);
      expect(
        sent.some((l) => l.startsWith('preface, SETTINGS')),
        `${conn}: ${sent.join(' | ')}`,
      ).toBe(true);
      expect(
        sent.some((l) => /^HEADERS s1\b/.test(l)),
        `${conn}: ${sent.join(' | ')}`,
      ).toBe(true);
      expect(
        answered.some((l) => /^SETTINGS\b/.test(l)),
        `${conn}: ${answered.join(' | ')}`,
      ).toBe(true);
      expect(
        answered.some((l) => /HEADERS s1\b/.test(l)),
        `${conn}: ${answered.join(' | ')}`,
      ).toBe(true);
    }
    const all = arrows.map((a) => a.description);
    expect(all.filter((d) => /type \d+|s\d{4,}|data \(/.test(d))).toEqual([]);
  });
});
