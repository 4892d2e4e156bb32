/**
 * The waterfall's model: one row per request, with the phases Chrome DevTools draws, as of any cursor.
 *
 * A finished request uses its 'request-finished' HAR timings exactly (HAR 1.2 `timings`: blocked, dns,
 * connect, ssl, send, wait, receive; `connect` includes `ssl`, so the TCP part is connect - ssl). A request
 * still in progress at the cursor is rebuilt from the events seen so far (started, dispatched, connection
 * opened, TLS ready, sent, first response byte) and drawn up to the cursor's time, the way DevTools grows a
 * bar while the request is live.
 */
import type { TraceEvent } from 'roundtrip/wire';

export type Phase = 'blocked' | 'dns' | 'connect' | 'ssl' | 'send' | 'wait' | 'receive';

export const PHASES: readonly { readonly phase: Phase; readonly label: string; readonly help: string }[] = [
  { phase: 'blocked', label: 'Queueing / stalled', help: 'waiting for a connection slot or for the connection to be free' },
  { phase: 'dns', label: 'DNS lookup', help: 'resolving the host name (HAR timings.dns)' },
  { phase: 'connect', label: 'Initial connection', help: 'TCP handshake (or CONNECT tunnel) of a new connection' },
  { phase: 'ssl', label: 'TLS', help: 'TLS or QUIC handshake of a new connection' },
  { phase: 'send', label: 'Request sent', help: 'writing the request' },
  { phase: 'wait', label: 'Waiting (TTFB)', help: 'request sent until the first response byte arrived' },
  { phase: 'receive', label: 'Content download', help: 'first to last response byte' },
];

export interface PhaseSpan {
  readonly phase: Phase;
  readonly start: number;
  readonly end: number;
}

/** Everything about one request that does not depend on the cursor, with the event indexes that matter. */
export interface RequestTrack {
  readonly requestId: string;
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly startedAt: number;
  readonly startIndex: number;
  readonly dispatched?: { readonly index: number; readonly at: number; readonly connectionId: string; readonly reused: boolean };
  readonly sent?: { readonly index: number; readonly at: number };
  readonly responseStarted?: { readonly index: number; readonly at: number };
  readonly finished?: { readonly index: number; readonly event: Extract<TraceEvent, { type: 'request-finished' }> };
  readonly failed?: { readonly index: number; readonly at: number; readonly reason: string; readonly message: string };
}

interface ConnectionTrack {
  readonly quic: boolean;
  /** The connection runs TLS (known from the whole trace: it is a property of the connection). */
  tls: boolean;
  opened?: { index: number; at: number };
  tlsReady?: { index: number; at: number };
}

export interface RequestModel {
  readonly requests: readonly RequestTrack[];
  readonly connections: ReadonlyMap<string, ConnectionTrack>;
  readonly duration: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function buildRequests(events: readonly TraceEvent[]): RequestModel {
  const byId = new Map<string, Mutable<RequestTrack>>();
  const requests: Mutable<RequestTrack>[] = [];
  const connections = new Map<string, ConnectionTrack>();
  events.forEach((e, index) => {
    switch (e.type) {
      case 'request-started': {
        const track: Mutable<RequestTrack> = {
          requestId: e.requestId,
          method: e.method,
          url: e.url,
          httpVersion: e.httpVersion,
          startedAt: e.at,
          startIndex: index,
        };
        byId.set(e.requestId, track);
        requests.push(track);
        return;
      }
      case 'request-dispatched': {
        const r = byId.get(e.requestId);
        // A retried request is dispatched again: the latest attempt is the one the bar shows.
        if (r) r.dispatched = { index, at: e.at, connectionId: e.connectionId, reused: e.reused };
        return;
      }
      case 'request-sent': {
        const r = byId.get(e.requestId);
        if (r) r.sent = { index, at: e.at };
        return;
      }
      case 'response-started': {
        const r = byId.get(e.requestId);
        if (r && !r.responseStarted) r.responseStarted = { index, at: e.at };
        return;
      }
      case 'request-finished': {
        const r = byId.get(e.requestId);
        if (r) r.finished = { index, event: e };
        return;
      }
      case 'request-failed': {
        const r = byId.get(e.requestId);
        if (r) r.failed = { index, at: e.at, reason: e.reason, message: e.message };
        return;
      }
      case 'connection-opening':
        connections.set(e.connectionId, { quic: false, tls: false });
        return;
      case 'quic-connection-opening':
        connections.set(e.connectionId, { quic: true, tls: true });
        return;
      case 'handshake': {
        const c = connections.get(e.connectionId);
        if (c && e.protocol !== 'tcp') c.tls = true;
        return;
      }
      case 'connection-opened': {
        const c = connections.get(e.connectionId);
        if (c && !c.opened) c.opened = { index, at: e.at };
        return;
      }
      case 'tls-established': {
        const c = connections.get(e.connectionId);
        if (c && e.side === 'client') c.tlsReady = { index, at: e.at };
        return;
      }
      case 'quic-ready': {
        const c = connections.get(e.connectionId);
        if (c && e.side === 'client') c.tlsReady = { index, at: e.at };
        return;
      }
      default:
        return;
    }
  });
  return { requests, connections, duration: events.length > 0 ? events[events.length - 1]!.at : 0 };
}

/** A request as the waterfall shows it at one moment. */
export interface RequestRow {
  readonly track: RequestTrack;
  readonly state: 'pending' | 'finished' | 'failed';
  readonly status: string;
  readonly protocol: string;
  readonly connectionId: string;
  /** Response headers + body, bytes; undefined until finished. */
  readonly size: number | undefined;
  readonly start: number;
  readonly end: number;
  readonly spans: readonly PhaseSpan[];
}

/** DevTools' Protocol column spelling. */
export function protocolName(httpVersion: string): string {
  switch (httpVersion) {
    case 'HTTP/2':
      return 'h2';
    case 'HTTP/3':
      return 'h3';
    default:
      return httpVersion.toLowerCase();
  }
}

/** Phases from HAR timings, laid end to end from `startedAt` (-1 means "does not apply"). */
export function harSpans(startedAt: number, t: Extract<TraceEvent, { type: 'request-finished' }>['timings']): PhaseSpan[] {
  const spans: PhaseSpan[] = [];
  let at = startedAt;
  const add = (phase: Phase, duration: number) => {
    if (duration > 0) spans.push({ phase, start: at, end: at + duration });
    if (duration > 0) at += duration;
  };
  add('blocked', t.blocked);
  add('dns', t.dns);
  add('connect', t.connect - Math.max(t.ssl, 0));
  add('ssl', t.ssl);
  add('send', t.send);
  add('wait', t.wait);
  add('receive', t.receive);
  return spans;
}

/**
 * The request as of the events before `visible` (an event count) at virtual time `now`; undefined when the
 * request has not started yet.
 */
export function rowAt(model: RequestModel, track: RequestTrack, visible: number, now: number): RequestRow | undefined {
  if (track.startIndex >= visible) return undefined;
  const seen = <T extends { readonly index: number }>(x: T | undefined): T | undefined => (x && x.index < visible ? x : undefined);
  const finished = seen(track.finished);
  const dispatched = seen(track.dispatched);
  if (finished) {
    const f = finished.event;
    const spans = harSpans(f.startedAt, f.timings);
    // HAR's -1 means "unknown" (HAR 1.2): it is neither shown nor added; both unknown is an unknown size.
    const { headersSize, bodySize } = f.response;
    const size = headersSize < 0 && bodySize < 0 ? undefined : Math.max(0, headersSize) + Math.max(0, bodySize);
    return {
      track,
      state: 'finished',
      status: String(f.response.status),
      protocol: protocolName(f.response.httpVersion),
      connectionId: f.connectionId,
      size,
      start: f.startedAt,
      end: spans.length > 0 ? spans[spans.length - 1]!.end : f.startedAt,
      spans,
    };
  }
  const failed = seen(track.failed);
  const until = failed ? failed.at : now;
  const spans: PhaseSpan[] = [];
  const push = (phase: Phase, start: number, end: number) => {
    const e = Math.min(end, until);
    if (e > start) spans.push({ phase, start, end: e });
  };
  const sent = seen(track.sent);
  const first = seen(track.responseStarted);
  const t0 = track.startedAt;
  push('blocked', t0, dispatched ? dispatched.at : until);
  if (dispatched) {
    const wrote = sent ? sent.at : until;
    const conn = model.connections.get(dispatched.connectionId);
    if (!dispatched.reused && conn) {
      const opened = seen(conn.opened);
      const ready = seen(conn.tlsReady);
      if (conn.quic) push('ssl', dispatched.at, ready ? ready.at : wrote);
      else {
        const tcpEnd = opened ? opened.at : wrote;
        push('connect', dispatched.at, tcpEnd);
        if (opened && conn.tls) push('ssl', opened.at, ready ? ready.at : wrote);
      }
      const setupEnd = conn.quic || conn.tls ? (ready ? ready.at : wrote) : opened ? opened.at : wrote;
      if (setupEnd < wrote) push('blocked', setupEnd, wrote);
    } else push('blocked', dispatched.at, wrote);
  }
  if (sent) {
    push('wait', sent.at, first ? first.at : until);
    if (first) push('receive', first.at, until);
  }
  return {
    track,
    state: failed ? 'failed' : 'pending',
    status: failed ? `(failed: ${failed.reason})` : '(pending)',
    protocol: protocolName(track.httpVersion),
    connectionId: dispatched?.connectionId ?? '',
    size: undefined,
    start: t0,
    end: Math.max(t0, until),
    spans,
  };
}

/**
 * Every started request as of `visible` events at time `now`. A finished row no longer depends on the cursor:
 * with a `cache` (one per model) it is the same object on every call, so memoized rows skip re-rendering.
 */
export function rowsAt(model: RequestModel, visible: number, now: number, cache?: WeakMap<RequestTrack, RequestRow>): RequestRow[] {
  const rows: RequestRow[] = [];
  for (const track of model.requests) {
    const done = track.finished !== undefined && track.finished.index < visible;
    let row = done ? cache?.get(track) : undefined;
    if (!row) {
      row = rowAt(model, track, visible, now);
      if (row && done) cache?.set(track, row);
    }
    if (row) rows.push(row);
  }
  return rows;
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
