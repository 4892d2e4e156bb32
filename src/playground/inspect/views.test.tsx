// @vitest-environment jsdom
/**
 * What the playground's views draw from an inspected input: the Sequence view's arrows for every format, and
 * the HPACK stepper's table at the starting size the form gave.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FrameInspector from '../viz/frames/FrameInspector';
import HpackStepper from '../viz/frames/HpackStepper';
import SequenceView from '../viz/timeline/SequenceView';
import WaterfallView from '../viz/timeline/WaterfallView';
import { formatBytes, formatMs } from '../viz/timeline/format';
import { VIEWS } from '../viz/views';
import { inspect, type InspectInput } from './inspect';

afterEach(cleanup);

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const pasted = (text: string) => text.replace(/\r\n/g, '\n');

function read(input: InspectInput) {
  const r = inspect(input);
  expect(r.problems).toEqual([]);
  return r.recording!;
}

/** The Sequence view's arrows at the last step, as "from > to: label" in the order drawn. */
function arrows(input: InspectInput): string[] {
  const recording = read(input);
  const { container } = render(<SequenceView recording={recording} cursor={recording.steps.length - 1} />);
  const drawn = [...container.querySelectorAll('.rt-tl-arrow')].map((g) => {
    const label = g.getAttribute('aria-label')!;
    // "c1 client to server, GET /todos/1 HTTP/1.1, bytes 0-77 (78 B), sent at ..."
    const m = /^(c\d+) (\w+) to (\w+), (.*?), bytes \d+-\d+ \(\d+ B\)/.exec(label);
    expect(m, label).not.toBeNull();
    return `${m![1]} ${m![2]} > ${m![3]}: ${m![4]}`;
  });
  cleanup();
  return drawn;
}

const views = (input: InspectInput) => VIEWS.filter((v) => v.applies(read(input))).map((v) => v.id);

describe('Sequence view of an inspected input', () => {
  it('raw HTTP/1: one arrow per message, in the order captured', () => {
    expect(arrows({ text: pasted(fixture('http1-conversation.txt')) })).toEqual([
      'c1 client > server: GET /todos/1 HTTP/1.1',
      'c1 client > server: GET /notes/1 HTTP/1.1',
      'c1 server > client: HTTP/1.1 200 OK',
      'c1 server > client: HTTP/1.1 404 Not Found',
    ]);
  });

  it('curl -v: the request and the response it printed', () => {
    expect(arrows({ text: fixture('curl-v.txt') })).toEqual(['c1 client > server: GET /todos/1 HTTP/1.1', 'c1 server > client: HTTP/1.1 200 OK']);
  });

  it('curl -v over HTTP/2: an arrow per message, labelled from its fields', () => {
    expect(arrows({ text: fixture('curl-h2-prior-knowledge.txt') })).toEqual(['c1 client > server: GET /todos/1', 'c1 server > client: HTTP/2 200']);
    expect(views({ text: fixture('curl-h2-prior-knowledge.txt') })).not.toContain('messages');
  });

  it("HTTP/2 frames: one arrow per frame, from the side that sent them, the client's preface first", () => {
    const client = arrows({ text: fixture('h2-client.xxd.txt') });
    const source = inspect({ text: fixture('h2-client.xxd.txt') }).recording!.sources[0]!;
    const frames = source.kind === 'wire' ? source.events.filter((e) => e.type === 'h2-frame') : [];
    expect(client).toHaveLength(frames.length + 1);
    expect(client.slice(0, 3)).toEqual(['c1 client > server: preface', 'c1 client > server: SETTINGS', 'c1 client > server: PRIORITY s3']);
    expect(client).toContain('c1 client > server: HEADERS s13');

    const server = arrows({ text: fixture('h2-server.od.txt') });
    expect(server.every((a) => a.startsWith('c1 server > client: '))).toBe(true);
    expect(server.slice(0, 2)).toEqual(['c1 server > client: SETTINGS', 'c1 server > client: SETTINGS ACK']);
    expect(server).toContain('c1 server > client: HEADERS s13');
    expect(server).toContain('c1 server > client: DATA s13');
    // Frames without a preface are HTTP/2 all the same: the Messages view (HTTP/1 bytes) is not offered.
    expect(views({ text: fixture('h2-server.od.txt') })).not.toContain('messages');
  });

  it('a HAR: a request and a response arrow per entry, on its connection, at its own times', () => {
    expect(arrows({ text: fixture('chromium.har') })).toEqual([
      'c1 client > server: GET / HTTP/1.1',
      'c1 server > client: HTTP/1.1 200 OK',
      'c1 client > server: GET /style.css HTTP/1.1',
      'c1 server > client: HTTP/1.1 200 OK',
      'c1 client > server: GET /todos/1 HTTP/1.1',
      'c1 server > client: HTTP/1.1 200 OK',
      'c1 client > server: POST /todos HTTP/1.1',
      'c1 server > client: HTTP/1.1 201 Created',
    ]);
    // Two requests multiplexed on one HTTP/2 connection: the second goes out before the first is answered.
    // HTTP/2 has no request line, so a request reads "GET /path".
    expect(arrows({ text: fixture('nghttp.har') })).toEqual([
      'c1 client > server: GET /todos/1',
      'c1 client > server: GET /todos',
      'c1 server > client: HTTP/2 200',
      'c1 server > client: HTTP/2 200',
    ]);
    // A Firefox export names no connection: one per host.
    expect(arrows({ text: fixture('firefox.har') }).filter((a) => a.includes('client > server'))).toEqual([
      'c1 client > server: GET /page.html HTTP/1.1',
      'c1 client > server: GET /style.css HTTP/1.1',
      'c1 client > server: GET /todos/1 HTTP/1.1',
      'c1 client > server: GET /favicon.ico HTTP/1.1',
      'c1 client > server: POST /todos HTTP/1.1',
      'c1 client > server: GET /missing HTTP/1.1',
    ]);
    // The heads are rebuilt from the HAR's fields, not captured bytes: no Messages view.
    expect(views({ text: fixture('chromium.har') })).not.toContain('messages');
  });

  it("a HAR's arrows span its send and receive timings", () => {
    const recording = read({ text: fixture('chromium.har') });
    render(<SequenceView recording={recording} cursor={recording.steps.length - 1} />);
    // Entry 1: send 0, wait 36.617, receive 11.284 (ms after the first entry started).
    const response = screen.getAllByRole('button', { name: /^c1 server to client, HTTP\/1\.1 200 OK/ })[0]!;
    expect(response.getAttribute('aria-label')).toMatch(/sent at 36\.6 ms, arrived at 47\.9 ms/);
  });
});

describe('HPACK stepper of an inspected block', () => {
  // "custom-key: custom-header" twice, literal with incremental indexing (RFC 7541 C.2.1): an entry of
  // 10 + 13 + 32 = 55 octets. Two fit in 4,096 octets; in 64 the second evicts the first (RFC 7541 §4.4).
  const literal = '400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572';
  const block = `${literal} ${literal}`;

  function table(tableSize: number) {
    const recording = read({ text: block, format: 'hpack', tableSize });
    render(<HpackStepper recording={recording} cursor={recording.steps.length - 1} />);
    const dynamic = screen.getByTestId('hpack-dynamic-table');
    const out = {
      caption: dynamic.querySelector('caption')!.textContent,
      live: dynamic.querySelectorAll('[data-entry="live"]').length,
      evicted: dynamic.querySelectorAll('[data-entry="evicted"]').length,
    };
    cleanup();
    return out;
  }

  it('starts the table at the size the form gave, so a small table evicts', () => {
    expect(table(64)).toEqual({ caption: expect.stringContaining('55 of 64 octets, 1 entries'), live: 1, evicted: 1 });
    expect(table(4096)).toEqual({ caption: expect.stringContaining('110 of 4096 octets, 2 entries'), live: 2, evicted: 0 });
  });

  it('agrees with the decoder that read the block', () => {
    const r = inspect({ text: block, format: 'hpack', tableSize: 64 });
    expect(r.hpack?.table).toMatchObject({ size: 55, maxSize: 64 });
    const recording = r.recording!;
    render(<HpackStepper recording={recording} cursor={recording.steps.length - 1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show the table after representation 2' }));
    expect(screen.getByTestId('hpack-step-bytes').textContent).toContain('evicted 1 entry');
  });
});

describe('Frames view of an inspected input', () => {
  it('calls an empty GOAWAY debug field empty, not "bytes 17-16"', () => {
    // GOAWAY, stream 0: last stream 0, NO_ERROR, and no additional debug data (RFC 9113 §6.8).
    const recording = read({ text: '000008070000000000 00000000 00000000', format: 'h2', sender: 'server' });
    const { container } = render(<FrameInspector recording={recording} cursor={recording.steps.length - 1} />);
    const labels = [...container.querySelectorAll('.rt-fi-field')].map((b) => b.textContent ?? '');
    expect(labels.some((l) => /bytes 17–16/.test(l))).toBe(false);
    expect(labels.find((l) => /debug/i.test(l))).toMatch(/\(empty\)$/);
  });
});

/** A HAR 1.2 log of the given entries, each filled in around what the test sets. */
function har(entries: readonly Record<string, unknown>[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      pages: [],
      entries: entries.map((x, i) => {
        const {
          timings,
          response,
          httpVersion = 'HTTP/1.1',
          ...rest
        } = x as {
          timings: Record<string, number>;
          response?: Record<string, unknown>;
          httpVersion?: string;
        };
        const t = { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 1, wait: 10, receive: 2, ...timings };
        const time = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce((n, v) => n + Math.max(0, v!), 0);
        return {
          startedDateTime: new Date(Date.UTC(2026, 10, 28, 12, 0, 0, i * 200)).toISOString(),
          time,
          request: { method: 'GET', url: `http://127.0.0.1:8000/${i}`, httpVersion, cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion,
            cookies: [],
            headers: [],
            content: { size: 10, mimeType: 'text/plain' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
            ...response,
          },
          cache: {},
          timings: t,
          serverIPAddress: '127.0.0.1',
          ...rest,
        };
      }),
    },
  });
}

function waterfall(text: string) {
  const r = inspect({ text, format: 'har' });
  const recording = r.recording!;
  render(<WaterfallView recording={recording} cursor={recording.steps.length - 1} />);
  return { r, summary: screen.getByTestId('waterfall-summary').textContent ?? '' };
}

describe('Waterfall of an inspected HAR (#30 item 7)', () => {
  it('never shows or adds a size of -1: _transferSize, else content.size, else unknown', () => {
    const { summary } = waterfall(
      har([
        { timings: { connect: 1 }, response: { _transferSize: 300, headersSize: 100, bodySize: -1 } },
        { timings: {}, response: { content: { size: 50, mimeType: 'text/plain' } } },
        { timings: {}, response: { content: { mimeType: 'text/plain' } } },
        { timings: {}, response: { content: { size: -1, mimeType: 'text/plain' } } },
      ]),
    );
    expect(summary).toMatch(/^4 requests · 350 B transferred \(2 of unknown size left out\)/);
    expect(summary).not.toMatch(/-\d/);
    const sizes = screen
      .getAllByRole('row')
      .map((row) => row.querySelectorAll('td.rt-tl-num')[0]?.textContent)
      .filter(Boolean);
    expect(sizes).toEqual(['300 B', '50 B', '—', '—']);
  });

  it('opens a connection for every entry with connect time, even on the same address (four HTTP/1.0 requests)', () => {
    const entries = [0, 1, 2, 3].map(() => ({ httpVersion: 'HTTP/1.0', timings: { connect: 0.5 } }));
    const { r } = waterfall(har(entries));
    const opened = (r.recording!.sources[0]!.kind === 'wire' ? r.recording!.sources[0]!.events : []).filter((e) => e.type === 'connection-opening');
    expect(opened.map((e) => e.type === 'connection-opening' && e.connectionId)).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it("keys connections by address, the HAR's connection field and transport: h2 and h3 on one port are two", () => {
    // Firefox writes its local port in "connection": the same port for an HTTP/2 and an HTTP/3 entry.
    const { r } = waterfall(
      har([
        { httpVersion: 'HTTP/2', connection: '443', timings: { connect: 3 } },
        { httpVersion: 'HTTP/3', connection: '443', timings: { connect: 2 } },
        { httpVersion: 'HTTP/2', connection: '443', timings: { connect: -1 } },
        { httpVersion: 'HTTP/3', connection: '443', timings: { connect: -1 } },
      ]),
    );
    const dispatched = (r.recording!.sources[0]!.kind === 'wire' ? r.recording!.sources[0]!.events : []).filter((e) => e.type === 'request-dispatched');
    expect(dispatched.map((e) => e.type === 'request-dispatched' && e.connectionId)).toEqual(['c1', 'c2', 'c1', 'c2']);
  });

  it('draws DNS as its own phase, counted in the row time (126 ms without it, 136.5 with)', () => {
    waterfall(har([{ timings: { blocked: 0.5, dns: 10.5, connect: 5, send: 0.5, wait: 100, receive: 20 } }]));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toContain('DNS lookup');
    const dns = document.querySelector('.rt-tl-bar[data-phase="dns"]');
    expect(dns).not.toBeNull();
    const row = screen.getAllByRole('row').find((tr) => tr.querySelector('.rt-tl-bar'));
    expect(row?.textContent?.endsWith(formatMs(136.5))).toBe(true);
    expect(formatMs(136.5)).not.toBe(formatMs(126));
  });
});

describe('Waterfall of a big HAR: every entry listed, drawn in view only, filtered and sorted as in DevTools (#30 items 3, 14)', () => {
  // 500 entries: statuses cycle 200, 200, 404, 503, 304; types by media type; sizes 1,000 + 7i mod 500.
  const MIMES = ['text/html', 'text/css', 'text/javascript', 'application/json', 'image/png'];
  const entries = Array.from({ length: 500 }, (_, i) => ({
    timings: { wait: 10 + (i % 40) },
    response: { status: [200, 200, 404, 503, 304][i % 5], _transferSize: 1000 + ((7 * i) % 500), content: { size: 10, mimeType: MIMES[i % MIMES.length] } },
  }));
  const drawn = () => [...document.querySelectorAll<HTMLTableRowElement>('tbody tr[data-request-id]')];
  const paths = () => drawn().map((tr) => tr.querySelector('.rt-tl-name')!.textContent);

  it('lists all 500 in the count and the table (aria-rowcount) but puts only the rows in view in the DOM', async () => {
    const { summary } = waterfall(har(entries));
    expect(summary).toMatch(/^500 requests · /);
    const table = screen.getByRole('table', { name: /^Requests of/ });
    expect(table.getAttribute('aria-rowcount')).toBe('501');
    const first = drawn();
    expect(first.length).toBeGreaterThan(10);
    expect(first.length).toBeLessThan(100);
    expect(first[0]!.getAttribute('aria-rowindex')).toBe('2');
    // The rows out of view are stood in for, so the box scrolls as far as 500 rows would take.
    const spacer = document.querySelector<HTMLElement>('tr.rt-tl-spacer')!;
    expect(parseFloat(spacer.style.height)).toBe((500 - first.length) * 24);
    // Scrolled to row 300 (24 px a row until one is measured, which jsdom cannot): rows around it are drawn.
    const box = document.querySelector<HTMLElement>('.rt-tl-scroll-x')!;
    Object.defineProperty(box, 'scrollTop', { value: 24 * 300, configurable: true });
    fireEvent.scroll(box);
    await vi.waitFor(() => expect(drawn().some((tr) => tr.getAttribute('aria-rowindex') === '302')).toBe(true));
    expect(drawn().some((tr) => tr.getAttribute('aria-rowindex') === '2')).toBe(false);
  });

  it('filters by URL text, property, type and status class, and says "N of M requests"', () => {
    waterfall(har(entries));
    const summary = () => screen.getByTestId('waterfall-summary').textContent ?? '';
    const box = screen.getByRole('searchbox', { name: 'Filter requests' });
    // URLs are http://127.0.0.1:8000/<i>: "/49" is in /49 and /490-/499.
    fireEvent.change(box, { target: { value: '/49' } });
    expect(summary()).toMatch(/^11 of 500 requests · /);
    expect(paths()).toEqual(['/49', '/490', '/491', '/492', '/493', '/494', '/495', '/496', '/497', '/498', '/499']);
    fireEvent.change(box, { target: { value: '/49 -status-code:200' } });
    // Statuses cycle 200, 200, 404, 503, 304 with i mod 5: /49 is a 304.
    expect(paths()).toEqual(['/49', '/492', '/493', '/494', '/497', '/498', '/499']);
    fireEvent.change(box, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Img' }));
    expect(summary()).toMatch(/^100 of 500 requests/);
    expect(screen.getByRole('button', { name: 'Img' }).getAttribute('aria-pressed')).toBe('true');
    // Ctrl-click adds a type, as in DevTools.
    fireEvent.click(screen.getByRole('button', { name: 'CSS' }), { ctrlKey: true });
    expect(summary()).toMatch(/^200 of 500 requests/);
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: '5xx' } });
    expect(summary()).toMatch(/^100 of 500 requests/);
    expect(new Set(drawn().map((tr) => tr.querySelectorAll('td')[2]!.textContent))).toEqual(new Set(['503']));
    fireEvent.change(box, { target: { value: 'nothing-like-this' } });
    expect(screen.getByText('No request matches the filter.')).toBeTruthy();
  });

  it('sorts by a click on Size or Time, either way, and says so with aria-sort', () => {
    waterfall(har(entries));
    const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) }).closest('th')!;
    const sizes = () => drawn().map((tr) => tr.querySelectorAll('td.rt-tl-num')[0]!.textContent);
    fireEvent.click(screen.getByRole('button', { name: /^Size/ }));
    expect(header('Size').getAttribute('aria-sort')).toBe('ascending');
    // 1,000 + 7i mod 500: the smallest, 1,000 B, is entry 0 (and every 500th, only 0 here).
    expect(sizes()[0]).toBe(formatBytes(1000));
    fireEvent.click(screen.getByRole('button', { name: /^Size/ }));
    expect(header('Size').getAttribute('aria-sort')).toBe('descending');
    expect(sizes()[0]).toBe(formatBytes(1499));
    expect(formatBytes(1499)).not.toBe(formatBytes(1000));
    fireEvent.click(screen.getByRole('button', { name: /^Time/ }));
    expect(header('Size').hasAttribute('aria-sort')).toBe(false);
    const times = drawn().map((tr) => tr.querySelectorAll('td.rt-tl-num')[1]!.textContent);
    // wait 10 + i mod 40, plus send 1 and receive 2: the shortest take 13 ms.
    expect(times[0]).toBe(formatMs(13));
  });

  it('moves between requests with the arrow keys, End and Home, drawing the row it reaches', async () => {
    waterfall(har(entries));
    const name = (i: number) => document.querySelector<HTMLElement>(`tr[aria-rowindex="${i + 2}"] .rt-tl-name`);
    name(0)!.focus();
    fireEvent.keyDown(name(0)!, { key: 'ArrowDown' });
    await vi.waitFor(() => expect(document.activeElement).toBe(name(1)));
    fireEvent.keyDown(name(1)!, { key: 'End' });
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('/499'));
    expect(name(0)).toBeNull();
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('/0'));
  });
});
