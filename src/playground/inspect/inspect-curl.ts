/**
 * The inspector's reading of curl's logs (curl.ts and trace.ts parse them): `curl -v` heads, with the bodies curl
 * printed or left out said in words, `--trace` and `--trace-ascii` bytes read as an HTTP/1 conversation, and
 * HTTP/2 transcripts, whose lines are curl's rendering of HEADERS frames and are shown as fields.
 */
import { curlMessages, parseCurl, type CurlMessage, type CurlSegment, type CurlTranscript } from './curl';
import { countOf } from './words';
import { directions, type Located, locate, machineSteps, mergeWrites, type Segment, type Verdict } from './http1';
import { clockNote, looksLikeTrace, parseTrace } from './trace';
import { http1Events, recordingOf } from './to-recording';
import { Http1Reader } from 'roundtrip/wire';
import { type Body, type InspectInput, type Problem, safePath, untimed } from './inspect-result';
import { http1Exchanges } from './inspect-http1';
import { concat } from './bytes';

const utf8 = new TextEncoder();

export function curl(input: InspectInput): Body {
  const trace = looksLikeTrace(input.text) ? parseTrace(input.text) : undefined;
  const transcript = trace ?? parseCurl(input.text);
  if (transcript.segments.length === 0)
    return { format: 'curl', problems: [{ message: 'No "> " or "< " lines: curl printed no request or response head here.' }], notes: [] };
  const messages = curlMessages(transcript);
  const remarks = [
    ...(transcript.meter !== undefined
      ? [
          `curl's progress meter (drawn on standard error when standard output goes elsewhere, and no -s) was set aside as a remark, not read as a body; its last row: "${transcript.meter}".`,
        ]
      : []),
    ...(transcript.info.length ? [`curl's remarks: ${transcript.info.slice(0, 6).join(' / ')}${transcript.info.length > 6 ? ' …' : ''}`] : []),
  ];
  if (trace) {
    remarks.unshift(
      trace.form === 'hex'
        ? 'Read from a curl --trace log: every byte curl sent and received, in hex, bodies included.'
        : `Read from a curl --trace-ascii log: heads and bodies, CR LF restored from the row offsets${trace.dots > 0 ? `; ${countOf(trace.dots, 'body byte')} printed as "." (curl prints every byte outside printable ASCII so, LF included) read as "."; curl --trace keeps them exactly` : ''}.`,
    );
  }
  const clock = trace ? clockNote(trace) : undefined;
  if (clock) remarks.unshift(clock);
  const traceProblems: Problem[] = trace ? trace.problems.map((p) => ({ message: `curl's trace does not add up: ${p.message}.`, where: p.where })) : [];
  if (messages.some((m) => m.version === 'HTTP/2')) {
    const body = curlHttp2(messages, transcript, remarks);
    return { ...body, problems: [...traceProblems, ...body.problems] };
  }
  // RFC 7540 §3.2's Upgrade to h2c (curl --http2 on http:), which RFC 9113 §3.1 no longer defines: a server
  // that switches answers 101 first.
  const offered = messages.some((m) => m.from === 'client' && m.fields.some((f) => f.name.toLowerCase() === 'upgrade' && /\bh2c\b/i.test(f.value)));
  const declined =
    offered && !messages.some((m) => m.status === 101)
      ? [
          'curl offered to switch to HTTP/2 (Upgrade: h2c, which RFC 9113 §3.1 deprecated), and the server answered in HTTP/1.1 instead of 101 Switching Protocols: the connection stayed HTTP/1.1. curl --http2-prior-knowledge starts in HTTP/2 instead.',
        ]
      : [];
  const read = curlHeads(transcript);
  const segments = mergeWrites(read.segments);
  const problems: Problem[] = [...traceProblems];
  for (const v of read.verdicts.filter((v) => v.strict && v.error))
    problems.push({
      message: `${v.from === 'client' ? 'Requests' : 'Responses'}: ${v.error!.message} (${v.error!.code})`,
      where: `line ${v.error!.line}, column ${v.error!.column} (byte ${v.error!.offset} of the ${v.from}'s bytes)`,
    });
  const requests = messages.filter((m) => m.from === 'client');
  const responses = messages.filter((m) => m.from === 'server' && m.status !== undefined && (m.status >= 200 || m.status === 101));
  return {
    format: 'curl',
    recording: recordingOf('Inspected curl -v transcript', http1Events(segments, machineSteps(segments)), { httpVersion: '1.1' }),
    problems,
    notes: [...declined, ...transcript.notes, ...read.notes, ...remarks, untimed('message')],
    verdicts: read.verdicts,
    // What curl saw: the status and fields of each response, and its body where curl printed one; a trace
    // holds the bytes, read as a conversation (de-chunked).
    replay: {
      from: trace ? `a curl --trace${trace.form === 'ascii' ? '-ascii' : ''} log` : 'a curl -v transcript',
      exchanges: trace
        ? http1Exchanges(segments)
        : requests.map((req, i) => {
            const res = responses[i];
            return {
              method: req.method ?? 'GET',
              path: req.path ? (req.path.startsWith('/') ? req.path : safePath(req.path)) : '/',
              requestHeaders: req.fields,
              requestBody: '',
              status: res?.status ?? 502,
              responseHeaders: res ? res.fields : [],
              responseBody: res ? printedBody(res) : 'The capture holds no response to this request.',
            };
          }),
    },
  };
}

/** The body curl printed, with the final LF its lines were split at when Content-Length counts it. */
function printedBody(m: CurlMessage): string {
  const length = m.fields.find((f) => f.name.toLowerCase() === 'content-length')?.value;
  return length !== undefined && utf8.encode(`${m.body}\n`).length === Number(length) ? `${m.body}\n` : m.body;
}

/**
 * curl's HTTP/1 heads as wire bytes, and the engine's verdict on each, message by message: a body curl printed
 * is read with its head when it is the bytes Content-Length counts; a head whose body curl left out (or
 * printed de-chunked) is read as a head, and counted as such, not as a message the capture cut short.
 */
function curlHeads(t: CurlTranscript): { segments: Segment[]; verdicts: Verdict[]; notes: string[] } {
  const notes: string[] = [];
  const parts = t.segments.map((s) => {
    const head = utf8.encode(s.head);
    const fields = s.head.split('\r\n');
    const field = (name: string) =>
      fields
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const length = field('content-length');
    const chunked = /\bchunked\b/i.test(field('transfer-encoding') ?? '');
    let bytes: Uint8Array = head;
    if (s.wire) bytes = concat([head, s.wire]);
    else if (s.body !== undefined && !chunked && length !== undefined) {
      // The body lines were split at LF, so a final LF is either the body's or the terminal's: try both.
      for (const body of [s.body, `${s.body}\n`]) {
        const b = utf8.encode(body);
        if (String(b.length) === length) bytes = concat([head, b]);
      }
    }
    return { from: s.from, bytes, segment: s, length, chunked };
  });
  const segments: Segment[] = parts.map((p) => ({ from: p.from, bytes: p.bytes }));
  const both = directions(segments);
  const verdicts: Verdict[] = [];
  const methods: string[] = [];
  for (const from of ['client', 'server'] as const) {
    const mine = parts.filter((p) => p.from === from);
    if (mine.length === 0) continue;
    for (const strict of [true, false]) {
      let messages = 0;
      let leftOut = 0;
      let base = 0;
      let error: Verdict['error'];
      let incomplete = false;
      const tolerated: Located[] = [];
      let finals = 0;
      for (const p of mine) {
        const reads = from === 'client' ? 'request' : 'response';
        const reader = new Http1Reader(reads, { strict, maxBodyBytes: Infinity });
        reader.feed(p.bytes);
        // A trace holds the body's bytes: what follows them is the next message, or the end of the connection
        // (a response without Content-Length ends there, RFC 9112 §6.3).
        if (p.segment.wire) reader.feedEof();
        let head: { status?: number; method?: string } | undefined;
        let outcome: 'whole' | 'head' | 'cut' | 'error' = 'cut';
        for (let i = 0; i < 10_000; i++) {
          const ev = reader.next(reads === 'response' && methods[finals] ? { method: methods[finals]! } : {});
          if (ev.type === 'request') head = { method: ev.method };
          else if (ev.type === 'response') head = { status: ev.status };
          else if (ev.type === 'informational' || ev.type === 'end-of-message') {
            outcome = 'whole';
            break;
          } else if (ev.type === 'error') {
            const at = base + ev.error.offset;
            error = { code: ev.error.code, message: ev.error.message, offset: at, ...locate(both[from], at) };
            outcome = 'error';
            break;
          } else if (ev.type === 'data') continue;
          else {
            outcome = head ? 'head' : 'cut';
            break;
          }
        }
        for (const x of reader.tolerated) tolerated.push({ code: x.code, message: x.message, offset: base + x.offset, ...locate(both[from], base + x.offset) });
        if (strict && from === 'client' && head?.method) methods.push(head.method);
        if (from === 'server' && head?.status !== undefined && (head.status >= 200 || head.status === 101)) finals++;
        if (outcome === 'error') break;
        if (outcome === 'cut') {
          incomplete = true;
          break;
        }
        messages++;
        if (outcome === 'head') {
          leftOut++;
          if (strict) notes.push(leftOutNote(p.segment, p.length, p.chunked, head?.status));
        }
        base += p.bytes.length;
      }
      verdicts.push({ from, strict, messages, incomplete, ...(error ? { error } : {}), tolerated, ...(leftOut > 0 ? { bodiesLeftOut: leftOut } : {}) });
    }
  }
  return { segments, verdicts, notes };
}

/** What curl left out of one message, in words, from its framing (RFC 9112 §6.3) and curl's markers. */
function leftOutNote(s: CurlSegment, length: string | undefined, chunked: boolean, status: number | undefined): string {
  const what =
    s.from === 'client'
      ? `The request's body (curl sent a request body of ${countOf(s.marked, 'byte')})`
      : `The ${status ?? ''} response's body`.replace('  ', ' ');
  const framing = chunked
    ? 'it was chunked, so no length was announced (RFC 9112 §7.1)'
    : length !== undefined
      ? `Content-Length says ${countOf(Number(length), 'byte')} (RFC 9112 §6.3)`
      : 'it had no Content-Length, so it ran until the server closed the connection (RFC 9112 §6.3)';
  const marked =
    s.marked > 0
      ? `; curl's marker counted ${countOf(s.marked, 'byte')} ${s.from === 'client' ? 'sent' : 'received'}${chunked ? ', chunk framing included' : ''}`
      : '';
  const printed =
    s.body !== undefined
      ? ` curl printed the body${chunked ? ' without its chunked framing' : ''} on standard output: it is shown and replayed as text, not read as wire bytes.`
      : '';
  const never = s.from === 'client' ? ' curl -v never prints what it sends; --trace-ascii does.' : '';
  return `${what} is not in curl's log: ${framing}${marked}.${never} Its head is read whole; the body is neither invented nor counted as cut.${printed}`;
}

/**
 * `curl -v` over HTTP/2 printed no bytes, only the fields of each HEADERS frame (curl.ts): they are shown as
 * fields, and each message is an arrow in the Sequence view, labelled from a head rebuilt from them.
 */
function curlHttp2(messages: readonly CurlMessage[], transcript: CurlTranscript, remarks: string[]): Body {
  const head = (m: CurlMessage) =>
    `${m.from === 'client' ? `${m.method ?? '?'} ${m.path ?? '/'}` : m.startLine}\r\n${m.fields.map((f) => `${f.name}: ${f.value}\r\n`).join('')}\r\n`;
  const segments: Segment[] = messages.map((m) => ({ from: m.from, bytes: utf8.encode(head(m)) }));
  const requests = messages.filter((m) => m.from === 'client');
  const responses = messages.filter((m) => m.from === 'server' && m.status !== undefined && m.status >= 200);
  const regular = (m: CurlMessage) => m.fields.filter((f) => !f.name.startsWith(':'));
  return {
    format: 'curl',
    recording: recordingOf('curl -v over HTTP/2', http1Events(segments, []), { httpVersion: '2', bytes: 'rebuilt' }),
    problems: [],
    notes: [
      'curl spoke HTTP/2, so its "> " and "< " lines are its own HTTP/1-like rendering of HEADERS frames, not bytes on the wire: the HTTP/1 checks do not apply. The fields each frame carried are below, pseudo-header fields first (RFC 9113 §8.3).',
      ...(requests.length > transcript.listed.length
        ? [
            'curl listed no fields for a request (curl -v does from 7.88 on): they are worked out from its "> " lines, Host as :authority and names in lowercase.',
          ]
        : []),
      untimed('message'),
      ...transcript.notes,
      ...remarks,
    ],
    curl: { version: 'HTTP/2', messages },
    replay: {
      from: 'curl -v over HTTP/2',
      exchanges: requests.map((req, i) => {
        const res = responses[i];
        return {
          method: req.method ?? 'GET',
          path: req.path ?? '/',
          requestHeaders: regular(req),
          requestBody: '',
          status: res?.status ?? 502,
          responseHeaders: res ? regular(res) : [],
          responseBody: res ? res.body : 'The capture holds no response to this request.',
        };
      }),
    },
  };
}
