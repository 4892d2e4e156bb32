/**
 * Http1Connection: one HTTP/1.x connection, sans-I/O (ARCHITECTURE.md, 'Engines'). Bytes in with receiveData /
 * receiveEof, events out with nextEvent, events in with send, bytes out as send's return value. Every state
 * change goes through the tables of state.ts, and each row that fires is kept for takeTransitions().
 *
 * The connection owns what the reader and writer cannot know alone: which request a response answers
 * (HEAD and CONNECT change framing), whether the connection persists, and the order of pipelined requests.
 */
import { WireError } from '../errors';
import { isIdempotentMethod } from '../data/methods';
import { localError } from './codes';
import { type Http1Event, type Http1Version, type RequestEvent, type ResponseEvent, fieldValues } from './events';
import { isPersistent } from './framing';
import { Http1Reader, PAUSED, type ReadStep, type ReaderOptions } from './reader';
import {
  type EventTransition,
  type FiredTransition,
  type Http1Guard,
  type Http1Role,
  type Http1State,
  type SettleCondition,
  type SettleRule,
  settleCandidates,
  transitionFor,
} from './state';
import { Http1Writer } from './writer';

export interface Http1ConnectionOptions extends ReaderOptions {
  /** Our role: a 'client' sends requests and reads responses; a 'server' the other way round. */
  readonly role: Http1Role;
  /** Let a client send its next request before the response arrives (RFC 9112 §9.3.2). Default true. */
  readonly pipelining?: boolean;
  /**
   * Server: the whole header section of a request must arrive within this many ms of its first byte, or
   * the request is refused with 408 (Request Timeout, RFC 9110 §15.5.9). A total deadline, not a gap
   * between bytes, so a client trickling one byte at a time (slowloris) cannot hold the connection.
   * Default 10 000; Infinity for none. Time comes from the caller (`deadline`, `expire`).
   */
  readonly headerTimeoutMs?: number;
  /**
   * Server: a persistent connection idle between requests (nothing outstanding, no byte of a next request)
   * is closed after this many ms (RFC 9112 §9.5). Default 5 000, the simulator's keep-alive timeout.
   */
  readonly idleTimeoutMs?: number;
  /**
   * Where the bytes of each head we send are allocated; default a new Uint8Array each. A server writing to
   * a real socket passes a pool (node/http1-server.ts), as a fresh backing store per response was a visible
   * cost there. The bytes returned by `send` must then be handed on, not kept.
   */
  readonly allocate?: (size: number) => Uint8Array;
  /**
   * Keep each fired transition for takeTransitions() (default true: the simulator traces them). A caller
   * that never takes them, a server on a real port, passes false: a keep-alive connection fires seven or
   * eight an exchange, and kept they grow without end over the connection's life.
   */
  readonly recordTransitions?: boolean;
}

export const DEFAULT_HEADER_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;

/** A deadline the connection is waiting under: reading a request head, or idle between requests. */
export interface Http1Deadline {
  readonly phase: 'head' | 'idle';
  /** When it expires, on the caller's clock. */
  readonly at: number;
}

/** A request sent or received whose final response has not been completed yet. */
interface Outstanding {
  readonly method: string;
  readonly version: Http1Version;
  readonly persistent: boolean;
  readonly upgrade: boolean;
}

const other = (r: Http1Role): Http1Role => (r === 'client' ? 'server' : 'client');

/** What the common verbs report (engine.ts): the peer's events, the error that ended the connection, or an idle timeout. */
export type Http1EngineEvent = Exclude<ReadStep, { readonly type: 'need-data' } | { readonly type: 'paused' }> | { readonly type: 'idle-timeout' };
const IDLE_TIMEOUT: Http1EngineEvent = Object.freeze({ type: 'idle-timeout' });

export class Http1Connection {
  readonly ourRole: Http1Role;
  readonly theirRole: Http1Role;
  private readonly st: Record<Http1Role, Http1State> = { client: 'IDLE', server: 'IDLE' };
  private readonly reader: Http1Reader;
  private readonly writer: Http1Writer;
  private readonly pipelining: boolean;
  private readonly outstanding: Outstanding[] = [];
  private fired: FiredTransition[] = [];
  private readonly record: boolean;
  private closeAfterRequest = false;
  private closeAfterResponse = false;
  private persistenceConfirmed = false;
  private switchProposal: 'none' | 'pending' | 'accepted' | 'declined' = 'none';
  private lastRequest: Outstanding | undefined;
  private error: WireError | undefined;
  private readonly headerTimeout: number;
  private readonly idleTimeout: number;
  /** The phase being timed and when the caller first saw it. */
  private waiting: { readonly phase: Http1Deadline['phase']; readonly since: number } | null = null;

  constructor(opts: Http1ConnectionOptions) {
    this.ourRole = opts.role;
    this.theirRole = other(opts.role);
    this.reader = new Http1Reader(opts.role === 'server' ? 'request' : 'response', opts);
    this.writer = new Http1Writer(opts.allocate);
    this.pipelining = opts.pipelining ?? true;
    this.record = opts.recordTransitions ?? true;
    this.headerTimeout = opts.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
    this.idleTimeout = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  }

  /**
   * Server: the deadline running now, or null (client role, a request being answered, a body being read).
   * The engine has no clock: the caller passes its time, and a phase is timed from the first call that
   * sees it, so call this whenever you are about to wait for bytes, and arm one timer for `at`.
   */
  deadline(now: number): Http1Deadline | null {
    const phase = this.waitPhase();
    if (phase === null) {
      this.waiting = null;
      return null;
    }
    if (this.waiting?.phase !== phase) this.waiting = { phase, since: now };
    const limit = phase === 'head' ? this.headerTimeout : this.idleTimeout;
    return limit === Infinity ? null : { phase, at: this.waiting.since + limit };
  }

  /**
   * Server: applies the deadline at `now`. 'idle': the connection has been idle too long; close it, no
   * response owed. An error step: the head did not arrive in time; the connection is failed with
   * `request-timeout` (statusHint 408), answer it and close. null: nothing has expired.
   */
  expire(now: number): 'idle' | ReadStep | null {
    const d = this.deadline(now);
    if (d === null || now < d.at) return null;
    if (d.phase === 'idle') return 'idle';
    const error = new WireError({
      code: 'request-timeout',
      side: 'remote',
      offset: this.reader.offset,
      statusHint: 408,
      message: `The request's header section did not arrive within ${this.headerTimeout} ms of its first byte; a server answers 408 (Request Timeout, RFC 9110 §15.5.9) and closes.`,
    });
    this.reader.abort(error);
    return this.fail(this.theirRole, error);
  }

  private waitPhase(): Http1Deadline['phase'] | null {
    if (this.ourRole !== 'server' || this.st.client !== 'IDLE') return null;
    if (this.reader.inHead) return 'head';
    return this.st.server === 'IDLE' && this.outstanding.length === 0 ? 'idle' : null;
  }

  get states(): Readonly<Record<Http1Role, Http1State>> {
    return { ...this.st };
  }

  get ourState(): Http1State {
    return this.st[this.ourRole];
  }

  get theirState(): Http1State {
    return this.st[this.theirRole];
  }

  /** What lenient mode tolerated in the peer's bytes so far. */
  get tolerated() {
    return this.reader.tolerated;
  }

  /** Bytes received and not yet read into events (the start of a message still arriving, say). */
  get bufferedBytes(): number {
    return this.reader.buffer.length;
  }

  /** Number of requests waiting for (the end of) their response. */
  get pendingRequests(): number {
    return this.outstanding.length;
  }

  /** The transitions that fired since the last call, oldest first. */
  takeTransitions(): FiredTransition[] {
    const out = this.fired;
    this.fired = [];
    return out;
  }

  receiveData(data: Uint8Array): void {
    this.reader.feed(data);
  }

  receiveEof(): void {
    this.reader.feedEof();
  }

  /** After SWITCHED_PROTOCOL: the received bytes that belong to the new protocol. */
  takeTrailingData(): Uint8Array {
    return this.reader.switchProtocols();
  }

  /** The next event from the peer, 'need-data', 'paused', or the error that ended the connection. */
  nextEvent(): ReadStep {
    const them = this.theirRole;
    if (this.st[them] === 'ERROR') return { type: 'error', error: this.error! };
    const wait = this.mustWait();
    if (wait) return wait;
    const head = this.outstanding[0];
    const step = this.reader.next(head ? { method: head.method, version: head.version } : {});
    if (step.type === 'need-data' || step.type === 'paused') return step;
    if (step.type === 'error') return this.fail(them, step.error);
    try {
      this.apply(step, them);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      return this.fail(them, e);
    }
    return step;
  }

  /** Reasons not to read yet (RFC 9110 §7.8: after a proposed switch, the next bytes may not be HTTP/1). */
  private mustWait(): ReadStep | undefined {
    const them = this.st[this.theirRole];
    if (them === 'SWITCHED_PROTOCOL' || them === 'MIGHT_SWITCH_PROTOCOL') return PAUSED;
    if (this.theirRole === 'client') {
      // A request after one that must be answered first (non-idempotent, 1.0 keep-alive, ...) waits its turn.
      if (them === 'DONE') return PAUSED;
      if (them === 'MUST_CLOSE' || them === 'CLOSED') return this.afterClose();
    }
    // A response with no request outstanding is allowed by the table (server IDLE -> SEND_BODY): a 408 or 400
    // on an idle connection. It is read with no method known.
    return undefined;
  }

  /** Bytes after the client's last request: ignore line breaks, flag anything else (RFC 9112 §9.6). */
  private afterClose(): ReadStep | undefined {
    const buf = this.reader.buffer;
    while (buf.length > 0 && (buf.at(buf.offset) === 0x0d || buf.at(buf.offset) === 0x0a)) buf.consume(1);
    if (buf.length === 0) return undefined;
    // Requests pipelined before the client learned that the server closes are nobody's fault: drop them.
    if (!this.closeAfterRequest) {
      buf.consume(buf.length);
      return undefined;
    }
    try {
      this.reader.ctx.violation('data-after-close', buf.offset, 'The client sent more after its last request (RFC 9112 §9.6); those bytes are ignored.');
    } catch (e) {
      return this.fail(this.theirRole, e as WireError);
    }
    buf.consume(buf.length);
    return undefined;
  }

  private fail(role: Http1Role, error: WireError): ReadStep {
    this.error = error;
    if (this.record) this.fired.push({ kind: 'error', role, from: this.st[role], to: 'ERROR', code: error.code });
    this.st[role] = 'ERROR';
    return { type: 'error', error };
  }

  /** Send one event; returns the bytes to write. Throws a local WireError when the event is not allowed. */
  send(event: Http1Event): Uint8Array {
    const us = this.ourRole;
    if (this.st[us] === 'ERROR') throw localError('connection-error', 'This connection already failed; open a new one.');
    try {
      // Check the table first: bytes for an event the state forbids must never be produced.
      const row = this.rowFor(event, us);
      const bytes = this.encode(event);
      this.apply(event, us, row);
      return bytes;
    } catch (e) {
      if (e instanceof WireError) {
        this.error = e;
        if (this.record) this.fired.push({ kind: 'error', role: us, from: this.st[us], to: 'ERROR', code: e.code });
        this.st[us] = 'ERROR';
      }
      throw e;
    }
  }

  private encode(event: Http1Event): Uint8Array {
    switch (event.type) {
      case 'request':
        return this.writer.head(event);
      case 'informational':
        return this.writer.head(event);
      case 'response':
        return this.writer.head(event, this.outstanding[0]?.method);
      case 'data':
        return this.writer.data(event.data);
      case 'end-of-message':
        return this.writer.end(event);
      case 'connection-closed':
        return new Uint8Array(0);
    }
  }

  /** The guard that holds for this event, if any: at most one can (they are for different event types). */
  private guard(event: Http1Event): Http1Guard | undefined {
    const head = this.outstanding[0];
    if (event.type === 'informational' && event.status === 101 && head?.upgrade) return 'upgrade-accepted';
    if (event.type === 'response' && head?.method === 'CONNECT' && event.status < 300) return 'connect-accepted';
    return undefined;
  }

  /** The row the event fires for its sender (on a client request, apply adds the server's). */
  private rowFor(event: Http1Event, by: Http1Role): EventTransition {
    const own = transitionFor(by, this.st[by], event.type, by, this.guard(event));
    if (!own) {
      const msg = `A ${event.type} event is not allowed while the ${by} is in ${this.st[by]} (see the HTTP/1 state table).`;
      if (by === this.ourRole) throw localError('illegal-event', msg);
      return this.reader.ctx.fail(
        event.type === 'response' || event.type === 'informational' ? 'unexpected-response' : 'incomplete-message',
        this.reader.offset,
        msg,
      );
    }
    return own;
  }

  private move(role: Http1Role, row: EventTransition): void {
    if (this.record) this.fired.push({ kind: 'event', role, from: this.st[role], to: row.to, row });
    this.st[role] = row.to;
  }

  /**
   * One event, sent by `by`: bookkeeping, table rows, then the settle rules. `row` is the sender's row when
   * the caller has already looked it up (send checks it before producing bytes), so it is looked up once.
   */
  private apply(event: Http1Event, by: Http1Role, row: EventTransition = this.rowFor(event, by)): void {
    switch (event.type) {
      case 'request': {
        // A request we read was judged while its fields were parsed; one we send is judged here.
        const parsed = by === this.ourRole ? undefined : this.reader.meta?.request;
        const req = parsed ? { method: event.method, version: event.version, ...parsed } : requestFacts(event);
        this.outstanding.push(req);
        this.lastRequest = req;
        if (!req.persistent) this.closeAfterRequest = true;
        if (req.upgrade || req.method === 'CONNECT') this.switchProposal = 'pending';
        const serverRow = transitionFor('server', this.st.server, 'request', 'client');
        if (!serverRow) throw localError('illegal-event', `The server cannot take a request while in ${this.st.server}.`);
        this.move(by, row);
        this.move('server', serverRow);
        break;
      }
      case 'informational':
        // RFC 9110 §15.2.2: 101 only answers an Upgrade; after it the bytes are no longer HTTP/1, so a 101
        // nobody asked for cannot be followed and ends the connection.
        if (event.status === 101 && row.guard !== 'upgrade-accepted') {
          const msg = 'A 101 (Switching Protocols) answered a request that carried no Upgrade (RFC 9110 §15.2.2).';
          if (by === this.ourRole) throw localError('illegal-event', msg);
          this.reader.ctx.fail('unexpected-response', this.reader.offset, msg);
        }
        if (row.guard === 'upgrade-accepted') this.switchProposal = 'accepted';
        this.move(by, row);
        break;
      case 'response':
        this.onFinalResponse(event, row.guard);
        this.move(by, row);
        break;
      case 'end-of-message':
        if (by === 'server') this.outstanding.shift();
        this.move(by, row);
        break;
      default:
        this.move(by, row);
    }
    this.settle();
  }

  private onFinalResponse(event: ResponseEvent, guard: Http1Guard | undefined): void {
    const head = this.outstanding[0];
    const framing = this.ourRole === 'server' ? this.writer.currentFraming : this.reader.meta?.framing;
    const persistent = isPersistent(event.version, event.headers) && framing?.kind !== 'close' && (head?.persistent ?? true);
    if (!persistent) this.closeAfterResponse = true;
    else this.persistenceConfirmed = true;
    if (this.switchProposal === 'pending') this.switchProposal = guard === 'connect-accepted' ? 'accepted' : 'declined';
  }

  private holds(role: Http1Role, when: SettleCondition): boolean {
    switch (when) {
      case 'switch-pending':
        return this.switchProposal === 'pending';
      case 'server-switched':
        return this.st.server === 'SWITCHED_PROTOCOL';
      case 'switch-declined':
        return this.switchProposal === 'declined';
      case 'client-must-close':
        return this.closeAfterRequest || this.closeAfterResponse;
      case 'server-must-close':
        return this.closeAfterResponse;
      case 'peer-closed':
        return this.st[other(role)] === 'CLOSED';
      case 'may-pipeline': {
        const r = this.lastRequest;
        return this.pipelining && r?.persistent === true && isIdempotentMethod(r.method) && (r.version === '1.1' || this.persistenceConfirmed);
      }
      case 'all-answered':
        return this.outstanding.length === 0;
      case 'always':
        return true;
      case 'request-queued':
        return this.outstanding.length > 0;
    }
  }

  private settle(): void {
    // Each rule moves a state forward, and no rule undoes another, so this terminates; the bound is a seatbelt.
    for (let guard = 0; guard < 32; guard++) {
      // The first rule, in SETTLE_RULES order, whose from-state matches and whose condition holds.
      let r: SettleRule | undefined;
      for (const x of settleCandidates(this.st.client, this.st.server)) {
        if (this.holds(x.role, x.when)) {
          r = x;
          break;
        }
      }
      if (!r) return;
      if (this.record) this.fired.push({ kind: 'settle', role: r.role, from: this.st[r.role], to: r.to, rule: r });
      this.st[r.role] = r.to;
      if (r.id === 'client-switch-declined') this.switchProposal = 'none';
    }
  }

  // --- the common engine verbs (src/wire/engine.ts) ---------------------------------------------------

  /** Our role, under the name every engine uses (engine.ts); the same as `ourRole`. */
  get role(): Http1Role {
    return this.ourRole;
  }

  /**
   * Bytes in (engine.ts): feeds `data` (an empty chunk is the peer's EOF, as in h11) at `now`, and returns
   * every event now readable, up to one that needs more bytes or pauses; an error is the last event. The
   * header deadline starts at the first call that sees a head begin, as with `deadline(now)`. Events held
   * back by a pause (a pipelined request waiting for its turn) come out of `nextEvent()` once it lifts.
   */
  receive(data: Uint8Array, now: number): Http1EngineEvent[] {
    if (data.length === 0) this.receiveEof();
    else this.receiveData(data);
    const events: Http1EngineEvent[] = [];
    // Every event but end-of-message and connection-closed consumes at least one byte: the bound is a seatbelt.
    const bound = 2 * this.reader.buffer.length + 4;
    for (let guard = 0; guard < bound; guard++) {
      const step = this.nextEvent();
      if (step.type === 'need-data' || step.type === 'paused') break;
      events.push(step);
      if (step.type === 'error' || step.type === 'connection-closed') break;
    }
    this.deadline(now);
    return events;
  }

  /** Bytes out (engine.ts): always empty. HTTP/1 never speaks on its own; `send(event)` returns the bytes of each event. */
  dataToSend(): Uint8Array[] {
    return [];
  }

  /** Time (engine.ts): when the running deadline (`deadline(now)`) expires, if one is running. */
  nextTimeout(now: number): number | undefined {
    return this.deadline(now)?.at;
  }

  /**
   * Time (engine.ts): `expire(now)` as events: 'idle-timeout' when an idle connection should be closed, the
   * `request-timeout` error when a head came too slowly (answer 408), nothing when nothing expired.
   */
  timeout(now: number): Http1EngineEvent[] {
    const expired = this.expire(now);
    if (expired === null) return [];
    if (expired === 'idle') return [IDLE_TIMEOUT];
    return expired.type === 'need-data' || expired.type === 'paused' ? [] : [expired];
  }
}

const requestFacts = (req: RequestEvent): Outstanding => ({
  method: req.method,
  version: req.version,
  persistent: isPersistent(req.version, req.headers),
  upgrade: fieldValues(req.headers, 'upgrade').length > 0,
});
