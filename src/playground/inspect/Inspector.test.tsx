// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Blob as NodeBlob } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeShareState, encodeShareState } from '../share/codec';
import { formatShareHash, readShareHash } from '../share/hash';
import Inspector, { INSPECT_SHARE_ID, MAX_SHARE_CHARS, SAMPLE, storeOf } from './Inspector';
import { inspect } from './inspect';

beforeEach(() => {
  // jsdom has neither: the share codec streams a Blob through CompressionStream, and the views ask for reduced motion.
  vi.stubGlobal('Blob', NodeBlob);
  vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener: () => {}, removeEventListener: () => {} }));
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => setTimeout(() => f(performance.now()), 0));
  vi.stubGlobal('cancelAnimationFrame', (h: number) => clearTimeout(h));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/inspect/');
});

const box = () => screen.getByLabelText(/Paste bytes, text or a HAR/) as HTMLTextAreaElement;
/** How many steps the recording of `text` has (what the panel's slider spans). */
const stepsOf = (text: string) => inspect({ text }).recording!.steps.length;

describe('the placeholder sample', () => {
  it('is one whole exchange that both modes read without an error, a warning or leftover bytes', () => {
    const body = SAMPLE.slice(SAMPLE.lastIndexOf('\n\n') + 2);
    expect(SAMPLE).toContain(`Content-Length: ${new TextEncoder().encode(body).length}\n`);
    const result = inspect({ text: SAMPLE });
    expect(result.format).toBe('http1');
    expect(result.problems).toEqual([]);
    expect(result.verdicts).toHaveLength(4);
    for (const v of result.verdicts ?? []) {
      expect(v, `${v.from} ${v.strict ? 'strict' : 'lenient'}`).toMatchObject({ messages: 1, incomplete: false, tolerated: [] });
      expect(v.error).toBeUndefined();
    }
  });
});

describe('storeOf', () => {
  it('keeps every entry of a 5,380-entry HAR, past the 50,000-event cap of a playground run', () => {
    const entry = (i: number) => ({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
      time: 12,
      request: {
        method: 'GET',
        url: `https://example.com/item/${i}`,
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'Host', value: 'example.com' }],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'Content-Length', value: '2' }],
        cookies: [],
        content: { size: 2, mimeType: 'text/plain' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 2,
      },
      cache: {},
      timings: { blocked: 0, dns: -1, connect: -1, send: 1, wait: 10, receive: 1, ssl: -1 },
      serverIPAddress: '192.0.2.1',
      connection: '1',
    });
    const text = JSON.stringify({
      log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: Array.from({ length: 5380 }, (_, i) => entry(i)) },
    });
    const recording = inspect({ text }).recording!;
    const events = recording.sources.reduce((n, s) => n + s.events.length, 0);
    expect(events).toBeGreaterThan(50_000);
    const store = storeOf(recording);
    expect(store.dropped).toBe(0);
    expect(store.snapshot().steps).toHaveLength(events);
  }, 60_000);
});

describe('Inspector', () => {
  it('reads pasted HTTP/1 and shows both verdicts and an error where it is', async () => {
    render(<Inspector />);
    box().value = 'GET / HTTP/1.1\nHost: a\nBad Header: x\n\n';
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    // The first reading loads the views' code: on a busy machine that takes longer than findBy's default second.
    expect((await screen.findByTestId('inspect-problem', {}, { timeout: 15_000 })).textContent).toContain(
      "At line 3, column 4 (byte 28 of the client's bytes)",
    );
    expect(screen.getByTestId('inspect-result').dataset.format).toBe('http1');
    const rows = screen.getByTestId('inspect-verdicts').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.getAttribute('data-verdict'))).toEqual(['client-strict', 'client-lenient']);
  });

  it('opens each reading at its own last step, not at the step the reading before ended on', async () => {
    render(<Inspector />);
    // The slider's aria-valuetext says 'step 12 of 340, ...' (its value is sanitized by jsdom, so not read).
    // Queried again on every try: a new reading is a new panel.
    const atLast = (steps: number) =>
      vi.waitFor(() => expect(screen.getByRole('slider').getAttribute('aria-valuetext')).toMatch(new RegExp(`^step ${steps} of ${steps}\\b`)), {
        timeout: 15_000,
      });
    const first = 'GET /a HTTP/1.1\nHost: x\n\nHTTP/1.1 204 No Content\n\n';
    const second = `${first}GET /b HTTP/1.1\nHost: x\n\nHTTP/1.1 204 No Content\n\n`;
    expect(stepsOf(second)).toBeGreaterThan(stepsOf(first));
    box().value = first;
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    await atLast(stepsOf(first));
    box().value = second;
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    await atLast(stepsOf(second));
  }, 40_000);

  it('puts the input and the chosen format in a share link, and reads such a link on arrival', async () => {
    render(<Inspector />);
    box().value = '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d';
    fireEvent.change(screen.getByTestId('inspect-format'), { target: { value: 'hpack' } });
    fireEvent.click(screen.getByRole('button', { name: 'Share link' }));
    await screen.findByTestId('inspect-share');
    const shared = readShareHash(location.hash);
    expect(shared?.id).toBe(INSPECT_SHARE_ID);
    const decoded = await decodeShareState(shared!.encoded);
    expect(decoded.ok && decoded.state).toEqual({ code: box().value, options: { format: 'hpack' } });
    cleanup();

    render(<Inspector />);
    expect((await screen.findByTestId('inspect-fields')).textContent).toContain('www.example.com');
    expect(box().value).toBe('8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d');
    expect((screen.getByTestId('inspect-format') as HTMLSelectElement).value).toBe('hpack');
  });

  it('performs every press that woke it, in order: Inspect and then Share link pressed while its code loaded', async () => {
    const island = document.body.appendChild(document.createElement('astro-island'));
    island.dataset.wakeAction = 'inspect share';
    render(<Inspector />, { container: island });
    expect(island.dataset.wakeAction).toBeUndefined();
    await screen.findByTestId('inspect-share');
    expect(await screen.findByTestId('inspect-result', {}, { timeout: 15_000 })).toBeTruthy();
    island.remove();
  });

  it('shares a dropped file as its bytes: the link gives the same verdicts, CRs, bare LFs and all', async () => {
    // CRLF everywhere but one bare LF ending line 2 (which strict reading rejects), then two more pipelined
    // requests: a textarea turns each CRLF into LF, so a link made from the box read all of them as bare LFs.
    const crlf = 'GET /a HTTP/1.1\r\nHost: example.com\r\n\r\nGET /b HTTP/1.1\r\nHost: example.com\r\n\r\n';
    const files = {
      'bare-lf.txt': 'GET / HTTP/1.1\r\nHost: www.example.org:80\nAccept: */*\r\n\r\n',
      'pipelined.txt': `${crlf}GET /c HTTP/1.1\r\nHost: example.com\r\n\r\n`,
      'latin1.bin': 'GET / HTTP/1.1\r\nHost: example.com\r\nX-Note: caf\xe9\r\n\r\n',
    };
    const verdicts = () =>
      [...screen.getByTestId('inspect-verdicts').querySelectorAll('tbody tr')].map((r) => `${r.getAttribute('data-verdict')}: ${r.textContent}`);
    for (const [name, content] of Object.entries(files)) {
      // latin1.bin's é is the single byte 0xE9 (not UTF-8): it travels one character per byte.
      const bytes = Uint8Array.from(content, (c) => c.charCodeAt(0));
      const file = new File([bytes], name);
      Object.defineProperty(file, 'arrayBuffer', { value: async () => bytes.slice().buffer });
      render(<Inspector />);
      fireEvent.drop(box(), { dataTransfer: { files: [file] } });
      await screen.findByTestId('inspect-verdicts', {}, { timeout: 15_000 });
      const before = verdicts();
      fireEvent.click(screen.getByRole('button', { name: 'Share link' }));
      await screen.findByTestId('inspect-share');
      const decoded = await decodeShareState(readShareHash(location.hash)!.encoded);
      expect(decoded.ok && decoded.state.options).toEqual(name.endsWith('.bin') ? { file: name, encoding: 'latin1' } : { file: name });
      cleanup();

      render(<Inspector />);
      await screen.findByTestId('inspect-verdicts', {}, { timeout: 15_000 });
      expect(verdicts(), name).toEqual(before);
      if (name === 'bare-lf.txt') expect(before.join('\n')).toMatch(/line 2, column 25/);
      if (name === 'pipelined.txt') expect(before.join('\n')).toMatch(/3 whole messages read/);
      cleanup();
      history.replaceState(null, '', '/inspect/');
    }
  }, 60_000);

  it('reads a file dropped before it woke (kept by the page) and one dropped anywhere once awake, and says what a big file leaves out of the box', async () => {
    const file = (name: string, text: string) => {
      const bytes = new TextEncoder().encode(text);
      const f = new File([bytes], name);
      Object.defineProperty(f, 'arrayBuffer', { value: async () => bytes.slice().buffer });
      return f;
    };
    // What early-files.ts's inline script keeps for the island before it hydrates.
    (window as unknown as { __rtInspectFiles: { queue: File[][] } }).__rtInspectFiles = { queue: [[file('early.txt', 'GET / HTTP/1.1\r\nHost: a\r\n\r\n')]] };
    render(<Inspector />);
    expect((await screen.findByTestId('inspect-result', {}, { timeout: 15_000 })).textContent).toContain('from early.txt');
    expect(box().value).toContain('Host: a');
    // Awake: dropped on the page's body, not on the box; over 256 KiB its text stays out of the box, which says so.
    const big = `GET / HTTP/1.1\r\nHost: a\r\nX-Pad: ${'x'.repeat(300_000)}\r\n\r\n`;
    fireEvent.drop(document.body, { dataTransfer: { files: [file('big.txt', big), file('other.txt', 'x')] } });
    await vi.waitFor(() => expect(screen.getByTestId('inspect-result').textContent).toContain('from big.txt'), { timeout: 15_000 });
    expect(box().value).toBe('');
    expect(box().placeholder).toMatch(/^big\.txt \(300 KB\) is read as a file: its text is too long to show here \(over 262 KB\)/);
    expect(screen.getByTestId('inspect-left-out').textContent).toMatch(/2 files came together; .* only big\.txt was read\. Left out: other\.txt\./);
  });

  it('says a damaged share link is damaged instead of showing an empty page', async () => {
    const encoded = await encodeShareState({ code: 'GET / HTTP/1.1' });
    history.replaceState(null, '', formatShareHash({ id: INSPECT_SHARE_ID, encoded: encoded.slice(0, 12) }));
    render(<Inspector />);
    expect((await screen.findByTestId('inspect-problem')).textContent).toMatch(/damaged/);
  });

  it('refuses to make a link longer than it can carry, and says so', async () => {
    render(<Inspector />);
    let x = 88172645;
    box().value = Array.from({ length: MAX_SHARE_CHARS * 3 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return ((x >>> 0) & 15).toString(16);
    }).join('');
    fireEvent.click(screen.getByRole('button', { name: 'Share link' }));
    expect((await screen.findByTestId('inspect-share')).textContent).toMatch(
      /Too large to share: compressed, this input is [\d,]+ characters, over the 32,000/,
    );
    expect(location.hash).toBe('');
  });

  it('builds a replay link to the playground from a conversation', async () => {
    render(<Inspector />);
    box().value = 'GET /a HTTP/1.1\nHost: x\n\nHTTP/1.1 201 Created\nContent-Length: 2\n\nok';
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Replay in playground' }));
    const link = await screen.findByTestId('inspect-replay');
    const href = link.getAttribute('href')!;
    expect(href).toMatch(/^\/playground\/hello-wire\/#pg=hello-wire&s=/);
    const decoded = await decodeShareState(readShareHash(href.slice(href.indexOf('#')))!.encoded);
    expect(decoded.ok && decoded.state.code).toContain('"GET /a": [\n    { status: 201, headers: {}, body: "ok" }');
  });
});
