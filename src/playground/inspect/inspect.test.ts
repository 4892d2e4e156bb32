import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureKind, detect } from './detect';
import { parseHex } from './hex';
import { directions, splitConversation } from './http1';
import { Http1Reader } from 'roundtrip/wire';
import { inspect } from './inspect';
import { parseCurl } from './curl';
import { parseTrace } from './trace';
import { readHar } from './har';
import { replaySnippet } from './replay';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const events = (r: ReturnType<typeof inspect>) => (r.recording?.sources[0]?.kind === 'wire' ? r.recording.sources[0].events : []);
// What a browser text box hands over: CR LF becomes LF.
const pasted = (text: string) => text.replace(/\r\n/g, '\n');
const strictOf = (r: ReturnType<typeof inspect>) =>
  r.verdicts!.filter((v) => v.strict).map((v) => [v.from, v.messages, v.incomplete, v.bodiesLeftOut ?? 0, v.error?.code]);

describe('hex dumps', () => {
  const stream = fixture('h2-server.hexstream.txt');
  const expected = parseHex(stream);

  it('reads od -x words little-endian, cut to the length on its last line', () => {
    const od = parseHex(fixture('h2-server.od.txt'));
    expect(expected.ok && od.ok).toBe(true);
    if (!expected.ok || !od.ok) return;
    expect(od.form).toBe('od');
    expect(od.bytes.length).toBe(375); // 0567 octal, the odd final byte without od's padding
    expect([...od.bytes]).toEqual([...expected.bytes]);
  });

  it('reads xxd lines and checks their offsets', () => {
    const xxd = parseHex(fixture('h2-client.xxd.txt'));
    const raw = parseHex(fixture('h2-client.hexstream.txt'));
    expect(xxd.ok && raw.ok && xxd.form === 'xxd' && [...xxd.bytes]).toEqual(raw.ok && [...raw.bytes]);
    const edited = fixture('h2-client.xxd.txt').split('\n');
    edited.splice(2, 1);
    const broken = parseHex(edited.join('\n'));
    expect(broken).toMatchObject({ ok: false, line: 3 });
    expect(!broken.ok && broken.message).toMatch(/starts at byte 48 \(0x00000030\), but 32 bytes \(0x00000020\) came before/);
  });

  it('locates every one-character typo in an xxd dump, or the byte it changed reads the same', () => {
    const text = fixture('h2-client.xxd.txt');
    const original = parseHex(text);
    if (!original.ok) throw new Error(original.message);
    const lines = text.split('\n');
    // A byte xxd prints as "." (unprintable, or "." itself) stays "." when a typo turns it into another such
    // byte: those alone cannot be told from the dump.
    const unprintable = (b: number) => b < 0x20 || b >= 0x7f || b === 0x2e;
    let located = 0;
    for (let l = 0; l < 3; l++) {
      for (let c = 0; c < lines[l]!.length; c++) {
        for (const typo of ['g', '0', 'f', 'A', ' ', '']) {
          const edited = [...lines];
          edited[l] = lines[l]!.slice(0, c) + typo + lines[l]!.slice(c + 1);
          if (edited[l] === lines[l]) continue;
          const got = parseHex(edited.join('\n'));
          if (got.ok) {
            const changed = [...got.bytes].some((b, i) => b !== original.bytes[i] && !(unprintable(b) && unprintable(original.bytes[i]!)));
            expect(changed || got.bytes.length !== original.bytes.length, `${l + 1}:${c + 1} ${JSON.stringify(typo)} read without an error`).toBe(false);
            continue;
          }
          located++;
          expect(got.line, `${l + 1}:${c + 1} ${typo}: ${got.message}`).toBe(l + 1);
          // At the typo, or at the hex digits of the byte whose character (named by its column) disagrees.
          const named = /column (\d+)\) shows/.exec(got.message);
          const near = Math.min(Math.abs(got.column - (c + 1)), named ? Math.abs(Number(named[1]) - (c + 1)) : Infinity);
          expect(near, `${l + 1}:${c + 1} ${JSON.stringify(typo)}: ${got.column} ${got.message}`).toBeLessThanOrEqual(3);
        }
      }
    }
    expect(located).toBeGreaterThan(600);
    // Saved to a file and opened, the dump is read as the bytes it writes, not as its text.
    const opened = inspect({ text, bytes: new TextEncoder().encode(text) });
    expect(opened.problems).toEqual([]);
    expect(opened.h2).toMatchObject({ sender: 'client', preface: true, blocks: 2 });
    // Pasted, the dump is still taken for xxd (its character column is not hex) and the typo is named.
    const pastedTypo = inspect({ text: text.replace('00000010: 0d0a 534d', '00000010: 0d0a 544d') });
    expect(pastedTypo.problems[0]).toMatchObject({ where: 'line 2, column 16', message: expect.stringMatching(/shows "S"/) });
    const typo = parseHex(text.replace('00000010: 0d0a 534d', '00000010: 0d0a 544d'));
    expect(typo).toMatchObject({
      ok: false,
      line: 2,
      column: 16,
      message: expect.stringMatching(/byte 18 is 0x54 \("T"\), but the character column beside it \(column 54\) shows "S"/),
    });
  });

  it('points at the first character that is not hex', () => {
    expect(parseHex('00 0c 04\n00 zz')).toMatchObject({ ok: false, line: 2, column: 4 });
    expect(parseHex('abc')).toMatchObject({ ok: false, message: expect.stringMatching(/odd number/) });
  });
});

describe('detection', () => {
  it('tells each captured format apart', () => {
    expect(detect(fixture('curl-v.txt')).format).toBe('curl');
    expect(detect(fixture('http1-conversation.txt')).format).toBe('http1');
    expect(detect(fixture('h2-client.xxd.txt')).format).toBe('h2');
    expect(detect(fixture('h2-server.od.txt')).format).toBe('h2');
    expect(detect(fixture('chromium.har')).format).toBe('har');
    expect(detect('82 86 84 41 0f 77 77 77 2e 65 78 61 6d 70 6c 65 2e 63 6f 6d').format).toBe('hpack');
  });

  it('names pcap and pcapng files by their magic number, dropped or linked (latin1)', () => {
    // The 24-byte global headers tcpdump -i lo -w wrote on x86 (little-endian), without and with
    // --time-stamp-precision=nano: version 2.4, snaplen 262144, link type 1 (Ethernet).
    const bytesOf = (hex: string) => Uint8Array.from(hex.match(/../g)!, (h) => Number.parseInt(h, 16));
    const micro = bytesOf('d4c3b2a10200040000000000000000000000040001000000');
    const nano = bytesOf('4d3cb2a10200040000000000000000000000040001000000');
    const asText = (b: Uint8Array) => new TextDecoder().decode(b);
    expect(captureKind(micro)).toEqual({ kind: 'pcap', littleEndian: true, nanoseconds: false });
    expect(captureKind(nano)).toEqual({ kind: 'pcap', littleEndian: true, nanoseconds: true });
    expect(captureKind(bytesOf('a1b2c3d4'))).toEqual({ kind: 'pcap', littleEndian: false, nanoseconds: false });
    expect(captureKind(bytesOf('a1b23c4d'))).toEqual({ kind: 'pcap', littleEndian: false, nanoseconds: true });
    expect(captureKind(bytesOf('0a0d0d0a1c0000004d3c2b1a'))).toEqual({ kind: 'pcapng' });
    expect(captureKind(bytesOf('0a0d0d'))).toBeNull();
    expect(captureKind(new TextEncoder().encode('GET / HTTP/1.1'))).toBeNull();
    const dropped = detect(asText(micro), micro);
    expect(dropped.format).toBe('pcap');
    expect(dropped.reason).toMatch(/pcap magic number, little-endian, microsecond/);
    expect(detect(String.fromCharCode(...nano)).format).toBe('pcap');
    expect(inspect({ text: asText(micro), bytes: micro }).format).toBe('pcap');
  });

  it('says what to do with nghttp -v logs, which hold no bytes', () => {
    const d = detect(fixture('nghttp-nv.txt'));
    expect(d.format).toBeNull();
    expect(d.reason).toMatch(/nghttp --har/);
    const r = inspect({ text: fixture('nghttp-nv.txt') });
    expect(r.problems[0]?.message).toMatch(/without their bytes/);
  });
});

describe('HTTP/1', () => {
  it('splits a captured conversation into both sides and reads every message', () => {
    const r = inspect({ text: pasted(fixture('http1-conversation.txt')) });
    expect(r.format).toBe('http1');
    expect(r.problems).toEqual([]);
    // One write per message, as the Sequence view draws them: the two pipelined requests, then both answers.
    const sent = events(r).filter((e) => e.type === 'bytes-sent');
    expect(sent.map((e) => e.type === 'bytes-sent' && `${e.from}: ${e.data.slice(0, e.data.indexOf('\r'))}`)).toEqual([
      'client: GET /todos/1 HTTP/1.1',
      'client: GET /notes/1 HTTP/1.1',
      'server: HTTP/1.1 200 OK',
      'server: HTTP/1.1 404 Not Found',
    ]);
    const strict = r.verdicts!.filter((v) => v.strict);
    expect(strict.map((v) => [v.from, v.messages, v.error?.code])).toEqual([
      ['client', 2, undefined],
      ['server', 2, undefined],
    ]);
    // The connection table ran: the client went to DONE after its first request.
    expect(events(r).some((e) => e.type === 'transition' && e.machine === 'http1-server' && e.to === 'client:DONE')).toBe(true);
    expect(r.replay!.exchanges.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(['GET /todos/1 200', 'GET /notes/1 404']);
  });

  it('locates an error by line and column, strictly, and says what lenient mode lets through', () => {
    const r = inspect({ text: 'GET / HTTP/1.1\nHost: a\nBad Header: x\n\n', restoreCrlf: true });
    expect(r.problems[0]?.where).toBe("line 3, column 4 (byte 28 of the client's bytes)");
    const lf = inspect({ text: 'GET / HTTP/1.1\nHost: a\n\n', restoreCrlf: false });
    const [strict, lenient] = lf.verdicts!;
    expect(strict?.error?.code).toBe('bare-lf');
    expect(lenient?.error).toBeUndefined();
    expect(lenient?.tolerated.map((t) => t.code)).toContain('bare-lf');
  });
});

describe('HTTP/1 pasted with a chunked body (LF only)', () => {
  // As python's http.server and curl exchanged it, after a text box dropped every CR.
  const exchange = [
    'GET /stream HTTP/1.1',
    'Host: 127.0.0.1:8000',
    '',
    'HTTP/1.1 200 OK',
    'Transfer-Encoding: chunked',
    'Trailer: Server-Timing',
    '',
    '5;note=first',
    'hello',
    '7',
    ', world',
    '0',
    'Server-Timing: total;dur=12',
    '',
    'GET /next HTTP/1.1',
    'Host: 127.0.0.1:8000',
    '',
    '',
  ].join('\n');

  it('restores CR LF on chunk-size lines, after chunk data and in trailers, and says so', () => {
    const r = inspect({ text: exchange, format: 'http1' });
    expect(r.problems).toEqual([]);
    const strict = r.verdicts!.filter((v) => v.strict);
    expect(strict.map((v) => [v.from, v.messages, v.error?.code, v.incomplete])).toEqual([
      ['client', 2, undefined, false],
      ['server', 1, undefined, false],
    ]);
    // 3 heads; 3 chunk-size lines, 2 data terminators, 1 trailer line and the final empty line.
    expect(r.notes.some((n) => /^Line endings were LF; read as CR LF in 3 message heads and 7 chunked framing lines/.test(n))).toBe(true);
    const body = events(r).find((e) => e.type === 'bytes-sent' && e.from === 'server');
    expect(body?.type === 'bytes-sent' && body.data.endsWith('\r\n\r\n5;note=first\r\nhello\r\n7\r\n, world\r\n0\r\nServer-Timing: total;dur=12\r\n\r\n')).toBe(
      true,
    );
  });

  it('reads the restored bytes strictly when fed one byte at a time', () => {
    const server = directions(splitConversation(new TextEncoder().encode(exchange), true)).server;
    const reader = new Http1Reader('response', { strict: true, maxBodyBytes: Infinity });
    const data: string[] = [];
    const seen: string[] = [];
    for (const b of server) {
      reader.feed(Uint8Array.of(b));
      for (let ev = reader.next({ method: 'GET' }); ev.type !== 'need-data'; ev = reader.next({ method: 'GET' })) {
        seen.push(ev.type);
        if (ev.type === 'data') data.push(new TextDecoder().decode(ev.data));
        if (ev.type === 'error') throw new Error(ev.error.message);
      }
    }
    expect(data.join('')).toBe('hello, world');
    expect(seen.at(-1)).toBe('end-of-message');
  });

  it('leaves chunk data as pasted and stops restoring where the framing breaks, so the reader points there', () => {
    const r = inspect({ text: 'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n\n', format: 'http1' });
    const strict = r.verdicts!.find((v) => v.strict);
    // Lines 4-5 (the first chunk) were restored; the fault is reported on line 6, where "zz" is no chunk size.
    expect(strict?.error?.line).toBe(6);
    expect(r.notes.some((n) => /1 message head and 2 chunked framing lines/.test(n))).toBe(true);
  });

  it('says nothing was assumed when the text already has CR LF', () => {
    const r = inspect({ text: exchange.replace(/\n/g, '\r\n'), format: 'http1' });
    expect(r.problems).toEqual([]);
    expect(r.notes.some((n) => n.startsWith('Line endings were LF'))).toBe(false);
  });
});

describe('curl -v', () => {
  it('rebuilds both heads and finds the body curl wrote to standard output', () => {
    const t = parseCurl(fixture('curl-v.txt'));
    expect(t.segments.map((s) => s.from)).toEqual(['client', 'server']);
    expect(t.segments[0]!.text).toBe('GET /todos/1 HTTP/1.1\r\nHost: 127.0.0.1:33177\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n');
    expect(t.segments[1]!.text.endsWith('\r\n\r\n{"id":"1","title":"Read RFC 9110 §9 (methods)","done":true}')).toBe(true);
    const r = inspect({ text: fixture('curl-v.txt') });
    expect(r.verdicts!.filter((v) => v.strict).map((v) => [v.messages, v.incomplete, v.error])).toEqual([
      [1, false, undefined],
      [1, false, undefined],
    ]);
  });

  // Both captured here against npm run serve on loopback with curl 7.88.1: `curl -sv --http2-prior-knowledge
  // http://127.0.0.1:4471/todos/1` and `curl -sv --http2 http://127.0.0.1:4471/todos/1`.
  it('reads curl -v over HTTP/2 (prior knowledge) as fields, pseudo-header fields first', () => {
    const text = fixture('curl-h2-prior-knowledge.txt');
    expect(detect(text).format).toBe('curl');
    const r = inspect({ text });
    expect(r.problems).toEqual([]);
    // The HTTP/1 reader would reject "GET /todos/1 HTTP/2": it is not run on curl's rendering of frames.
    expect(r.verdicts).toBeUndefined();
    expect(r.curl?.version).toBe('HTTP/2');
    const [request, response] = r.curl!.messages;
    expect(request).toMatchObject({ from: 'client', version: 'HTTP/2', method: 'GET', path: '/todos/1', streamId: 1 });
    expect(request!.fields.map((f) => `${f.name}: ${f.value}`)).toEqual([
      ':method: GET',
      ':path: /todos/1',
      ':scheme: http',
      ':authority: 127.0.0.1:4471',
      'user-agent: curl/7.88.1',
      'accept: */*',
    ]);
    expect(response).toMatchObject({ from: 'server', version: 'HTTP/2', status: 200 });
    expect(response!.fields.slice(0, 1)).toEqual([{ name: ':status', value: '200' }]);
    expect(response!.fields.map((f) => f.name)).toContain('content-type');
    expect(r.notes.join(' ')).toMatch(/not bytes on the wire/);
    expect(r.replay!.exchanges[0]).toMatchObject({ method: 'GET', path: '/todos/1', status: 200, responseBody: expect.stringContaining('"id":"1"') });
  });

  it("reads curl 8's [HTTP/2] field lists, and works the fields out when curl listed none", () => {
    // curl 8 prints the list as lib/http2.c formats it; rewritten from the 7.88 capture, as no curl 8 is
    // installed here.
    const v788 = fixture('curl-h2-prior-knowledge.txt');
    const v8 = v788
      .replace(/^\* h2h3 \[:method: GET\]$/m, '* [HTTP/2] [1] OPENED stream for http://127.0.0.1:4471/todos/1\n* [HTTP/2] [1] [:method: GET]')
      .replace(/^\* h2h3 /gm, '* [HTTP/2] [1] ')
      .replace(/^\* Using Stream ID.*\n/m, '');
    expect(v8).toContain('* [HTTP/2] [1] [:authority: 127.0.0.1:4471]');
    const t = parseCurl(v8);
    expect(t.listed).toEqual([{ streamId: 1, fields: parseCurl(v788).listed[0]!.fields }]);
    const bare = inspect({ text: v788.replace(/^\* (h2h3|Using).*\n/gm, '') });
    expect(bare.curl!.messages[0]!.fields.map((f) => f.name)).toEqual([':method', ':path', ':authority', 'user-agent', 'accept']);
    expect(bare.notes.join(' ')).toMatch(/worked out from its "> " lines/);
  });

  it('says when the server did not take curl --http2 up on its offer to switch', () => {
    const r = inspect({ text: fixture('curl-http2-upgrade.txt') });
    expect(r.format).toBe('curl');
    expect(r.curl).toBeUndefined();
    expect(r.verdicts!.filter((v) => v.strict).map((v) => [v.from, v.messages, v.error])).toEqual([
      ['client', 1, undefined],
      ['server', 1, undefined],
    ]);
    expect(r.notes.join(' ')).toMatch(/Upgrade: h2c.*answered in HTTP\/1\.1/);
  });

  it('says when curl left a request body out', () => {
    const r = inspect({ text: fixture('curl-v-put.txt') });
    expect(r.notes.join(' ')).toMatch(/request body of 19 bytes/);
  });

  // Captured here with curl 7.88.1 against python's http.server (HTTP/1.0, a 157-byte index.html, a chunked
  // /chunked and a POST handler answering "got <body>\n") on 127.0.0.1:18400:
  //   curl -v URL/ >/dev/null 2>curl-v-meter.txt        (progress meter on standard error)
  //   curl -v URL/ >curl-v-both.txt 2>&1                 (meter, and the body after curl's remarks)
  //   curl -sv URL/chunked >/dev/null 2>curl-sv-chunked.txt, and with 2>&1 into curl-sv-chunked-both.txt
  //   curl -v -d abc URL/post >curl-v-post.txt 2>&1
  //   curl -sv -o /dev/null -H 'If-Modified-Since: ...' URL/ 2>curl-sv-304.txt
  // curl -kv against nghttpd with a self-signed certificate on 127.0.0.1:18402, over h2 and (which nghttpd does
  // not speak) HTTP/1.1: curl marks every TLS record too ("} [5 bytes data]", "{ [57 bytes data]").
  it('does not count the TLS records curl marks as bodies', () => {
    const h2 = parseCurl(fixture('curl-v-tls-h2.txt'));
    expect(h2.segments.map((x) => [x.from, x.marked])).toEqual([
      ['client', 0],
      ['server', 157],
    ]);
    const r = inspect({ text: fixture('curl-v-tls-h2.txt') });
    expect(r.problems).toEqual([]);
    expect(r.replay!.exchanges[0]).toMatchObject({ method: 'GET', path: '/index.html', status: 200 });
    // Over HTTP/1.1 nghttpd closed the connection: a request, no response, and nothing marked as its body.
    const h1 = parseCurl(fixture('curl-v-tls-h1.txt'));
    expect(h1.segments.map((x) => [x.from, x.marked])).toEqual([['client', 0]]);
    const none = inspect({ text: fixture('curl-v-tls-h1.txt') });
    expect(strictOf(none)).toEqual([['client', 1, false, 0, undefined]]);
    expect(none.replay!.exchanges[0]).toMatchObject({ status: 502, responseBody: 'The capture holds no response to this request.' });
    expect(none.notes).toContain('curl ended with error 52: Empty reply from server.');
  });

  // curl -siv URL/hi.txt >curl-siv.txt 2>&1: the head again on standard output (-i), then the 6-byte body.
  it('sets aside the copy of the head curl -i writes before the body', () => {
    for (const text of [fixture('curl-siv.txt'), pasted(fixture('curl-siv.txt'))]) {
      const r = inspect({ text });
      expect(strictOf(r)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      expect(r.notes.join(' ')).toMatch(/curl -i wrote each response head to standard output as well/);
      expect(r.replay!.exchanges[0]).toMatchObject({ status: 200, responseBody: 'hello\n' });
    }
  });

  for (const form of ['file', 'pasted'] as const) {
    const read = (name: string) => inspect({ text: form === 'file' ? fixture(name) : pasted(fixture(name)) });

    it(`sets the progress meter aside and reads a head whose body curl left out as whole (${form})`, () => {
      const r = read('curl-v-meter.txt');
      expect(r.format).toBe('curl');
      expect(r.problems).toEqual([]);
      expect(strictOf(r)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 1, undefined],
      ]);
      const notes = r.notes.join('\n');
      expect(notes).toMatch(/The 200 response's body is not in curl's log: Content-Length says 157 bytes .*marker counted 157 bytes received/);
      expect(notes).toMatch(/progress meter .* last row: "100 {3}157 {2}100 {3}157 /);
      // The meter's first row shares its line with "*   Trying": the remark is kept, the row is not.
      expect(notes).toMatch(/remarks: {3}Trying 127\.0\.0\.1:18400\.\.\. \//);
      const responses = parseCurl(fixture('curl-v-meter.txt')).segments.filter((x) => x.from === 'server');
      expect(responses.map((x) => [x.body, x.marked, x.head.endsWith('\r\n\r\n')])).toEqual([[undefined, 157, true]]);
    });

    it(`reads a -sv chunked response as a head, and a body printed de-chunked as text, not wire bytes (${form})`, () => {
      for (const name of ['curl-sv-chunked.txt', 'curl-sv-chunked-both.txt']) {
        const r = read(name);
        expect(strictOf(r)).toEqual([
          ['client', 1, false, 0, undefined],
          ['server', 1, false, 1, undefined],
        ]);
        expect(r.notes.join(' ')).toMatch(
          /chunked, so no length was announced \(RFC 9112 §7\.1\); curl's marker counted 17 bytes received, chunk framing included/,
        );
      }
      const both = read('curl-sv-chunked-both.txt');
      expect(both.notes.join(' ')).toMatch(/printed the body without its chunked framing/);
      expect(both.replay!.exchanges[0]).toMatchObject({ status: 200, responseBody: 'first chunk\nsecond, longer chunk of text' });
    });

    it(`counts the POST body curl sent without printing it, instead of calling the request cut (${form})`, () => {
      const r = read('curl-v-post.txt');
      expect(strictOf(r)).toEqual([
        ['client', 1, false, 1, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      expect(r.notes.join(' ')).toMatch(/request body of 3 bytes\) is not in curl's log: Content-Length says 3 bytes .* --trace-ascii does/);
      expect(r.replay!.exchanges[0]).toMatchObject({ method: 'POST', path: '/post', status: 201, responseBody: 'got abc\n' });
    });

    it(`ends a bodiless 304's head where curl did (${form})`, () => {
      const r = read('curl-sv-304.txt');
      expect(strictOf(r)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      const server = parseCurl(fixture('curl-sv-304.txt')).segments[1]!;
      expect(server.text).toBe('HTTP/1.0 304 Not Modified\r\nServer: SimpleHTTP/0.6 Python/3.11.7\r\nDate: Sun, 29 Nov 2026 04:42:10 GMT\r\n\r\n');
    });

    it(`replays what curl saw: the status and fields, and the body it printed (${form})`, () => {
      const meter = read('curl-v-meter.txt').replay!;
      expect(meter.exchanges).toEqual([expect.objectContaining({ method: 'GET', path: '/', status: 200, responseBody: '' })]);
      expect(meter.exchanges[0]!.responseHeaders).toContainEqual({ name: 'Last-Modified', value: 'Sun, 01 Nov 2026 00:00:00 GMT' });
      const code = replaySnippet(meter.exchanges, meter.from);
      expect(code).toContain('"GET /": [\n    { status: 200, headers: {"server":"SimpleHTTP/0.6 Python/3.11.7","content-type":"text/html"');
      expect(code).not.toContain('502');
      // With the body on standard output, the reply is the 157 bytes Content-Length counts, final LF included.
      const both = read('curl-v-both.txt');
      expect(strictOf(both)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      expect(new TextEncoder().encode(both.replay!.exchanges[0]!.responseBody).length).toBe(157);
    });
  }
});

describe('curl --trace-ascii and --trace', () => {
  // Captured here with curl 7.88.1 on loopback: python's http.server (HTTP/1.0) on 127.0.0.1:18400 and
  // nghttpd --no-tls on 127.0.0.1:18401:
  //   curl -s --trace-ascii curl-trace-ascii-post.txt -d abc URL/post -o /dev/null
  //   curl -s --trace-ascii curl-trace-ascii-chunked.txt URL/chunked -o /dev/null
  //   curl -s --http2-prior-knowledge --trace-ascii curl-trace-ascii-h2c.txt http://127.0.0.1:18401/index.html -o /dev/null
  //   curl -s --trace curl-trace-post.txt -d abc URL/post -o /dev/null
  it('is detected, and its rows give back CR LF from their offsets, bodies included', () => {
    expect(detect(fixture('curl-trace-ascii-post.txt'))).toMatchObject({ format: 'curl', reason: expect.stringMatching(/--trace-ascii/) });
    const t = parseTrace(fixture('curl-trace-ascii-post.txt'));
    expect(t.form).toBe('ascii');
    // 152 bytes, as curl's "Send header, 152 bytes (0x98)" says: seven lines, each ended by CR LF.
    expect(t.segments[0]!.head).toBe(
      'POST /post HTTP/1.1\r\nHost: 127.0.0.1:18400\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nContent-Length: 3\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n',
    );
    expect(t.segments[0]!.head.length).toBe(152);
    expect([...t.segments[0]!.wire!]).toEqual([0x61, 0x62, 0x63]);
    // The response head came in six blocks of 22 + 38 + 37 + 26 + 19 + 2 bytes; its body "got abc\n" as "got abc.".
    expect(t.segments[1]!.head.length).toBe(144);
    expect(new TextDecoder().decode(t.segments[1]!.wire)).toBe('got abc.');
    expect(t.dots).toBe(1);
  });

  for (const form of ['file', 'pasted'] as const) {
    const read = (name: string) => inspect({ text: form === 'file' ? fixture(name) : pasted(fixture(name)) });
    it(`reads HTTP/1.1 traces as whole messages, bodies and chunked framing included (${form})`, () => {
      const post = read('curl-trace-ascii-post.txt');
      expect(post.problems).toEqual([]);
      expect(strictOf(post)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      expect(post.notes.join(' ')).toMatch(/1 body byte printed as "\."/);
      expect(post.replay!.exchanges[0]).toMatchObject({ method: 'POST', path: '/post', requestBody: 'abc', status: 201, responseBody: 'got abc.' });
      const chunked = read('curl-trace-ascii-chunked.txt');
      expect(strictOf(chunked)).toEqual([
        ['client', 1, false, 0, undefined],
        ['server', 1, false, 0, undefined],
      ]);
      // 57 bytes of chunked framing (RFC 9112 §7.1): chunks of 0xc and 0x1d bytes, then the last chunk.
      expect(chunked.replay!.exchanges[0]).toMatchObject({ status: 200, responseBody: 'first chunk.second, longer chunk of text.' });
      const exact = read('curl-trace-post.txt');
      expect(exact.notes.join(' ')).toMatch(/every byte curl sent and received, in hex/);
      expect(exact.replay!.exchanges[0]).toMatchObject({ requestBody: 'abc', status: 201, responseBody: 'got abc\n' });
    });

    it(`reads an h2c trace as HEADERS fields, with the DATA curl received (${form})`, () => {
      const r = read('curl-trace-ascii-h2c.txt');
      expect(r.problems).toEqual([]);
      expect(r.curl?.version).toBe('HTTP/2');
      expect(r.curl!.messages[0]!.fields.slice(0, 4)).toEqual([
        { name: ':method', value: 'GET' },
        { name: ':path', value: '/index.html' },
        { name: ':scheme', value: 'http' },
        { name: ':authority', value: '127.0.0.1:18401' },
      ]);
      expect(r.replay!.exchanges[0]).toMatchObject({ method: 'GET', path: '/index.html', status: 200 });
      expect(r.replay!.exchanges[0]!.responseBody).toHaveLength(157);
    });
  }

  // curl -s --trace-time --trace-ascii curl-trace-time.txt URL/hi.txt -o /dev/null
  it("reads --trace-time stamps, and says what curl's clock measured", () => {
    const r = inspect({ text: fixture('curl-trace-time.txt') });
    expect(r.problems).toEqual([]);
    expect(strictOf(r)).toEqual([
      ['client', 1, false, 0, undefined],
      ['server', 1, false, 0, undefined],
    ]);
    // Sent at 04:45:38.233459; the status line's block at .237578 (4.119 ms), the body's at .237622 (4.163 ms).
    expect(r.notes.join(' ')).toMatch(
      /first request bytes written at 04:45:38\.233459, first response bytes read at 04:45:38\.237578 \(4\.119 ms later.*last at 04:45:38\.237622 \(4\.163 ms\)/,
    );
    expect(r.replay!.exchanges[0]).toMatchObject({ path: '/hi.txt', status: 200, responseBody: 'hello.' });
  });

  it('locates a row that does not add up to its offsets', () => {
    const edited = fixture('curl-trace-ascii-post.txt').replace('0015: Host: 127.0.0.1:18400', '0015: Host: 127.0.0.1:1840');
    const r = inspect({ text: edited });
    expect(r.problems[0]).toEqual({
      message: expect.stringMatching(/this row holds 20 characters, but the next row starts 23 bytes after it/),
      where: 'line 5',
    });
  });
});

describe('HTTP/2 frames', () => {
  it('reads the client side of an nghttp run with its preface, and decodes every field block', () => {
    const r = inspect({ text: fixture('h2-client.xxd.txt') });
    expect(r.format).toBe('h2');
    expect(r.problems).toEqual([]);
    expect(r.h2).toMatchObject({ sender: 'client', preface: true, blocks: 2 });
    const frames = events(r).filter((e) => e.type === 'h2-frame');
    expect(frames.map((f) => f.type === 'h2-frame' && f.frameType).slice(0, 2)).toEqual(['SETTINGS', 'PRIORITY']);
    const headers = frames.find((f) => f.type === 'h2-frame' && f.headers);
    expect(headers?.type === 'h2-frame' && headers.headers?.find((h) => h.name === ':path')?.value).toBe('/todos/1');
  });

  it("works out that frames without a preface are the server's, and tracks its flow-control windows", () => {
    const r = inspect({ text: fixture('h2-server.od.txt') });
    expect(r.h2?.sender).toBe('server');
    const headers = events(r).find((e) => e.type === 'h2-frame' && e.headers);
    expect(headers?.type === 'h2-frame' && headers.headers?.[0]).toEqual({ name: ':status', value: '200' });
    const connection = r.h2!.flow.find((f) => f.streamId === 0)!;
    const data = events(r)
      .filter((e) => e.type === 'h2-frame' && e.frameType === 'DATA')
      .reduce((n, e) => n + (e.type === 'h2-frame' ? e.length : 0), 0);
    expect(connection.dataSent).toBe(data);
    expect(connection.windowLeft).toBe(65_535 - data);
  });

  it('locates a damaged frame', () => {
    const raw = fixture('h2-server.hexstream.txt').trim();
    // Cut the stream inside its last frame.
    const r = inspect({ text: raw.slice(0, raw.length - 20) });
    expect(r.problems[0]?.message).toMatch(/cut short: its header announces a \d+-octet payload/);
    // A SETTINGS frame on stream 1 is a connection error (RFC 9113 §6.5).
    const bad = inspect({ text: '000000040000000001', format: 'h2' });
    expect(bad.problems[0]?.message).toMatch(/Frame 1/);
    expect(bad.problems[0]?.where).toBe('byte 0 (frame 1)');
  });
});

describe('HPACK block alone', () => {
  it('decodes RFC 7541 C.3.1 and explains each representation', () => {
    const r = inspect({ text: '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', format: 'hpack' });
    expect(r.hpack?.fields).toEqual([
      { name: ':method', value: 'GET' },
      { name: ':scheme', value: 'http' },
      { name: ':path', value: '/' },
      { name: ':authority', value: 'www.example.com' },
    ]);
    expect(r.hpack?.table.size).toBe(57);
    const frame = events(r).find((e) => e.type === 'h2-frame');
    expect(frame?.type === 'h2-frame' && frame.hpack?.map((s) => s.representation)).toEqual(['indexed', 'indexed', 'indexed', 'literal-incremental']);
  });

  it('rejects a size update above the starting table size, at its byte', () => {
    const r = inspect({ text: '3fe11f', format: 'hpack', tableSize: 256 });
    expect(r.problems[0]?.message).toMatch(/4096|exceeds|limit/);
    expect(r.problems[0]?.where).toMatch(/^byte 0 of the block/);
  });
});

describe('HPACK blocks pasted one per line (RFC 7541 C.3, C.4)', () => {
  const C3 = [
    '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
    '8286 84be 5808 6e6f 2d63 6163 6865',
    '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
  ];
  const C4 = ['8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', '8286 84be 5886 a8eb 1064 9cbf', '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'];
  const third = [
    { name: ':method', value: 'GET' },
    { name: ':scheme', value: 'https' },
    { name: ':path', value: '/index.html' },
    { name: ':authority', value: 'www.example.com' },
    { name: 'custom-key', value: 'custom-value' },
  ];
  const table = [
    { name: 'custom-key', value: 'custom-value' },
    { name: 'cache-control', value: 'no-cache' },
    { name: ':authority', value: 'www.example.com' },
  ];

  it.each([
    ['C.3 (no Huffman), one line each', C3.join('\n')],
    ['C.4 (Huffman), one line each', C4.join('\n')],
    ['C.3 as blank-line-separated groups', C3.join('\n\n')],
  ])('%s: three blocks, one dynamic table, no pseudo-header flagged', (_, text) => {
    const r = inspect({ text, format: 'hpack' });
    expect(r.problems).toEqual([]);
    expect(r.hpack?.blocks.map((b) => b.length)).toEqual([4, 5, 5]);
    expect(r.hpack?.blocks[1]?.at(-1)).toEqual({ name: 'cache-control', value: 'no-cache' });
    expect(r.hpack?.blocks[2]).toEqual(third);
    expect(r.hpack?.table).toEqual({ size: 164, maxSize: 4096, entries: table.map((e, i) => ({ ...e, inserted: 3 - i })), evicted: 0 });
    expect(r.notes[0]).toMatch(/^3 blocks/);
    const frames = events(r).filter((e) => e.type === 'h2-frame');
    expect(frames.map((e) => e.type === 'h2-frame' && e.streamId)).toEqual([1, 3, 5]);
  });

  it('keeps one block together when the same bytes are given as one run (and flags its repeated pseudo-header fields)', () => {
    const r = inspect({ text: C3.join(' '), format: 'hpack' });
    expect(r.hpack?.blocks.length).toBe(1);
    expect(r.hpack?.fields.filter((f) => f.name === ':method').length).toBe(3);
    const messages = r.problems.map((p) => p.message);
    expect(messages.filter((m) => m.startsWith('":method" appears again')).length).toBe(2);
    expect(messages.some((m) => /after the regular field "cache-control".*RFC 9113 §8\.3/.test(m))).toBe(true);
  });

  it('keeps xxd -p lines (60 hex digits, wrapped) as one block', () => {
    const run = (C3[0]! + C3[1]! + C3[2]!).replace(/ /g, '');
    const wrapped = run.match(/.{1,60}/g)!.join('\n');
    expect(wrapped.split('\n').length).toBe(3);
    const r = inspect({ text: wrapped, format: 'hpack' });
    expect(r.hpack?.blocks.length).toBe(1);
    expect(r.hpack?.fields.length).toBe(14);
  });

  it('says which block fails, at which byte, with the table the blocks before it left', () => {
    // Block 2 refers to index 63 (its byte 1), which does not exist after block 1 (one entry: 62).
    const r = inspect({ text: `${C3[0]}\n82bf`, format: 'hpack' });
    expect(r.problems[0]?.message).toMatch(/^Block 2 /);
    expect(r.problems[0]?.where).toBe('byte 1 of block 2');
    const ok = inspect({ text: `${C3[0]}\n82be`, format: 'hpack' });
    expect(ok.problems).toEqual([]);
    expect(ok.hpack?.blocks[1]).toEqual([
      { name: ':method', value: 'GET' },
      { name: ':authority', value: 'www.example.com' },
    ]);
  });

  it('names the block and line of a hex typo', () => {
    const r = inspect({ text: `${C3[0]}\n82 8g`, format: 'hpack' });
    expect(r.problems[0]?.where).toMatch(/^block 2, line 1/);
  });
});

describe('minor readings (#30 item 11)', () => {
  it('numbers dynamic-table entries by insertion, which eviction does not reuse (RFC 7541 C.5, table size 256)', () => {
    const C5 = [
      '4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '4803 3330 37c1 c0bf',
      '88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31',
    ];
    const r = inspect({ text: C5.join('\n'), format: 'hpack', tableSize: 256 });
    expect(r.problems).toEqual([]);
    expect(r.hpack?.table.size).toBe(215);
    expect(r.hpack?.table.evicted).toBe(5);
    expect(r.hpack?.table.entries.map((e) => `${e.inserted} ${e.name}`)).toEqual(['8 set-cookie', '7 content-encoding', '6 date']);
  });

  it('moves the writer of an invalid chunk to ERROR, not SEND_BODY', () => {
    const r = inspect({
      text: 'GET / HTTP/1.1\r\nHost: a\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n\r\n',
      format: 'http1',
    });
    const server = events(r).filter((e) => e.type === 'transition' && e.machine === 'http1-server');
    const last = server.at(-1);
    expect(last?.type === 'transition' && `${last.from} ${last.to}`).toBe('server:SEND_BODY server:ERROR');
    expect(last?.type === 'transition' && last.input).toBe('error: invalid-chunk-size');
  });

  it('agrees in number: 1 octet, 1 byte', () => {
    const r = inspect({ text: '00', format: 'h2' });
    expect(r.problems[0]?.message).toMatch(/cut short: 1 octet is left/);
    expect(r.notes[0]).toMatch(/: 1 byte\.$/);
    const two = inspect({ text: '0000', format: 'h2' });
    expect(two.problems[0]?.message).toMatch(/cut short: 2 octets are left/);
  });

  it('says why a one-direction HTTP/2 capture cannot be replayed', () => {
    const r = inspect({ text: fixture('h2-client.hexstream.txt'), format: 'h2' });
    expect(r.replay).toBeUndefined();
    expect(r.noReplay).toMatch(/only the client's frames.*Paste the server's frames too/);
  });
});

describe('HAR', () => {
  it('says the checks did not run when the JSON does not parse, and where it stops', () => {
    // A HAR cut short (a download stopped half way), and one with a stray comma on line 2.
    const whole = fixture('chromium.har');
    const cut = inspect({ text: whole.slice(0, 2000) });
    expect(cut.format).toBe('har');
    const lines = whole.slice(0, 2000).split('\n');
    expect(cut.problems[0]).toMatchObject({
      message: expect.stringMatching(/^This is not valid JSON/),
      where: `line ${lines.length}, column ${lines.at(-1)!.length + 1}`,
    });
    expect(cut.har!.checks).toEqual([
      {
        level: 'error',
        path: `line ${lines.length}, column ${lines.at(-1)!.length + 1}`,
        message: expect.stringMatching(/none of the HAR 1\.2 checks could run/),
      },
    ]);
    const comma = inspect({ text: '{"log": {"version": "1.2",\n  "creator": {"name": "x", "version": "1"},}}' });
    expect(comma.problems[0]!.where).toBe('line 2, column 44'); // the "}" after the comma
    expect(comma.har!.checks.filter((c) => c.level === 'error')).toHaveLength(1);
    const noLog = inspect({ text: '{"entries": []}' });
    expect(noLog.har!.checks).toEqual([{ level: 'error', path: 'log', message: expect.stringMatching(/none ran/) }]);
  });

  it('reads a HAR Chromium recorded, with its timings and connections', () => {
    const r = inspect({ text: fixture('chromium.har') });
    expect(r.problems).toEqual([]);
    expect(r.har).toMatchObject({ entries: 4, versions: ['HTTP/1.1'] });
    expect(r.har!.checks.filter((c) => c.level === 'error')).toEqual([]);
    const finished = events(r).filter((e) => e.type === 'request-finished');
    expect(finished.map((e) => e.type === 'request-finished' && `${e.request.method} ${e.response.status}`)).toEqual([
      'GET 200',
      'GET 200',
      'GET 200',
      'POST 201',
    ]);
    const first = finished[0];
    expect(first?.type === 'request-finished' && first.timings.wait).toBe(36.617);
    expect(r.replay!.exchanges[3]).toMatchObject({ method: 'POST', path: '/todos', requestBody: '{"title":"From the HAR"}', status: 201 });
  });

  // firefox.har is a real export: Firefox ESR 153 under xvfb-run with -devtools, a profile setting
  // devtools.netmonitor.har.enableAutoExportToFile and defaultLogDir, loading a page of `npm run serve` on
  // loopback that fetches /todos/1, POSTs /todos and fetches /missing (Firefox exports when a page it watched
  // from its start has loaded, so a first page navigated to it after DevTools opened).
  it('reads a HAR Firefox exported, with its own conventions', () => {
    const text = fixture('firefox.har');
    const raw = JSON.parse(text);
    // What sets Firefox's export apart from Chromium's, as recorded: an empty cache object, page timings of
    // -1, no connection id or server address, and a favicon served from its cache with no head size and no time.
    expect(raw.log.entries.every((e: { cache: object }) => Object.keys(e.cache).length === 0)).toBe(true);
    expect(raw.log.pages[0].pageTimings).toEqual({ onContentLoad: -1, onLoad: -1 });
    expect(raw.log.entries.some((e: { connection?: string; serverIPAddress?: string }) => e.connection ?? e.serverIPAddress)).toBe(false);
    const r = inspect({ text });
    expect(r.problems).toEqual([]);
    expect(r.har).toMatchObject({ creator: 'Firefox 153.7.0', entries: 6, versions: ['HTTP/1.1'], checks: [] });
    const finished = events(r).filter((e) => e.type === 'request-finished');
    expect(finished.map((e) => e.type === 'request-finished' && `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`)).toEqual([
      'GET /page.html 200',
      'GET /style.css 200',
      'GET /todos/1 200',
      'GET /favicon.ico 404',
      'POST /todos 201',
      'GET /missing 404',
    ]);
    // Without a connection id every entry is on one connection per host.
    expect(
      events(r)
        .filter((e) => e.type === 'connection-opening')
        .map((e) => e.type === 'connection-opening' && e.address),
    ).toEqual(['127.0.0.1:4471']);
    expect(r.replay!.exchanges[4]).toMatchObject({ method: 'POST', path: '/todos', requestBody: '{"title":"From Firefox"}', status: 201 });
  });

  it('reads nghttp --har, HTTP/2 entries included', () => {
    const r = inspect({ text: fixture('nghttp.har') });
    expect(r.har?.versions).toEqual(['HTTP/2']);
    expect(r.har?.entries).toBe(2);
  });

  it('reports the HAR 1.2 checks a validator would make', () => {
    const har = JSON.parse(fixture('chromium.har'));
    delete har.log.entries[1].response.content.mimeType;
    har.log.entries[2].timings.wait = -5;
    har.log.entries[3].pageref = 'nope';
    const checks = readHar(JSON.stringify(har)).checks;
    expect(checks.map((c) => c.path)).toEqual(
      expect.arrayContaining(['log.entries[1].response.content.mimeType', 'log.entries[2].timings.wait', 'log.entries[3].pageref']),
    );
    expect(checks.find((c) => c.path === 'log.entries[2].timings.wait')?.message).toMatch(/may not be negative/);
  });

  it('locates broken JSON', () => {
    const r = inspect({ text: '{\n  "log": {\n    "version": 1.2,,\n  }\n}' });
    expect(r.problems[0]?.where).toMatch(/^line 3, column \d+/);
  });
});

describe('replay', () => {
  it('writes a snippet that answers with the recorded responses', () => {
    const r = inspect({ text: pasted(fixture('http1-conversation.txt')) });
    const code = replaySnippet(r.replay!.exchanges, r.replay!.from);
    expect(code).toContain('"GET /notes/1": [');
    expect(code).toContain('status: 404');
    expect(code).toContain('createSimulation({ server, httpVersion, rtt, seed: 1 })');
    expect(code).not.toMatch(/content-length/i);
  });
});
