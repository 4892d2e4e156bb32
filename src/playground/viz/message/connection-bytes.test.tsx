// @vitest-environment jsdom
/**
 * The Messages view reads a connection's bytes once per recording and dissects each state once (issue #27:
 * jumping to the end of "Seven ways" re-read every TLS record from the first event and redrew every message).
 * What it shows must stay exactly what a fresh read as of the cursor gives, at every step; an unchanged message
 * must stay the same object (so it is not drawn again); and messages far from the viewport wait to be drawn.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventsAt, type Recording, type WireSource } from '../../recording/model';
import { recordSnippet } from '../run-snippet';
import { tlsProtocolOf } from '../tls-records';
import { dissect } from './anatomy';
import { connectionAt, Message } from './MessageInspector';
import { DirectionReader, http1ConnectionIds } from './streams';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

let recording: Recording;
beforeAll(async () => {
  ({ recording } = await recordSnippet('http-compare-page-load.ts'));
}, 60_000);

/** The straightforward reading, as of `cursor`: every visible event of the connection, from the first. */
function freshRead(source: WireSource, connectionId: string, cursor: number) {
  const readers = { client: new DirectionReader(), server: new DirectionReader() };
  const text = { client: '', server: '' };
  let eof = false;
  let tunnelTls: 'tls1.2' | 'tls1.3' | undefined;
  for (const e of eventsAt(recording, source, cursor)) {
    if (!('connectionId' in e) || e.connectionId !== connectionId) continue;
    if (e.type === 'connection-closed') eof = true;
    const tls = tlsProtocolOf(e);
    if (tls) tunnelTls = readers.client.protocol = readers.server.protocol = tls;
    if (e.type === 'bytes-sent') text[e.from] += readers[e.from].read(e.data);
  }
  const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const requests = dissect(bytes(text.client), 'request', { eof, tunnelTls });
  const answered = requests.flatMap((m) => (m.method ? [{ method: m.method, ...(m.version ? { version: m.version } : {}) }] : []));
  return {
    client: bytes(text.client),
    server: bytes(text.server),
    requests,
    responses: dissect(bytes(text.server), 'response', { eof, requests: answered, tunnelTls }),
  };
}

describe('Messages view, read once per recording', () => {
  it('shows at every sampled step exactly what reading the connection afresh as of that step shows', { timeout: 60_000 }, () => {
    const wire = recording.sources.filter((s): s is WireSource => s.kind === 'wire');
    const connections = wire.flatMap((source) =>
      http1ConnectionIds(source.events).map((connectionId) => ({ key: `${source.id}/${connectionId}`, source, connectionId })),
    );
    expect(connections.length).toBeGreaterThan(10);
    // Both ends and steps spread over the run (each fresh read walks the run from its start).
    const steps = recording.steps.length;
    const cursors = [-1, 0, ...Array.from({ length: 12 }, (_, k) => Math.floor(((k + 1) * steps) / 14)), steps - 1];
    let compared = 0;
    for (const conn of connections) {
      for (const cursor of cursors) {
        const shown = connectionAt(recording, conn, cursor);
        const fresh = freshRead(conn.source, conn.connectionId, cursor);
        expect([...shown.client.bytes]).toEqual([...fresh.client]);
        expect([...shown.server.bytes]).toEqual([...fresh.server]);
        expect(shown.client.messages).toEqual(fresh.requests);
        expect(shown.server.messages).toEqual(fresh.responses);
        compared += shown.server.messages.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('hands the same object for a message that did not change between two steps', () => {
    const source = recording.sources.find((s): s is WireSource => s.kind === 'wire' && s.label.startsWith('HTTP/1.1 persistent'))!;
    const conn = { key: `${source.id}/c1`, source, connectionId: 'c1' };
    const end = recording.steps.length - 1;
    const last = connectionAt(recording, conn, end).server.messages;
    expect(last.length).toBeGreaterThan(2);
    // The step at which the second response is whole, and a step well after it.
    const steps = recording.steps.map((_, i) => i).filter((i) => connectionAt(recording, conn, i).server.messages[1]?.kind === 'response');
    const early = connectionAt(recording, conn, steps[0]!).server.messages;
    expect(early[1]).toBe(last[1]);
    expect(early[0]).toBe(last[0]);
    expect(early.length).toBeLessThan(last.length);
  });
});

describe('a message far from the viewport', () => {
  it('keeps its place and caption but draws its bytes and legend only once the reader scrolls near it', () => {
    const observers: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        readonly entry: { callback: IntersectionObserverCallback; target?: Element };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.target = target;
        }
        disconnect() {}
      },
    );
    // Laid out 5,000 px below the viewport.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ top: 5000, bottom: 5400 } as DOMRect);
    const bytes = Uint8Array.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi', (c) => c.charCodeAt(0));
    const [message] = dissect(bytes, 'response', { requests: [{ method: 'GET' }] });
    const { container } = render(<Message message={message!} bytes={bytes} current={false} />);
    expect(container.querySelector('figcaption')?.textContent).toMatch(/^Response HTTP\/1\.1 200 OK/);
    expect(container.querySelector('.rt-mi-raw')).toBeNull();
    expect(container.querySelector('.rt-mi-later')).not.toBeNull();
    const [observer] = observers;
    expect(observer?.target).toBe(container.querySelector('figure'));
    act(() => observer!.callback([{ isIntersecting: true, target: observer!.target! } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(container.querySelector('.rt-mi-raw')?.textContent).toBe('HTTP/1.1 200 OK\\r\\n\nContent-Length: 2\\r\\n\n\\r\\n\nhi');
    expect(container.querySelectorAll('.rt-mi-legend button').length).toBeGreaterThan(4);
  });
});
