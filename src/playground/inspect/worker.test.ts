import { describe, expect, it, vi } from 'vitest';
import type { WorkerMessage } from './chunks';

describe('the worker', () => {
  it('answers a reading one piece per request: the result, then a chunk each time the page asks, then the end', async () => {
    const sent: WorkerMessage[] = [];
    const scope: { postMessage: (m: WorkerMessage) => void; onmessage?: (e: { data: unknown }) => void } = { postMessage: (m) => sent.push(m) };
    vi.stubGlobal('self', scope);
    await import('./worker');
    const har = (n: number) =>
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 't', version: '1' },
          entries: Array.from({ length: n }, (_, i) => ({
            startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
            time: 3,
            request: {
              method: 'GET',
              url: `http://a.test/${i}`,
              httpVersion: 'HTTP/1.1',
              headers: [],
              queryString: [],
              cookies: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [],
              cookies: [],
              content: { size: 1, mimeType: 'text/plain' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 1,
            },
            cache: {},
            timings: { send: 1, wait: 1, receive: 1 },
          })),
        },
      });
    // A file's bytes alone: the worker decodes them.
    scope.onmessage!({ data: { id: 1, input: { bytes: new TextEncoder().encode(har(400)) } } });
    expect(sent.map((m) => m.type)).toEqual(['result']);
    const head = sent[0]!;
    expect(head.type === 'result' && head.result.format).toBe('har');
    const total = head.type === 'result' ? head.events : 0;
    expect(total).toBeGreaterThan(2000);
    let asked = 0;
    while (sent.at(-1)!.type !== 'end' && asked < 100) {
      scope.onmessage!({ data: { id: 1, type: 'next' } });
      asked++;
    }
    const chunks = sent.filter((m) => m.type === 'chunk');
    expect(chunks.length).toBe(Math.ceil(total / 2000));
    // The replay's 400 exchanges follow the events, 200 a message.
    expect(sent.filter((m) => m.type === 'replay').map((m) => (m.type === 'replay' ? m.exchanges.length : 0))).toEqual([200, 200]);
    expect(asked).toBe(chunks.length + 2 + 1);
    expect(chunks.reduce((n, m) => n + (m.type === 'chunk' ? m.parts.reduce((k, p) => k + p.events.length, 0) : 0), 0)).toBe(total);
    // A request for a reading that has been replaced (or is over) gets nothing.
    scope.onmessage!({ data: { id: 1, type: 'next' } });
    expect(sent.at(-1)!.type).toBe('end');
    vi.unstubAllGlobals();
  });
});
