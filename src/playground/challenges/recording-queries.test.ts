/** The check helpers on recordings made by hand, so each rule is pinned without running a snippet. */
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from 'roundtrip/wire';
import type { QueryVizEvent, Recording, Source } from '../recording/model';
import {
  connectionsOpened,
  dataHistory,
  finishedRequests,
  framesSent,
  loadTime,
  ms,
  mutationSummaries,
  protocolErrors,
  queryAttempts,
  queryEvents,
  queryFetches,
  querySummaries,
  retryDelays,
} from './recording-queries';

function recording(sources: Source[]): Recording {
  return { sources, steps: sources.flatMap((s) => s.events.map((_, index) => ({ sourceId: s.id, index }))) };
}

const finished = (seq: number, url: string, startedAt: number, t: Partial<Record<'blocked' | 'connect' | 'send' | 'wait' | 'receive', number>>, status = 200) =>
  ({
    type: 'request-finished',
    seq,
    at: 0,
    requestId: `r${seq}`,
    connectionId: 'c1',
    startedAt,
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0, ...t },
    serverIPAddress: '192.0.2.1',
    reused: t.connect === undefined,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [], headersSize: 0, bodySize: 0 },
    response: { status, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], headersSize: 0, bodySize: 0, mimeType: 'text/plain' },
  }) as unknown as TraceEvent;

const frame = (seq: number, side: 'client' | 'server', direction: 'sent' | 'received', frameType: string, length: number) =>
  ({
    type: 'h2-frame',
    seq,
    at: 0,
    connectionId: 'c1',
    side,
    direction,
    frameType,
    streamId: 1,
    flags: [],
    length,
    fields: {},
    data: '',
    ranges: [],
  }) as unknown as TraceEvent;

const subject = (queryKey: unknown[]) => ({ kind: 'query' as const, queryHash: JSON.stringify(queryKey), queryKey });
const q = (at: number, queryKey: unknown[], event: Record<string, unknown>): QueryVizEvent =>
  ({ kind: 'instrumentation', at, event: { at, subject: subject(queryKey), ...event } }) as unknown as QueryVizEvent;

describe('requests', () => {
  const rec = recording([
    {
      id: 'sim-1',
      kind: 'wire',
      label: 'Simulation 1',
      events: [
        { type: 'connection-opening', seq: 0, at: 0, connectionId: 'c1', from: 'client', to: 'server', address: 'a:80', rtt: 100 } as unknown as TraceEvent,
        { type: 'connection-opening', seq: 1, at: 0, connectionId: 'p1', from: 'proxy', to: 'server', address: 'a:80', rtt: 100 } as unknown as TraceEvent,
        finished(2, 'https://api.example/index.html', 0, { connect: 200, send: 0, wait: 110, receive: 5 }),
        finished(3, 'https://api.example/app.js?v=2', 10, { blocked: 305, send: 1, wait: 100, receive: 4 }, 404),
      ],
    },
  ]);

  it('ends a request at its start plus every phase that applies (-1 counts as none)', () => {
    expect(finishedRequests(rec).map((r) => [r.path, r.status, r.startedAt, r.endedAt, r.blocked])).toEqual([
      ['/index.html', 200, 0, 315, 0],
      ['/app.js?v=2', 404, 10, 420, 305],
    ]);
    expect(finishedRequests(rec, '/app').map((r) => r.path)).toEqual(['/app.js?v=2']);
  });

  it('measures a load from the first start to the last byte', () => {
    expect(loadTime(finishedRequests(rec))).toBe(420);
    expect(loadTime([])).toBe(0);
  });

  it("counts the client's connections, not a proxy's", () => {
    expect(connectionsOpened(rec)).toBe(1);
  });

  it('formats ms as a reader reads them', () => {
    expect(ms(1203.6)).toBe('1,204 ms');
  });
});

it('counts each HTTP/2 frame once, as sent, by its sender', () => {
  const rec = recording([
    {
      id: 'sim-1',
      kind: 'wire',
      label: 'Simulation 1',
      events: [
        frame(0, 'client', 'sent', 'HEADERS', 30),
        frame(1, 'server', 'received', 'HEADERS', 30),
        frame(2, 'server', 'sent', 'HEADERS', 12),
        frame(3, 'client', 'sent', 'DATA', 5),
      ],
    },
  ]);
  expect(framesSent(rec).map((f) => f.length)).toEqual([30, 12, 5]);
  expect(framesSent(rec, { type: 'HEADERS', by: 'client' }).map((f) => f.length)).toEqual([30]);
});

describe('queries', () => {
  const rec = recording([
    {
      id: 'client-1',
      kind: 'query',
      label: 'QueryClient 1',
      events: [
        q(0, ['todos', 1], { type: 'observerAdded', observerCount: 1 }),
        q(0, ['todos', 1], { type: 'fetchStart', fetchStatus: 'fetching', fetchMeta: { text: 'undefined', truncated: false } }),
        q(100, ['todos', 1], {
          type: 'retry',
          attempt: 1,
          delay: 200,
          dueAt: 300,
          delaySource: 'retryDelay-function',
          error: { text: 'Error', truncated: false },
        }),
        q(400, ['todos', 1], {
          type: 'retry',
          attempt: 2,
          delay: 400,
          dueAt: 800,
          delaySource: 'retryDelay-function',
          error: { text: 'Error', truncated: false },
        }),
        q(0, ['todos', 2], { type: 'fetchStart', fetchStatus: 'fetching', fetchMeta: { text: 'undefined', truncated: false } }),
        q(0, ['todo'], { type: 'fetchStart', fetchStatus: 'fetching', fetchMeta: { text: 'undefined', truncated: false } }),
        { kind: 'query', at: 900, action: 'updated', query: { queryHash: '["todos",1]', queryKey: ['todos', 1], status: 'error' } } as unknown as QueryVizEvent,
      ],
    },
  ]);

  it("matches keys by their first elements, as TanStack's filters do: ['todos'] is not ['todo']", () => {
    expect(queryEvents(rec, ['todos']).length).toBe(5);
    expect(queryEvents(rec, ['todos', 1]).length).toBe(4);
    expect(queryEvents(rec, ['todo']).length).toBe(1);
    expect(queryEvents(rec).length).toBe(6);
  });

  it('counts fetches, attempts (fetches plus retries) and each retry delay', () => {
    expect(queryFetches(rec, ['todos'])).toBe(2);
    expect(queryAttempts(rec, ['todos', 1])).toBe(3);
    expect(retryDelays(rec, ['todos', 1])).toEqual([200, 400]);
  });

  it("keeps each query's last summary", () => {
    expect(querySummaries(rec, ['todos']).map((s) => s.status)).toEqual(['error']);
  });
});

it('locates a protocol error by line and column in the bytes the refusing side received on that connection', () => {
  const received = (seq: number, connectionId: string, by: 'client' | 'server', data: string) =>
    ({ type: 'bytes-received', seq, at: 0, connectionId, by, data }) as unknown as TraceEvent;
  const rec = recording([
    {
      id: 'sim-1',
      kind: 'wire',
      label: 'Simulation 1',
      events: [
        received(0, 'c2', 'server', 'noise on another connection\n\n\n'),
        received(1, 'c1', 'server', 'GET / HTTP/1.1\r\nAcc'),
        received(2, 'c1', 'client', 'HTTP/1.1 400 Bad Request\r\n'),
        received(3, 'c1', 'server', 'ept: */*\r\nHost : x\r\n\r\n'),
        // 'Host : x' starts at byte 29; its space is byte 33.
        {
          type: 'protocol-error',
          seq: 4,
          at: 0,
          connectionId: 'c1',
          by: 'server',
          protocol: 'http/1',
          code: 'whitespace-before-colon',
          message: 'm',
          offset: 33,
          status: 400,
        } as unknown as TraceEvent,
      ],
    },
  ]);
  expect(protocolErrors(rec)).toEqual([{ by: 'server', code: 'whitespace-before-colon', message: 'm', status: 400, line: 3, column: 5 }]);
});

it("follows a query's data through its changes, and each mutation to its last status", () => {
  const summary = (text: string | null, status = 'success') =>
    ({
      kind: 'query',
      at: 0,
      action: 'updated',
      query: { queryHash: '["todos"]', queryKey: ['todos'], status, data: text === null ? null : { text, truncated: false } },
    }) as unknown as QueryVizEvent;
  const mutation = (status: string) => ({ kind: 'mutation', at: 0, action: 'updated', mutation: { mutationId: 1, status } }) as unknown as QueryVizEvent;
  const rec = recording([
    {
      id: 'client-1',
      kind: 'query',
      label: 'QueryClient 1',
      events: [summary(null, 'pending'), summary('[1]'), summary('[1]'), summary('[1,2]'), mutation('pending'), mutation('error'), summary('[1]')],
    },
  ]);
  expect(dataHistory(rec, ['todos'])).toEqual(['(no data)', '[1]', '[1,2]', '[1]']);
  expect(mutationSummaries(rec).map((m) => m.status)).toEqual(['error']);
});
