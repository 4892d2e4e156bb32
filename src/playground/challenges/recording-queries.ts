/**
 * Questions a challenge's check asks of a run: what the Recording holds (recording/model.ts), read as
 * requests, frames, parsed messages, query attempts and console lines. Pure functions of the recording; they
 * never see the reader's code, only what it did.
 */
import type { TraceEvent } from 'roundtrip/wire';
import type { MutationSummary, QuerySummary, Recording, SerializedInstrumentationEvent, WireSource } from '../recording/model';

type WireEvent<T extends TraceEvent['type']> = Extract<TraceEvent, { type: T }>;

/** Every simulation the run created, in creation order. */
export function simulations(recording: Recording): readonly WireSource[] {
  return recording.sources.filter((s): s is WireSource => s.kind === 'wire');
}

/** Every wire event of one type, across simulations (or in the one given). */
export function wireEvents<T extends TraceEvent['type']>(recording: Recording, type: T, source?: WireSource): WireEvent<T>[] {
  const sources = source ? [source] : simulations(recording);
  return sources.flatMap((s) => s.events.filter((e): e is WireEvent<T> => e.type === type));
}

/** A request the client finished (its response complete), with when it began and ended in virtual ms. */
export interface FinishedRequest {
  readonly simulation: string;
  readonly method: string;
  /** The URL's path and query ('/item/3'). */
  readonly path: string;
  readonly status: number;
  readonly httpVersion: string;
  readonly startedAt: number;
  /** When its last response byte arrived. */
  readonly endedAt: number;
  /** From the request leaving to its last byte (HAR send + wait + receive): the connection's setup left out. */
  readonly responseTime: number;
  /** Time spent queued for a free connection (HAR `blocked`), 0 when none. */
  readonly blocked: number;
  readonly reused: boolean;
  readonly connectionId: string;
  /** The response's header fields as the client received them. */
  readonly responseHeaders: readonly { readonly name: string; readonly value: string }[];
}

function pathOf(url: string): string {
  const at = url.indexOf('://');
  if (at < 0) return url;
  const slash = url.indexOf('/', at + 3);
  return slash < 0 ? '/' : url.slice(slash);
}

/** The run's finished requests, in the order they finished; `path` keeps those whose path starts with it. */
export function finishedRequests(recording: Recording, path?: string): FinishedRequest[] {
  const out: FinishedRequest[] = [];
  for (const source of simulations(recording)) {
    for (const e of wireEvents(recording, 'request-finished', source)) {
      const t = e.timings;
      const spent = [t.blocked, t.connect, t.send, t.wait, t.receive].reduce((sum, v) => sum + Math.max(0, v), 0);
      const request: FinishedRequest = {
        simulation: source.id,
        method: e.request.method,
        path: pathOf(e.request.url),
        status: e.response.status,
        httpVersion: e.request.httpVersion,
        startedAt: e.startedAt,
        endedAt: e.startedAt + spent,
        blocked: Math.max(0, t.blocked),
        responseTime: Math.max(0, t.send) + Math.max(0, t.wait) + Math.max(0, t.receive),
        reused: e.reused,
        connectionId: e.connectionId,
        responseHeaders: e.response.headers,
      };
      if (path === undefined || request.path.startsWith(path)) out.push(request);
    }
  }
  return out;
}

/** When the last of these requests' last byte arrived, measured from the first one's start; 0 for none. */
export function loadTime(requests: readonly FinishedRequest[]): number {
  if (requests.length === 0) return 0;
  const start = Math.min(...requests.map((r) => r.startedAt));
  return Math.max(...requests.map((r) => r.endedAt)) - start;
}

/** Connections the client opened (TCP or QUIC), counted by their opening events. */
export function connectionsOpened(recording: Recording, source?: WireSource): number {
  return (
    wireEvents(recording, 'connection-opening', source).filter((e) => e.from === 'client').length +
    wireEvents(recording, 'quic-connection-opening', source).length
  );
}

/** HTTP/2 frames as their sender sent them (each frame is traced once sent and once received). */
export function framesSent(recording: Recording, { type, by }: { type?: string; by?: 'client' | 'server' } = {}): WireEvent<'h2-frame'>[] {
  return wireEvents(recording, 'h2-frame').filter(
    (f) => f.direction === 'sent' && (type === undefined || f.frameType === type) && (by === undefined || f.side === by),
  );
}

/** HTTP/1 messages as the receiving hop parsed them off the wire ('proxy' for what a proxy read). */
export function parsedMessages(recording: Recording, kind?: 'request' | 'response'): WireEvent<'message-parsed'>[] {
  return wireEvents(recording, 'message-parsed').filter((m) => kind === undefined || m.kind === kind);
}

/** Where a parser refused its input: the error, and the line and column (1-based) of the byte it stopped at. */
export interface LocatedProtocolError {
  readonly by: 'client' | 'proxy' | 'server';
  readonly code: string;
  readonly message: string;
  readonly status: number | null;
  readonly line: number;
  readonly column: number;
}

/**
 * The HTTP/1 protocol errors of the run, located in the bytes the refusing side had received on that connection
 * (`offset` counts from the first of them). Lines end at LF, as a reader counts them in the Messages view.
 */
export function protocolErrors(recording: Recording): LocatedProtocolError[] {
  const out: LocatedProtocolError[] = [];
  for (const source of simulations(recording)) {
    for (const e of wireEvents(recording, 'protocol-error', source)) {
      const side = e.by === 'client' ? 'client' : 'server';
      const input = wireEvents(recording, 'bytes-received', source)
        .filter((b) => b.connectionId === e.connectionId && b.by === side)
        .map((b) => b.data)
        .join('');
      const before = input.slice(0, e.offset ?? input.length);
      const lastLf = before.lastIndexOf('\n');
      out.push({
        by: e.by,
        code: e.code,
        message: e.message,
        status: e.status,
        line: before.split('\n').length,
        column: before.length - lastLf,
      });
    }
  }
  return out;
}

// --- the query side -----------------------------------------------------------------------------

/**
 * Whether a query key starts with `prefix`, element by element (as TanStack's filters match an array key by
 * its first elements; here each element compares as JSON, which is all a recorded key holds).
 */
function keyStartsWith(key: readonly unknown[], prefix: readonly unknown[] | undefined): boolean {
  return prefix === undefined || (prefix.length <= key.length && prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i])));
}

/**
 * Instrumentation events about queries whose key starts with `key`, across every QueryClient of the run; all
 * query events when `key` is left out.
 */
export function queryEvents(recording: Recording, key?: readonly unknown[]): SerializedInstrumentationEvent[] {
  const out: SerializedInstrumentationEvent[] = [];
  for (const source of recording.sources) {
    if (source.kind !== 'query') continue;
    for (const e of source.events) {
      if (e.kind === 'instrumentation' && e.event.subject.kind === 'query' && keyStartsWith(e.event.subject.queryKey, key)) out.push(e.event);
    }
  }
  return out;
}

/** How many times a query's function was called: the first attempt of each fetch plus each retry. */
export function queryAttempts(recording: Recording, key?: readonly unknown[]): number {
  const events = queryEvents(recording, key);
  return events.filter((e) => e.type === 'fetchStart').length + events.filter((e) => e.type === 'retry').length;
}

/** The fetches a query started (not its retries). */
export function queryFetches(recording: Recording, key?: readonly unknown[]): number {
  return queryEvents(recording, key).filter((e) => e.type === 'fetchStart').length;
}

/** Each retry's delay in ms, in order. */
export function retryDelays(recording: Recording, key?: readonly unknown[]): number[] {
  return queryEvents(recording, key).flatMap((e) => (e.type === 'retry' ? [e.delay] : []));
}

/** The last summary the devtools had of each query whose key starts with `key` (status, data preview...). */
export function querySummaries(recording: Recording, key?: readonly unknown[]): QuerySummary[] {
  const last = new Map<string, QuerySummary>();
  for (const source of recording.sources) {
    if (source.kind !== 'query') continue;
    for (const e of source.events) if (e.kind === 'query' && keyStartsWith(e.query.queryKey, key)) last.set(e.query.queryHash, e.query);
  }
  return [...last.values()];
}

/** The focus and network changes the query side saw, in order (onlineManager / focusManager). */
export function environmentChanges(recording: Recording): { readonly at: number; readonly online: boolean; readonly focused: boolean }[] {
  return recording.sources.flatMap((s) => (s.kind === 'query' ? s.events.flatMap((e) => (e.kind === 'environment' ? [e] : [])) : []));
}

/**
 * Each observer a query gained, with the query's status at that moment (from the cache notifications before
 * it): whether a mounting component found data or had to wait.
 */
export function mounts(recording: Recording, key?: readonly unknown[]): { readonly at: number; readonly status: string }[] {
  const out: { at: number; status: string }[] = [];
  for (const source of recording.sources) {
    if (source.kind !== 'query') continue;
    const status = new Map<string, string>();
    for (const e of source.events) {
      if (e.kind === 'query') status.set(e.query.queryHash, e.query.status);
      else if (
        e.kind === 'instrumentation' &&
        e.event.type === 'observerAdded' &&
        e.event.subject.kind === 'query' &&
        keyStartsWith(e.event.subject.queryKey, key)
      )
        out.push({ at: e.at, status: status.get(e.event.subject.queryHash) ?? 'pending' });
    }
  }
  return out;
}

/** The successive values a query's data took (as the devtools preview them), each change once, in order. */
export function dataHistory(recording: Recording, key: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const source of recording.sources) {
    if (source.kind !== 'query') continue;
    for (const e of source.events) {
      if (e.kind !== 'query' || !keyStartsWith(e.query.queryKey, key)) continue;
      const text = e.query.data?.text ?? '(no data)';
      if (out.at(-1) !== text) out.push(text);
    }
  }
  return out;
}

/** The mutations' last summaries (status, error...), in the order they were created. */
export function mutationSummaries(recording: Recording): MutationSummary[] {
  const last = new Map<number, MutationSummary>();
  for (const source of recording.sources) {
    if (source.kind !== 'query') continue;
    for (const e of source.events) if (e.kind === 'mutation') last.set(e.mutation.mutationId, e.mutation);
  }
  return [...last.values()];
}

/** Virtual ms as a reader reads them: '812 ms', '1,204 ms'. */
export function ms(value: number): string {
  return `${Math.round(value).toLocaleString('en')} ms`;
}
