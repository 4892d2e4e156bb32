// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, createSimulation, http, parseHttp1 } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import { recordingOf } from '../frames/test-recording';
import { dissect, type Dissected } from './anatomy';
import MessageInspector, { connectionAt, Message } from './MessageInspector';

let good: Recording;
let bad: Recording;
const BROKEN = 'GET /todos HTTP/1.1\r\nHost : api.example\r\n\r\n';

beforeAll(async () => {
  const server = createServer({
    routes: [
      http.get('/todos', () => Response.json([{ id: 1, title: 'milk' }])),
      http.post('/todos', async (request) => Response.json(await request.json(), { status: 201 })),
      http.get('/stream', () => {
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode('hello '));
            c.enqueue(new TextEncoder().encode('world'));
            c.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      }),
    ],
  });
  const sim = createSimulation({ server, httpVersion: '1.1', seed: 2 });
  await sim.fetch('/todos');
  await sim.fetch('/todos', { method: 'POST', body: '{"title":"bread"}', headers: { 'content-type': 'application/json' } });
  await sim.fetch('/stream');
  await sim.fetch('/todos', { method: 'HEAD' });
  good = recordingOf([sim]);

  const sim2 = createSimulation({ server, httpVersion: '1.1', seed: 1 });
  const socket = sim2.connect('api.example:80');
  socket.write(new TextEncoder().encode(BROKEN));
  await sim2.advance(1000);
  bad = recordingOf([sim2]);
});

afterEach(cleanup);

const end = (r: Recording) => r.steps.length - 1;
const conn = (r: Recording) => ({ key: 'sim-1/c1', source: r.sources[0] as never, connectionId: 'c1' });

function expectExactCover(messages: readonly Dissected[], length: number) {
  let at = 0;
  for (const m of messages) {
    expect(m.start).toBe(at);
    for (const p of m.parts) {
      expect(p.start, p.label).toBe(at);
      expect(p.end, p.label).toBeGreaterThan(p.start);
      at = p.end;
    }
    expect(m.end).toBe(at);
  }
  expect(at).toBe(length);
}

describe('message anatomy', () => {
  it('labels cover every byte of both directions exactly once', () => {
    const { client, server } = connectionAt(good, conn(good), end(good));
    expect(client.messages.map((m) => m.kind)).toEqual(['request', 'request', 'request', 'request']);
    expect(server.messages.map((m) => m.kind)).toEqual(['response', 'response', 'response', 'response']);
    expectExactCover(client.messages, client.bytes.length);
    expectExactCover(server.messages, server.bytes.length);
  });

  it('names the parts as the engine reads them: fields, bodies and chunks match parseHttp1', () => {
    const { client, server } = connectionAt(good, conn(good), end(good));
    const requests = parseHttp1(client.bytes, { role: 'server' }).messages;
    const text = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
    client.messages.forEach((m, i) => {
      const req = requests[i]! as { method: string; target: string; headers: { name: string; value: string }[]; body: Uint8Array };
      const of = (kind: string) => m.parts.filter((p) => p.kind === kind).map((p) => text(client.bytes, p.start, p.end));
      expect(of('method')).toEqual([req.method]);
      expect(of('target')).toEqual([req.target]);
      expect(of('field-name')).toEqual(req.headers.map((h) => h.name));
      expect(of('field-value')).toEqual(req.headers.map((h) => h.value).filter((v) => v !== ''));
      expect(of('body').join('')).toBe(new TextDecoder().decode(req.body));
      expect(of('empty-line')).toEqual(['\r\n']);
    });
    // Responses need the request methods (the HEAD response has no body); chunked bodies are cut into chunks.
    const responses = parseHttp1(server.bytes, { role: 'client' });
    expect(responses.error).toBeDefined(); // without the methods, the HEAD response's headers promise a body
    expect(server.messages.some((m) => m.parts.some((p) => p.kind === 'chunk-size'))).toBe(false);
    expect(server.messages[3]!.parts.some((p) => p.kind === 'body')).toBe(false);
    expect(server.messages[3]!.parts.find((p) => p.kind === 'field-name' && /content-length/i.test(p.label))).toBeDefined();
  });

  it('cuts a chunked body into sizes, extensions, data and trailers, as the engine reads it', () => {
    const wire =
      'POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n' + '5;name=x\r\nhello\r\n6\r\n world\r\n0\r\nDigest: sha-256=abc\r\n\r\n';
    const bytes = Uint8Array.from(wire, (c) => c.charCodeAt(0));
    const messages = dissect(bytes, 'request');
    expectExactCover(messages, bytes.length);
    const engine = parseHttp1(wire, { role: 'server' }).messages[0]!;
    const text = (p: { start: number; end: number }) => wire.slice(p.start, p.end);
    const parts = messages[0]!.parts;
    expect(
      parts
        .filter((p) => p.kind === 'chunk-data')
        .map(text)
        .join(''),
    ).toBe(new TextDecoder().decode(engine.body));
    expect(parts.filter((p) => p.kind === 'chunk-size').map(text)).toEqual(['5', '6']);
    expect(parts.filter((p) => p.kind === 'chunk-ext').map(text)).toEqual([';name=x']);
    expect(parts.filter((p) => p.kind === 'last-chunk').map(text)).toEqual(['0']);
    expect(parts.filter((p) => p.kind === 'field-name' && p.label.startsWith('Trailer')).map(text)).toEqual(engine.trailers!.map((t) => t.name));
    expect(parts.filter((p) => p.kind === 'empty-line')).toHaveLength(2);
  });

  it('a message the engine rejects points at the byte of the engine’s error', () => {
    const { client } = connectionAt(bad, conn(bad), end(bad));
    const engine = parseHttp1(BROKEN, { role: 'server' }).error!;
    expect(engine.code).toBe('whitespace-before-colon');
    const [m] = client.messages;
    expect(m!.kind).toBe('error');
    expect(m!.error).toMatchObject({ code: engine.code, offset: engine.offset, line: engine.line, column: engine.column, message: engine.message });
    const byte = m!.parts.find((p) => p.kind === 'error-byte')!;
    expect([byte.start, byte.end]).toEqual([engine.offset, engine.offset + 1]);
    expect(BROKEN[byte.start]).toBe(' ');
    expectExactCover(client.messages, BROKEN.length);
  });

  it('a message still arriving is incomplete, not an error, until the sender closes', () => {
    const bytes = Uint8Array.from('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc', (c) => c.charCodeAt(0));
    const open = dissect(bytes, 'request');
    expect(open.map((m) => m.kind)).toEqual(['incomplete']);
    expectExactCover(open, bytes.length);
    const closed = dissect(bytes, 'request', { eof: true });
    expect(closed.map((m) => m.kind)).toEqual(['error']);
    expect(closed[0]!.error!.code).toBe('incomplete-message');
  });
});

describe('MessageInspector', () => {
  it('shows the engine’s error with the offending byte highlighted', () => {
    render(<MessageInspector recording={bad} cursor={end(bad)} />);
    const engine = parseHttp1(BROKEN, { role: 'server' }).error!;
    const mark = document.querySelector('mark[data-kind="error-byte"]')!;
    expect(Number(mark.getAttribute('data-start'))).toBe(engine.offset);
    expect(screen.getByText(engine.message, { exact: false, selector: '.rt-mi-errmsg' })).toBeDefined();
    expect(screen.getByText(/line 2, column 5/)).toBeDefined();
    // The server's 400 is there too, labelled like any response, its text/plain body readable (the "§" of the
    // RFC reference as the character, not as bytes).
    const server = screen.getByRole('region', { name: 'Server → client' });
    expect(within(server).getByText(/Status code: 400/)).toBeDefined();
    expect(within(server).getByText(engine.message, { exact: false, selector: '[data-kind="body"]' })).toBeDefined();
  });

  it('hovering or focusing a part highlights it in the raw text and the legend', () => {
    render(<MessageInspector recording={good} cursor={end(good)} />);
    const client = screen.getByRole('region', { name: 'Client → server' });
    const second = client.querySelectorAll('figure')[1]!;
    const value = within(second).getByRole('button', { name: /Header field value \(content-type\)/i });
    fireEvent.focus(value);
    const part = value.getAttribute('data-part');
    const lit = [...second.querySelectorAll('.rt-mi-raw .is-selected')];
    expect(lit).toHaveLength(1);
    expect(lit[0]!.getAttribute('data-part')).toBe(part);
    expect(lit[0]!.textContent).toBe('application/json');
    const method = second.querySelector('.rt-mi-raw [data-kind="method"]')!;
    fireEvent.mouseEnter(method);
    expect(
      within(second)
        .getByRole('button', { name: /Method: POST/ })
        .getAttribute('aria-current'),
    ).toBe('true');
  });

  it('marks the message the step at the cursor wrote', () => {
    const source = good.sources[0]!;
    const steps = good.steps
      .map((s, i) => [s, i] as const)
      .filter(([s]) => {
        const e = source.events[s.index]!;
        return 'type' in e && e.type === 'bytes-sent' && e.from === 'client';
      });
    const [, second] = steps[1]!;
    render(<MessageInspector recording={good} cursor={second} />);
    const client = screen.getByRole('region', { name: 'Client → server' });
    const figures = client.querySelectorAll('figure');
    expect(figures).toHaveLength(2);
    expect(figures[1]!.getAttribute('aria-current')).toBe('step');
    expect(figures[0]!.getAttribute('aria-current')).toBeNull();
  });
});

describe('message bodies', () => {
  const response = (type: string | undefined, body: Uint8Array) => {
    const head = `HTTP/1.1 200 OK\r\n${type ? `Content-Type: ${type}\r\n` : ''}Content-Length: ${body.length}\r\n\r\n`;
    const bytes = new Uint8Array([...new TextEncoder().encode(head), ...body]);
    const [message] = dissect(bytes, 'response', { eof: true, requests: [{ method: 'GET' }] });
    render(<Message message={message!} bytes={bytes} current={false} />);
    return document.querySelector('[data-kind="body"]')!.textContent;
  };
  const text = new TextEncoder().encode('§ 3 — naïve\tcafé\r\n');

  it('shows a UTF-8 text body as its characters, as DevTools does, with controls still escaped', () => {
    expect(response('text/plain;charset=UTF-8', text)).toBe('§ 3 — naïve\\tcafé\\r\\n\n');
    cleanup();
    expect(response('application/problem+json', new TextEncoder().encode('{"title":"Zürich"}'))).toBe('{"title":"Zürich"}');
  });

  it('shows bytes for binary types, other charsets, no type, and text that is not valid UTF-8', () => {
    expect(response('application/octet-stream', text)).toMatch(/^\\xc2\\xa7 3 \\xe2\\x80\\x94 na\\xc3\\xafve/);
    cleanup();
    expect(response('text/plain; charset=iso-8859-1', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe('caf\\xe9');
    cleanup();
    expect(response(undefined, text)).toMatch(/^\\xc2\\xa7/);
    cleanup();
    expect(response('text/plain', new Uint8Array([0x61, 0xff, 0x62]))).toBe('a\\xffb');
  });

  it('leaves out a character cut in half where a long body stops being shown', () => {
    // 1,023 ASCII bytes, then a 2-byte character across the 1,024-byte display limit.
    const long = new Uint8Array([...new TextEncoder().encode('a'.repeat(1023)), 0xc3, 0xa9, ...new TextEncoder().encode('b'.repeat(100))]);
    const shown = response('text/plain; charset=utf-8', long)!;
    expect(shown.startsWith('a'.repeat(1023))).toBe(true);
    expect(shown).not.toContain('\\x');
    expect(shown).toMatch(/… 101 more bytes$/);
  });
});

describe('HTTP/0.9', () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it('dissects a one-line request and a bare-body response, which has no status line to label', () => {
    const [request] = dissect(enc('GET /hello\r\n'), 'request');
    expect(request).toMatchObject({ kind: 'request', method: 'GET', version: '0.9' });
    expect(request!.parts.map((p) => p.kind)).toEqual(['method', 'sp', 'target', 'crlf']);

    for (const eof of [true, false]) {
      const body = enc('<html>Hello</html>\n');
      const [response, ...rest] = dissect(body, 'response', { eof, requests: [{ method: 'GET', version: '0.9' }] });
      expect(rest).toEqual([]);
      expect(response!.kind).toBe(eof ? 'response' : 'incomplete');
      expect(response!.title).toMatch(/HTTP\/0\.9 response/);
      expect(response!.parts).toEqual([expect.objectContaining({ start: 0, end: body.length, kind: 'body' })]);
      render(<Message message={response!} bytes={body} current={false} />);
      expect(document.querySelector('[data-kind="body"]')?.textContent).toContain('<html>Hello</html>');
      cleanup();
    }
  });
});
