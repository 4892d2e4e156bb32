/**
 * HAR 1.2 export of a trace (W3C "HTTP Archive (HAR) format", the 1.2 draft that browsers implement).
 *
 * One entry per request that finished or failed, in start order. Timings come straight from the
 * 'request-finished' event: `dns` is always -1 (the simulator resolves names instantly), `connect`
 * and `ssl` are -1 on a reused connection, and `ssl` is included in `connect` as HAR 1.2 requires for
 * compatibility, so `time` is the sum of the non-negative phases other than ssl. `connection` carries
 * the simulator's connection id and `serverIPAddress` an RFC 5737 documentation address, which is what
 * Chrome DevTools needs to group requests by connection on import. Extra fields start with `_`.
 * Failed requests appear with status 0 and `_error`, as Chrome exports them.
 */
import type { HeaderList, RequestFailedEvent, RequestFinishedEvent, RequestStartedEvent, TraceEvent } from './events';
import { bytesOf } from './events';

export interface HarHeader {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly encoding?: string };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
    readonly _error?: string;
    /** Chrome: bytes on the wire for this response. */
    readonly _transferSize?: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: {
    readonly blocked: number;
    readonly dns: number;
    readonly connect: number;
    readonly ssl: number;
    readonly send: number;
    readonly wait: number;
    readonly receive: number;
    /** Chrome: the queueing part of blocked. */
    readonly _blocked_queueing?: number;
  };
  readonly serverIPAddress?: string;
  readonly connection?: string;
  /** Chrome: how the request was made; always 'fetch' here. */
  readonly _resourceType: 'fetch';
  readonly _connectionId?: string;
  readonly _requestId: string;
  readonly _reused?: boolean;
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
    readonly comment: string;
  };
}

export interface HarOptions {
  /** Unix ms at virtual time 0. */
  readonly epoch: number;
  readonly creator?: { readonly name: string; readonly version: string };
}

const TEXTUAL = /^(text\/|application\/(json|.*\+json|xml|.*\+xml|javascript|x-www-form-urlencoded)|message\/http)/i;

function headers(list: HeaderList): HarHeader[] {
  return list.map((h) => ({ name: h.name, value: h.value }));
}

function queryString(url: string): HarHeader[] {
  const out: HarHeader[] = [];
  new URL(url).searchParams.forEach((value, name) => out.push({ name, value }));
  return out;
}

function content(body: string, mimeType: string): HarEntry['response']['content'] {
  if (body.length === 0) return { size: 0, mimeType };
  if (TEXTUAL.test(mimeType)) return { size: body.length, mimeType, text: new TextDecoder().decode(bytesOf(body)) };
  return { size: body.length, mimeType, text: btoa(body), encoding: 'base64' };
}

/** Virtual times can carry float noise from bandwidth arithmetic; HAR gets microsecond precision. */
const ms = (x: number): number => (x < 0 ? -1 : Math.round(x * 1000) / 1000);

function finished(e: RequestFinishedEvent, epoch: number): HarEntry {
  const raw = e.timings;
  const t = { blocked: ms(raw.blocked), dns: -1, connect: ms(raw.connect), ssl: ms(raw.ssl), send: ms(raw.send), wait: ms(raw.wait), receive: ms(raw.receive) };
  const time = ms([t.blocked, t.connect, t.send, t.wait, t.receive].filter((x) => x > 0).reduce((a, b) => a + b, 0));
  const location = e.response.headers.find((h) => h.name.toLowerCase() === 'location')?.value ?? '';
  return {
    startedDateTime: new Date(Math.round(epoch + e.startedAt)).toISOString(),
    time,
    request: {
      method: e.request.method,
      url: e.request.url,
      httpVersion: e.request.httpVersion,
      cookies: [],
      headers: headers(e.request.headers),
      queryString: queryString(e.request.url),
      headersSize: e.request.headersSize,
      bodySize: e.request.bodySize,
    },
    response: {
      status: e.response.status,
      statusText: e.response.statusText,
      httpVersion: e.response.httpVersion,
      cookies: [],
      headers: headers(e.response.headers),
      content: content(e.response.body, e.response.mimeType),
      redirectURL: location,
      headersSize: e.response.headersSize,
      bodySize: e.response.bodySize,
      _transferSize: e.response.headersSize + e.response.bodySize,
    },
    cache: {},
    timings: { ...t, _blocked_queueing: t.blocked },
    ...(e.serverIPAddress ? { serverIPAddress: e.serverIPAddress } : {}),
    ...(e.connectionId ? { connection: e.connectionId, _connectionId: e.connectionId } : {}),
    _resourceType: 'fetch',
    _requestId: e.requestId,
    _reused: e.reused,
  };
}

/** Chrome names the versions after their ALPN ids in HAR: 'h2', 'h3'. */
const harVersion = (v: string): string => (v === 'HTTP/2' ? 'h2' : v === 'HTTP/3' ? 'h3' : v);

function failed(e: RequestFailedEvent, started: RequestStartedEvent, epoch: number): HarEntry {
  const blocked = ms(e.at - started.at);
  return {
    startedDateTime: new Date(Math.round(epoch + started.at)).toISOString(),
    time: blocked,
    request: {
      method: started.method,
      url: started.url,
      httpVersion: harVersion(started.httpVersion),
      cookies: [],
      headers: [],
      queryString: queryString(started.url),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: `${e.reason}: ${e.message}`,
    },
    cache: {},
    timings: { blocked, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
    _resourceType: 'fetch',
    _requestId: e.requestId,
  };
}

export function toHar(events: readonly TraceEvent[], options: HarOptions): Har {
  const started = new Map<string, RequestStartedEvent>();
  const entries: { at: number; seq: number; entry: HarEntry }[] = [];
  for (const e of events) {
    if (e.type === 'request-started') started.set(e.requestId, e);
    if (e.type === 'request-finished') entries.push({ at: e.startedAt, seq: e.seq, entry: finished(e, options.epoch) });
    if (e.type === 'request-failed') {
      const s = started.get(e.requestId);
      if (s) entries.push({ at: s.at, seq: e.seq, entry: failed(e, s, options.epoch) });
    }
  }
  entries.sort((a, b) => a.at - b.at || a.seq - b.seq);
  return {
    log: {
      version: '1.2',
      creator: options.creator ?? { name: 'Roundtrip wire simulator', version: '0.1.0' },
      entries: entries.map((x) => x.entry),
      comment: 'Virtual time: timings are simulated, not measured.',
    },
  };
}
