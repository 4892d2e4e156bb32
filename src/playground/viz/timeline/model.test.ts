import { describe, expect, it } from 'vitest';
import type { TraceEvent } from 'roundtrip/wire';
import { buildSequence } from './sequence';
import { buildRequests, harSpans, rowAt, rowsAt } from './requests';
import { fastest, summarize } from './summary';
import { formatBytes, formatMs, ticks } from './format';
import { loadPage, PAGE } from './testing';

const count = (events: readonly TraceEvent[], type: TraceEvent['type'], pred: (e: never) => boolean = () => true) =>
  events.filter((e) => e.type === type && pred(e as never)).length;

describe('buildSequence', () => {
  it('draws one arrow per TCP handshake step, segment and ACK, paired with its arrival', async () => {
    const sim = await loadPage({ httpVersion: '1.1', maxConnectionsPerOrigin: 2 });
    const events = sim.trace.events;
    const model = buildSequence(events);
    const by = (category: string) => model.arrows.filter((a) => a.category === category).length;
    expect(by('tcp')).toBe(count(events, 'handshake'));
    expect(by('ack')).toBe(count(events, 'ack'));
    expect(model.arrows.length).toBe(count(events, 'handshake') + count(events, 'segment-sent') + count(events, 'ack'));
    // Every segment of a loss-free run ends in a 'segment-arrived' at the arrow's arrival time.
    for (const a of model.arrows.filter((x) => x.category !== 'tcp' && x.category !== 'ack')) {
      const end = events[a.endIndex!]!;
      expect(end.type).toBe('segment-arrived');
      expect(end.at).toBe(a.arriveAt);
      expect(a.lost).toBe(false);
    }
    expect(model.lanes).toEqual(['client', 'server']);
    expect(new Set(model.arrows.map((a) => a.connectionId))).toEqual(new Set(['c1', 'c2']));
  });

  it('labels segments with the request line, the status line and the TLS and HTTP/2 messages they carry', async () => {
    const h1 = buildSequence((await loadPage({ httpVersion: '1.1' })).trace.events);
    const labels = h1.arrows.map((a) => a.label);
    expect(labels).toContain(`GET ${PAGE[0]} HTTP/1.1`);
    expect(labels).toContain('HTTP/1.1 200 OK');
    expect(labels.slice(0, 3)).toEqual(['SYN', 'SYN-ACK', 'ACK']);

    const h2 = buildSequence((await loadPage({ httpVersion: '2', tls: '1.3' })).trace.events);
    const h2labels = h2.arrows.map((a) => a.label);
    expect(h2labels).toContain('TLS ClientHello');
    expect(h2labels.some((l) => l.startsWith('preface, SETTINGS'))).toBe(true);
    expect(h2labels.some((l) => /HEADERS s1\b/.test(l))).toBe(true);
    expect(h2labels.some((l) => /DATA s3\b/.test(l))).toBe(true);
  });

  it('marks lost segments and retransmissions where the trace has them', async () => {
    const sim = await loadPage({ httpVersion: '1.1', loss: 0.15, seed: 4 });
    const events = sim.trace.events;
    const lost = count(events, 'packet-lost');
    expect(lost).toBeGreaterThan(0); // the seed keeps the test meaningful
    const model = buildSequence(events);
    const lostArrows = model.arrows.filter((a) => a.lost);
    expect(lostArrows).toHaveLength(lost);
    for (const a of lostArrows) {
      const end = events[a.endIndex!]!;
      expect(end.type).toBe('packet-lost');
      expect(a.description).toContain('LOST');
    }
    expect(model.arrows.filter((a) => a.retransmission)).toHaveLength(count(events, 'segment-sent', (e: { retransmission: boolean }) => e.retransmission));
    expect(model.marks.filter((m) => m.kind === 'rto')).toHaveLength(count(events, 'retransmit', (e: { reason: string }) => e.reason === 'timeout'));
    expect(model.marks.filter((m) => m.kind === 'loss-detected')).toHaveLength(
      count(events, 'retransmit', (e: { reason: string }) => e.reason !== 'timeout') + count(events, 'quic-packets-lost'),
    );
  });

  it('puts a proxy in its own lane and maps each hop to its ends', async () => {
    const model = buildSequence((await loadPage({ httpVersion: '1.1', proxy: {}, maxConnectionsPerOrigin: 1 })).trace.events);
    expect(model.lanes).toEqual(['client', 'proxy', 'server']);
    const pairs = new Set(model.arrows.map((a) => `${a.connectionId}:${[a.from, a.to].sort().join('-')}`));
    expect(pairs).toEqual(new Set(['c1:client-proxy', 'c2:proxy-server']));
  });

  it('draws QUIC packets and marks the dropped ones lost', async () => {
    const sim = await loadPage({ httpVersion: '3', tls: '1.3', loss: 0.2, seed: 5 });
    const events = sim.trace.events;
    const dropped = events.flatMap((e) => (e.type === 'quic-datagram-dropped' ? e.packetNumbers : []));
    expect(dropped.length).toBeGreaterThan(0);
    const model = buildSequence(events);
    expect(model.arrows).toHaveLength(count(events, 'quic-packet-sent'));
    expect(model.arrows.filter((a) => a.lost)).toHaveLength(dropped.length);
    expect(model.arrows.some((a) => a.label === `HEADERS s0: GET ${PAGE[0]}`)).toBe(true);
    expect(model.arrows.some((a) => a.label === 'HEADERS s0: 200')).toBe(true);
  });
});

describe('request rows', () => {
  it('has one row per request, with phases that are exactly the HAR timings', async () => {
    const sim = await loadPage({ httpVersion: '2', tls: '1.3' });
    const events = sim.trace.events;
    const model = buildRequests(events);
    const rows = rowsAt(model, events.length, sim.clock.now());
    expect(rows).toHaveLength(count(events, 'request-started'));
    for (const row of rows) {
      const f = row.track.finished!.event;
      const ms = (phase: string) => row.spans.filter((s) => s.phase === phase).reduce((sum, s) => sum + s.end - s.start, 0);
      expect(row.state).toBe('finished');
      expect(ms('blocked')).toBeCloseTo(Math.max(0, f.timings.blocked), 9);
      expect(ms('connect')).toBeCloseTo(Math.max(0, f.timings.connect - Math.max(0, f.timings.ssl)), 9);
      expect(ms('ssl')).toBeCloseTo(Math.max(0, f.timings.ssl), 9);
      expect(ms('wait')).toBeCloseTo(f.timings.wait, 9);
      expect(ms('receive')).toBeCloseTo(f.timings.receive, 9);
      expect(row.end).toBeCloseTo(f.at, 6);
      expect(row.protocol).toBe('h2');
    }
    // The document paid for the TCP and TLS handshakes; the subresources reused its connection.
    expect(rows[0]!.spans.map((s) => s.phase).slice(0, 3)).toEqual(['connect', 'ssl', 'wait']);
    expect(rows.slice(1).every((r) => r.spans.every((s) => s.phase !== 'connect' && s.phase !== 'ssl'))).toBe(true);
  });

  it('rebuilds a request in progress from the events seen so far and stops it at the cursor time', async () => {
    const sim = await loadPage({ httpVersion: '1.1', tls: '1.2', maxConnectionsPerOrigin: 1 });
    const events = sim.trace.events;
    const model = buildRequests(events);
    const first = model.requests[0]!;
    // Just after the TCP handshake finished: TCP is done, TLS under way.
    const opened = events.findIndex((e) => e.type === 'connection-opened');
    const tlsDone = events.findIndex((e) => e.type === 'tls-established');
    const mid = Math.floor((opened + tlsDone) / 2);
    const now = events[mid]!.at;
    const row = rowAt(model, first, mid + 1, now)!;
    expect(row.state).toBe('pending');
    expect(row.spans.map((s) => s.phase)).toEqual(['connect', 'ssl']);
    expect(row.spans[0]!.end).toBe(events[opened]!.at);
    expect(row.end).toBe(now);
    expect(row.spans[1]!.end).toBe(now);
    // Requests queued behind the single connection show as blocked until the cursor.
    const lastStart = events.findLastIndex((e) => e.type === 'request-started');
    const queued = rowAt(model, model.requests.at(-1)!, lastStart + 1, events[lastStart]!.at)!;
    expect(queued.spans).toEqual([]);
    const later = rowAt(model, model.requests.at(-1)!, lastStart + 40, events[lastStart + 39]!.at)!;
    expect(later.spans.map((s) => s.phase)).toEqual(['blocked']);
    // Nothing is shown for a request that has not started at the cursor.
    expect(rowAt(model, model.requests.at(-1)!, lastStart, now)).toBeUndefined();
  });

  it('lays HAR phases end to end, skipping the ones that do not apply', () => {
    expect(harSpans(10, { blocked: 5, dns: -1, connect: 30, ssl: 20, send: 0, wait: 40, receive: 2 })).toEqual([
      { phase: 'blocked', start: 10, end: 15 },
      { phase: 'connect', start: 15, end: 25 },
      { phase: 'ssl', start: 25, end: 45 },
      { phase: 'wait', start: 45, end: 85 },
      { phase: 'receive', start: 85, end: 87 },
    ]);
  });
});

describe('run summaries', () => {
  it('counts connections, bytes and loss, and only names a fastest run once all have settled', async () => {
    const one = await loadPage({ httpVersion: '1.0' });
    const two = await loadPage({ httpVersion: '2', tls: '1.3' });
    const a = summarize(one.trace.events);
    const b = summarize(two.trace.events);
    expect(a.connections).toBe(PAGE.length); // HTTP/1.0 without keep-alive: one connection per request
    expect(b.connections).toBe(1);
    const bytes = two.trace.events.reduce((sum, e) => sum + (e.type === 'segment-sent' ? e.length : 0), 0);
    expect(b.bytes).toBe(bytes);
    const finished = two.trace.ofType('request-finished');
    expect(b.loadTime).toBe(finished.at(-1)!.at);
    expect(b.roundTrips).toBeCloseTo(b.loadTime! / 100, 9);
    const expected = a.loadTime! < b.loadTime! ? 0 : 1;
    expect(fastest([a, b])).toBe(expected);
    const half = summarize(two.trace.events, Math.floor(two.trace.events.length / 2));
    expect(half.complete).toBe(false);
    expect(fastest([a, half])).toBe(-1);
  });
});

describe('ticks', () => {
  it('picks round steps that cover the range', () => {
    expect(ticks(1000, 5)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(ticks(730, 6)).toEqual([0, 200, 400, 600]);
    expect(ticks(0)).toEqual([0]);
    // A narrow axis asks for few steps; it still gets a label past 0.
    expect(ticks(424, 2)).toEqual([0, 200, 400]);
    expect(ticks(90, 1)).toEqual([0, 50]);
  });
});

describe('formatting', () => {
  it('writes times and sizes the way DevTools does', () => {
    expect([0, 12.54, 99.96, 100.4, 1204, 1234567].map(formatMs)).toEqual(['0 ms', '12.5 ms', '100 ms', '100 ms', '1,204 ms', '1,234,567 ms']);
    expect([850, 4096, 1_200_000].map(formatBytes)).toEqual(['850 B', '4.1 kB', '1.2 MB']);
  });
});
