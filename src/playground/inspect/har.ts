/**
 * HAR files (HTTP Archive 1.2, the format of DevTools' and Firefox's "Save all as HAR", `nghttp --har` and
 * Playwright's `recordHar`): parsed, checked against the 1.2 specification the way a validator would, and
 * turned into the trace events the waterfall and sequence views draw.
 *
 * The checks follow the HAR 1.2 spec (W3C Web Performance WG draft, http://www.softwareishard.com/blog/har-12-spec/):
 * required fields and their types, `time` equal to the sum of the timings that apply, `ssl` inside `connect`,
 * `pageref` naming a page, timestamps in ISO 8601. Fields a tool adds with a leading underscore are custom
 * fields, allowed by the spec, and ignored.
 */
import { binaryString, type TraceEvent } from 'roundtrip/wire';
import { MessageWriter } from './to-recording';

export interface HarCheck {
  readonly level: 'error' | 'warning';
  /** Where, as a path a reader can follow: 'log.entries[2].timings.wait'. */
  readonly path: string;
  readonly message: string;
}

export interface HarHeader {
  readonly name: string;
  readonly value: string;
}

export interface HarEntrySummary {
  readonly index: number;
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly status: number;
  readonly statusText: string;
  readonly startedAt: number;
  readonly time: number;
  readonly connection: string;
  readonly requestHeaders: readonly HarHeader[];
  readonly responseHeaders: readonly HarHeader[];
  readonly requestBody: string;
  readonly responseBodySize: number;
  readonly responseHeadersSize: number;
  readonly mimeType: string;
  readonly responseText: string;
  readonly timings: Readonly<Record<'blocked' | 'dns' | 'connect' | 'ssl' | 'send' | 'wait' | 'receive', number>>;
}

export type HarReading =
  | { readonly ok: true; readonly creator: string; readonly entries: readonly HarEntrySummary[]; readonly checks: readonly HarCheck[] }
  | { readonly ok: false; readonly message: string; readonly line?: number; readonly column?: number; readonly checks: readonly HarCheck[] };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
// ISO 8601 date and time with a zone, as HAR 1.2 requires ("2009-07-24T19:20:30.45+01:00").
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Where JSON.parse stopped, as line and column, from the position V8 and SpiderMonkey put in the message. */
function jsonError(text: string, error: unknown): { message: string; line?: number; column?: number } {
  const message = error instanceof Error ? error.message : String(error);
  const pos = /position (\d+)/.exec(message);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { message, line: Number(lc[1]), column: Number(lc[2]) };
  // A HAR cut short (a download stopped, a paste that lost its end): the engine says only that the input ended.
  if (/end of (JSON )?(input|data)|unterminated|unexpected EOF/i.test(message) && !pos) {
    const lines = text.split('\n');
    return { message, line: lines.length, column: lines.at(-1)!.length + 1 };
  }
  if (pos) {
    const at = Number(pos[1]);
    const before = text.slice(0, at).split('\n');
    return { message, line: before.length, column: before.at(-1)!.length + 1 };
  }
  return { message };
}

export function readHar(text: string): HarReading {
  const checks: HarCheck[] = [];
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    const where = jsonError(text, error);
    // The checks did not run: they say so, instead of an empty list that reads as "no errors".
    return {
      ok: false,
      ...where,
      message: `This is not valid JSON, so not a HAR file: ${where.message}`,
      checks: [
        {
          level: 'error',
          path: where.line ? `line ${where.line}, column ${where.column}` : '(the JSON text)',
          message: 'The text does not parse as JSON (RFC 8259), so none of the HAR 1.2 checks could run.',
        },
      ],
    };
  }
  if (!isObject(root) || !isObject(root.log)) {
    const message = 'A HAR file is a JSON object with a "log" object at the top (HAR 1.2 §log); this JSON has none.';
    return { ok: false, message, checks: [{ level: 'error', path: 'log', message: `${message} The other checks need it, so none ran.` }] };
  }
  const log = root.log;
  const err = (path: string, message: string) => checks.push({ level: 'error', path, message });
  const warn = (path: string, message: string) => checks.push({ level: 'warning', path, message });
  const need = (o: Json, key: string, type: 'string' | 'number' | 'array' | 'object', path: string): boolean => {
    const v = o[key];
    const ok = type === 'array' ? Array.isArray(v) : type === 'object' ? isObject(v) : typeof v === type;
    if (!ok)
      err(
        `${path}.${key}`,
        v === undefined
          ? `"${key}" is required and missing.`
          : `"${key}" must be ${type === 'array' ? 'an array' : `a ${type}`}, not ${JSON.stringify(v)?.slice(0, 40)}.`,
      );
    return ok;
  };
  if (need(log, 'version', 'string', 'log') && log.version !== '1.2' && log.version !== '1.1')
    warn('log.version', `Version "${log.version}": this checker knows HAR 1.1 and 1.2.`);
  if (need(log, 'creator', 'object', 'log')) {
    need(log.creator as Json, 'name', 'string', 'log.creator');
    need(log.creator as Json, 'version', 'string', 'log.creator');
  }
  const pageIds = new Set<string>();
  if (log.pages !== undefined && need(log, 'pages', 'array', 'log')) {
    (log.pages as unknown[]).forEach((p, i) => {
      const path = `log.pages[${i}]`;
      if (!isObject(p)) return err(path, 'A page must be an object.');
      if (need(p, 'startedDateTime', 'string', path) && !ISO_8601.test(p.startedDateTime as string))
        err(`${path}.startedDateTime`, `"${p.startedDateTime}" is not an ISO 8601 date and time.`);
      if (need(p, 'id', 'string', path)) pageIds.add(p.id as string);
      need(p, 'title', 'string', path);
      need(p, 'pageTimings', 'object', path);
    });
  }
  if (!need(log, 'entries', 'array', 'log')) return { ok: false, message: 'The HAR has no "entries" array, so there are no requests to show.', checks };
  const entries: HarEntrySummary[] = [];
  const raw = log.entries as unknown[];
  // nghttp writes each request's HTTP/2 stream id where HAR 1.2 puts the connection's id (its entries are
  // streams of one connection per host): read as connection ids, every request would get a connection of its own.
  const streamIds = isObject(log.creator) && log.creator.name === 'nghttp';
  const starts = raw.map((e) => (isObject(e) && typeof e.startedDateTime === 'string' ? Date.parse(e.startedDateTime) : Number.NaN));
  const t0 = Math.min(...starts.filter((t) => !Number.isNaN(t)));
  let previousStart = -Infinity;
  raw.forEach((e, i) => {
    const path = `log.entries[${i}]`;
    if (!isObject(e)) return err(path, 'An entry must be an object.');
    const start = starts[i]!;
    if (need(e, 'startedDateTime', 'string', path)) {
      if (!ISO_8601.test(e.startedDateTime as string) || Number.isNaN(start))
        err(`${path}.startedDateTime`, `"${e.startedDateTime}" is not an ISO 8601 date and time.`);
      else if (start < previousStart)
        warn(`${path}.startedDateTime`, 'Entries are best sorted by startedDateTime, oldest first; this one starts before the entry above it.');
      else previousStart = start;
    }
    need(e, 'time', 'number', path);
    if (e.pageref !== undefined && (typeof e.pageref !== 'string' || !pageIds.has(e.pageref)))
      err(`${path}.pageref`, `"pageref" is ${JSON.stringify(e.pageref)}, which names no page in log.pages.`);
    const req = isObject(e.request) ? e.request : undefined;
    const res = isObject(e.response) ? e.response : undefined;
    if (need(e, 'request', 'object', path)) {
      const p = `${path}.request`;
      need(req!, 'method', 'string', p);
      if (need(req!, 'url', 'string', p)) {
        try {
          new URL(req!.url as string);
        } catch {
          err(`${p}.url`, `"${String(req!.url).slice(0, 80)}" is not an absolute URL.`);
        }
      }
      need(req!, 'httpVersion', 'string', p);
      for (const k of ['cookies', 'headers', 'queryString'] as const) need(req!, k, 'array', p);
      need(req!, 'headersSize', 'number', p);
      need(req!, 'bodySize', 'number', p);
      if (req!.postData !== undefined) {
        if (!isObject(req!.postData)) err(`${p}.postData`, '"postData" must be an object.');
        else need(req!.postData, 'mimeType', 'string', `${p}.postData`);
      }
      headerChecks(req!.headers, `${p}.headers`, err);
    }
    if (need(e, 'response', 'object', path)) {
      const p = `${path}.response`;
      need(res!, 'status', 'number', p);
      need(res!, 'statusText', 'string', p);
      need(res!, 'httpVersion', 'string', p);
      need(res!, 'cookies', 'array', p);
      need(res!, 'headers', 'array', p);
      if (need(res!, 'content', 'object', p)) {
        need(res!.content as Json, 'size', 'number', `${p}.content`);
        need(res!.content as Json, 'mimeType', 'string', `${p}.content`);
      }
      need(res!, 'redirectURL', 'string', p);
      need(res!, 'headersSize', 'number', p);
      need(res!, 'bodySize', 'number', p);
      headerChecks(res!.headers, `${p}.headers`, err);
    }
    need(e, 'cache', 'object', path);
    const timings = { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 };
    if (need(e, 'timings', 'object', path)) {
      const t = e.timings as Json;
      const p = `${path}.timings`;
      for (const k of ['send', 'wait', 'receive'] as const) {
        if (need(t, k, 'number', p)) {
          if ((t[k] as number) < 0) err(`${p}.${k}`, `"${k}" is ${t[k]}; it is required and may not be negative (only the optional timings use -1).`);
          else timings[k] = t[k] as number;
        }
      }
      for (const k of ['blocked', 'dns', 'connect', 'ssl'] as const) {
        if (t[k] === undefined) continue;
        if (typeof t[k] !== 'number') err(`${p}.${k}`, `"${k}" must be a number.`);
        else if ((t[k] as number) < 0 && t[k] !== -1) err(`${p}.${k}`, `"${k}" is ${t[k]}: a timing that does not apply is -1, any other is 0 or more.`);
        else timings[k] = t[k] as number;
      }
      if (timings.ssl > 0 && timings.connect >= 0 && timings.ssl > timings.connect)
        err(`${p}.ssl`, `ssl (${timings.ssl} ms) is part of connect (${timings.connect} ms) in HAR 1.2, so it cannot be longer.`);
      if (typeof e.time === 'number') {
        const sum = Object.values(timings).reduce((a, b) => a + Math.max(0, b), 0) - Math.max(0, timings.ssl);
        if (Math.abs(sum - e.time) > 1)
          warn(
            `${path}.time`,
            `"time" is ${round(e.time)} ms, but the timings add up to ${round(sum)} ms (blocked + dns + connect + send + wait + receive, ssl being inside connect).`,
          );
      }
    }
    const url = typeof req?.url === 'string' ? req.url : '';
    let host = '';
    try {
      host = new URL(url).host;
    } catch {}
    // A connection is the server's address, the HAR's connection id (Firefox writes the client's port there,
    // Chromium a socket id) and the transport: HTTP/3 runs over QUIC on UDP, apart from any TCP connection to the
    // same address and port. Whether an entry opened a new one is its connect time (harEvents).
    const version = typeof req?.httpVersion === 'string' ? req.httpVersion : '';
    const transport = /^(h3|http\/3)/i.test(version) ? 'UDP' : 'TCP';
    const address =
      typeof e.serverIPAddress === 'string' && e.serverIPAddress !== ''
        ? `${e.serverIPAddress}${typeof e._serverPort === 'number' ? `:${e._serverPort}` : ''}`
        : host;
    const id = typeof e.connection === 'string' && e.connection !== '' && !streamIds ? ` connection ${e.connection}` : '';
    const connection = `${address}${id} (${transport})`;
    const content = isObject(res?.content) ? res.content : {};
    const post = isObject(req?.postData) ? req.postData : {};
    entries.push({
      index: i,
      method: typeof req?.method === 'string' ? req.method : '?',
      url,
      httpVersion: typeof req?.httpVersion === 'string' ? req.httpVersion : '',
      status: typeof res?.status === 'number' ? res.status : 0,
      statusText: typeof res?.statusText === 'string' ? res.statusText : '',
      startedAt: Number.isNaN(start) ? 0 : start - t0,
      time: typeof e.time === 'number' ? e.time : 0,
      connection,
      requestHeaders: headersOf(req?.headers),
      responseHeaders: headersOf(res?.headers),
      requestBody: typeof post.text === 'string' ? post.text : '',
      ...responseSizes(res, content, res?._transferSize ?? e._transferSize),
      mimeType: typeof content.mimeType === 'string' ? content.mimeType : '',
      responseText: typeof content.text === 'string' && content.encoding !== 'base64' ? content.text : '',
      timings,
    });
  });
  const creator = isObject(log.creator) ? `${log.creator.name ?? '?'} ${log.creator.version ?? ''}`.trim() : 'an unknown tool';
  return { ok: true, creator, entries, checks };
}

const round = (n: number) => Math.round(n * 10) / 10;

function headerChecks(headers: unknown, path: string, err: (path: string, message: string) => void): void {
  if (!Array.isArray(headers)) return;
  headers.forEach((h, i) => {
    if (!isObject(h) || typeof h.name !== 'string' || typeof h.value !== 'string')
      err(`${path}[${i}]`, 'A header is an object with a "name" string and a "value" string.');
  });
}

function headersOf(headers: unknown): HarHeader[] {
  if (!Array.isArray(headers)) return [];
  return headers
    .filter((h): h is HarHeader => isObject(h) && typeof h.name === 'string' && typeof h.value === 'string')
    .map((h) => ({ name: h.name, value: h.value }));
}

/** "HTTP/2.0" (nghttp), "h2" (some exporters), "http/2.0" (Firefox) all say the same thing. */
export function versionLabel(httpVersion: string): string {
  const v = httpVersion.toLowerCase();
  if (v === 'h2' || v.startsWith('http/2')) return 'HTTP/2';
  if (v === 'h3' || v.startsWith('http/3')) return 'HTTP/3';
  if (v.startsWith('http/1.0')) return 'HTTP/1.0';
  if (v.startsWith('http/1')) return 'HTTP/1.1';
  return httpVersion || 'unknown';
}

/**
 * The head a HAR entry describes, as HTTP/1 text: what the Sequence view labels an arrow with. A HAR keeps
 * fields, not bytes, so these are rebuilt (the recording says so, and the Messages view, which reads exact
 * bytes, is not offered). HTTP/2 and HTTP/3 have no request line: their request reads "GET /path", their
 * response "HTTP/2 200", and their pseudo-header fields (RFC 9113 §8.3) are left out of the head.
 */
function headText(e: HarEntrySummary, side: 'request' | 'response', path: string): string {
  const version = versionLabel(e.httpVersion);
  const http1 = version.startsWith('HTTP/1');
  const start =
    side === 'request'
      ? `${e.method} ${path}${http1 ? ` ${version}` : ''}`
      : `${http1 || version.startsWith('HTTP/') ? version : 'HTTP/1.1'} ${e.status} ${e.statusText}`.trimEnd();
  const fields = (side === 'request' ? e.requestHeaders : e.responseHeaders).filter((h) => !h.name.startsWith(':'));
  const text = `${start}\r\n${fields.map((h) => `${h.name}: ${h.value}\r\n`).join('')}\r\n`;
  // One byte per character, as trace events carry bytes (trace/events.ts): UTF-8 first.
  return binaryString(utf8.encode(text));
}

const utf8 = new TextEncoder();

/**
 * The entries as trace events: each request started, dispatched on its connection (a new connection opens
 * where the HAR gives connect time), sent, answered and finished with the HAR's own timings. Times are ms
 * after the first entry started.
 *
 * Each entry is also a request arrow and a response arrow on its connection (to-recording.ts). A HAR is
 * measured at the client, so both are drawn in the client's time: the request's arrow spans `send`, the
 * response's spans `receive`, from its first byte to its last; the gap between them is `wait`, the server's
 * time and a round trip, which a HAR does not split.
 */
/**
 * The response's sizes, -1 where unknown (HAR 1.2's own "unknown"). Chromium's `_transferSize` is the bytes that
 * crossed the network, head included: where it is given, headers + body add up to it. Else `bodySize`, else
 * `content.size` (the body with any content coding undone, so it can exceed what crossed the network: the best left).
 */
function responseSizes(res: Json | undefined, content: Json, transfer: unknown): { responseBodySize: number; responseHeadersSize: number } {
  const known = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const headers = known(res?.headersSize) ? res.headersSize : -1;
  if (known(transfer)) {
    const head = headers >= 0 && headers <= transfer ? headers : 0;
    return { responseHeadersSize: head, responseBodySize: transfer - head };
  }
  const body = known(res?.bodySize) ? res.bodySize : known(content.size) ? content.size : -1;
  return { responseHeadersSize: headers, responseBodySize: body };
}

export function harEvents(entries: readonly HarEntrySummary[]): TraceEvent[] {
  type Timed = { at: number; order: number; event: Omit<TraceEvent, 'seq' | 'at'> };
  const timed: Timed[] = [];
  const connections = new Map<string, string>();
  let opened = 0;
  const minusOneForReuse = entries.some((e) => e.timings.connect < 0);
  const writes: { connectionId: string; from: 'client' | 'server'; data: string; at: number; arrives: number }[] = [];
  let order = 0;
  const push = (at: number, event: Record<string, unknown>) => timed.push({ at, order: order++, event: event as unknown as Timed['event'] });
  for (const e of entries) {
    const requestId = `r${e.index + 1}`;
    const t = e.timings;
    const pos = (n: number) => Math.max(0, n);
    const dispatchedAt = e.startedAt + pos(t.blocked) + pos(t.dns);
    const sentAt = dispatchedAt + pos(t.connect) + t.send;
    // An entry with a connect time opened a connection of its own, even where an earlier one had the same key
    // (HTTP/1.0 closes after each response); the entries after it reuse the newest. HAR 1.2 says -1 for a reused
    // connection, as Chromium writes; Firefox and nghttp write 0 there, so 0 is a new connection only in a HAR
    // that uses -1 for reuse.
    const known = connections.get(e.connection);
    const fresh = known === undefined || t.connect > 0 || (t.connect === 0 && minusOneForReuse);
    const connectionId = fresh ? `c${++opened}` : known;
    if (fresh) connections.set(e.connection, connectionId);
    push(e.startedAt, { type: 'request-started', requestId, method: e.method, url: e.url, httpVersion: versionLabel(e.httpVersion) });
    if (fresh) {
      let address = e.connection;
      try {
        address = new URL(e.url).host;
      } catch {}
      push(dispatchedAt, { type: 'connection-opening', connectionId, from: 'client', to: 'server', address, rtt: 0 });
      push(dispatchedAt + pos(t.connect), { type: 'connection-opened', connectionId, tcpMs: pos(t.connect) - pos(t.ssl) });
    }
    push(dispatchedAt, { type: 'request-dispatched', requestId, connectionId, reused: t.connect < 0, pipelineDepth: 0 });
    let path = e.url;
    try {
      const u = new URL(e.url);
      path = u.pathname + u.search;
    } catch {}
    push(sentAt, { type: 'request-sent', requestId, connectionId, startLine: `${e.method} ${path} ${e.httpVersion}`, headers: e.requestHeaders });
    push(sentAt + t.wait, { type: 'response-started', requestId, connectionId });
    writes.push({ connectionId, from: 'client', data: headText(e, 'request', path), at: sentAt - t.send, arrives: sentAt });
    writes.push({ connectionId, from: 'server', data: headText(e, 'response', path), at: sentAt + t.wait, arrives: sentAt + t.wait + t.receive });
    push(e.startedAt + e.time, {
      type: 'request-finished',
      requestId,
      connectionId,
      startedAt: e.startedAt,
      timings: t,
      serverIPAddress: e.connection,
      reused: t.connect < 0,
      request: {
        method: e.method,
        url: e.url,
        httpVersion: versionLabel(e.httpVersion),
        headers: e.requestHeaders,
        headersSize: -1,
        bodySize: e.requestBody.length,
      },
      response: {
        status: e.status,
        statusText: e.statusText,
        httpVersion: versionLabel(e.httpVersion),
        headers: e.responseHeaders,
        headersSize: e.responseHeadersSize,
        bodySize: e.responseBodySize,
        mimeType: e.mimeType,
        body: '',
      },
    });
  }
  // Offsets follow the order the bytes went out on each connection, which is not the entries' order when
  // requests overlap on one HTTP/2 connection.
  const writer = new MessageWriter();
  writes.sort((a, b) => a.at - b.at);
  for (const w of writes)
    for (const event of writer.write(w.connectionId, w.from, w.data, w.at, w.arrives)) push(event.at, event as unknown as Record<string, unknown>);
  timed.sort((a, b) => a.at - b.at || a.order - b.order);
  return timed.map(({ at, event }, i) => ({ ...event, seq: i + 1, at }) as TraceEvent);
}
