/**
 * The HTTP/1.x server side of one real TCP connection: the sans-I/O `Http1Connection` (role 'server') does
 * all parsing, framing and keep-alive bookkeeping; this file only moves bytes between it and the socket,
 * hands each complete request to the Dispatch, and writes the answer back through the same engine.
 *
 * Connection rules, as on the simulated network (src/wire/server/server.ts):
 * - Requests are answered one at a time in arrival order, so pipelined requests (RFC 9112 §9.3.2) get
 *   their responses in order; the engine buffers the ones behind.
 * - HTTP/1.1 persists unless either side says `Connection: close`; HTTP/1.0 persists only when the request
 *   says `Connection: keep-alive`, and the reply then says so too, with `Keep-Alive: timeout, max`
 *   (RFC 2068 §19.7.1). After `max` requests the reply says `Connection: close`.
 * - A connection idle between requests for the keep-alive timeout is closed (RFC 9112 §9.5); so is one
 *   stalled that long inside a body. A header section must arrive whole within the engine's
 *   `headerTimeoutMs` of its first byte (default 10 s), else 408 and close: a total deadline, not a gap
 *   between bytes. A body over `maxBodyBytes` gets 413, a request-target over `maxTargetBytes` 414.
 * - A request the engine cannot parse gets the status its WireError suggests (400, or 431 for a header
 *   section that is too large, 501 for an unknown transfer coding, ...), `Connection: close`, and the
 *   connection ends: after a framing error nobody knows where the next request starts (RFC 9112 §2.2).
 * - `Expect: 100-continue` is answered with 100 (Continue) as soon as the head is read (RFC 9110 §10.1.1).
 * - HTTP/0.9: the body alone, then close; an error becomes a small HTML page, as 0.9 has no status line.
 * - The reply carries the request's version (1.0 answers 1.0), like the simulator's server.
 */
import { joinBytes as concat } from '../bytes';
import { reasonPhrase } from '../data/index';
import { sameFieldName as sameName } from '../data/headers';
import { WireError } from '../errors';
import {
  Http1Connection,
  type Http1ConnectionOptions,
  type Http1Event,
  type Http1Header,
  type Http1RequestEvent,
  http1Data,
  http1EndOfMessage,
  http1Informational,
  http1Response,
  decodeHttp1TransferCodings,
} from '../http1/index';
import type { WireRequest } from '../net/index';
import type { Dispatch, Outcome, Reply } from './dispatch';
import type { ProtocolEnv, ServerProtocol } from './protocol';
import type { Transport } from './transport';

export interface Http1ServerOptions {
  /**
   * Engine options: strict parsing (default true), the header-section limit (16 KiB), request-target
   * (8 KiB, else 414) and body (1 MiB, else 413) limits, the header-read deadline (10 s, else 408) and
   * the idle timeout (default: the keep-alive timeout).
   */
  readonly engine?: Omit<Http1ConnectionOptions, 'role'>;
  /**
   * Persistent connections: idle timeout in real ms and the requests one connection carries (`Infinity`:
   * no limit, as node:http's default); false closes after each response.
   */
  readonly keepAlive?: false | { readonly timeout: number; readonly max: number };
  /** Value of the Server header. */
  readonly name?: string;
}

type ReadResult =
  | { readonly kind: 'request'; readonly request: WireRequest }
  | { readonly kind: 'closed' }
  | { readonly kind: 'error'; readonly error: WireError };

const EMPTY = new Uint8Array(0);
/** #parse's answer when the request is not whole yet. */
const NEED_DATA = Symbol('need-data');
const CLOSED: ReadResult = { kind: 'closed' };
/**
 * Output the socket has not taken yet, above which the session waits for it before reading the next request.
 * Below it, an answer is queued and the next request read at once (the write callback is a turn later).
 */
const WRITE_HIGH_WATER = 64 * 1024;
/** The end of a message without trailers: an event is immutable, so every response can send the same one. */
const END = http1EndOfMessage();
/** The deadlines' clock: monotonic ms (env.now is the wall clock for the Date header, and tests pin it). */
const monotonic = (): number => performance.now();
/** The simulator's server default (src/wire/server/server.ts), used when keep-alive is off. */
const DEFAULT_TIMEOUT_MS = 5000;
const encoder = new TextEncoder();

/**
 * The Date field value for wall-clock ms `now` (RFC 9110 §6.6.1). It has one-second resolution, so the text
 * is made once per second rather than once per response.
 */
let dateSecond = Number.NaN;
let dateText = '';
const httpDate = (now: number): string => {
  const second = Math.floor(Math.trunc(now) / 1000);
  if (second !== dateSecond) {
    dateText = new Date(now).toUTCString();
    dateSecond = second;
  }
  return dateText;
};

/**
 * Small answers are joined into views of a shared slab, as Node's Buffer pool does: a fresh typed array
 * per response (its own backing store) cost more than the copy. Only for bytes handed to the socket,
 * which lets go of them once written; a request body, which a handler may keep, gets its own array.
 */
const SLAB_BYTES = 64 * 1024;
const SLAB_MAX_PIECE = 4 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabUsed = 0;
/** `n` bytes for the socket: a view of the slab when small, else an array of their own. */
const fromSlab = (n: number): Uint8Array => {
  if (n > SLAB_MAX_PIECE) return new Uint8Array(n);
  if (slabUsed + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  // A view made from the buffer, not subarray(): subarray looks up the species constructor on every call.
  const out = new Uint8Array(slab.buffer, slabUsed, n);
  // Keep pieces 8-byte aligned, as Node's pool does.
  slabUsed += (n + 7) & ~7;
  return out;
};
const joinForSocket = (chunks: readonly Uint8Array[]): Uint8Array => {
  if (chunks.length === 1) return chunks[0]!;
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = fromSlab(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** The comma-separated elements of every field named `name` (lowercase), trimmed and lowercased. */
const tokens = (headers: readonly Http1Header[], name: string): readonly string[] => {
  // Loops, not filter/flatMap/map: this runs on every request, and the field is usually absent.
  let out: string[] | undefined;
  for (const h of headers) {
    if (!sameName(h.name, name)) continue;
    for (const t of h.value.split(',')) (out ??= []).push(t.trim().toLowerCase());
  }
  return out ?? NO_TOKENS;
};
const NO_TOKENS: readonly string[] = [];

/** Whether a field named `name` (lowercase) is present at all. */
const has = (headers: readonly Http1Header[], name: string): boolean => {
  for (const h of headers) if (sameName(h.name, name)) return true;
  return false;
};

/**
 * RFC 9110 §10.1.1: a client that sends `Expect: 100-continue` may hold its body back until it sees 100
 * (Continue). Every request here is accepted on its head alone, so the 100 goes out at once; a request
 * with no body to hold back gets none.
 */
const expectsContinue = (req: Http1RequestEvent): boolean =>
  req.version === '1.1' &&
  has(req.headers, 'expect') &&
  tokens(req.headers, 'expect').includes('100-continue') &&
  (tokens(req.headers, 'transfer-encoding').length > 0 || tokens(req.headers, 'content-length').some((v) => v !== '0'));

/** Fields the protocol owns: a handler's value for them would contradict the framing or the persistence. */
const PROTOCOL_FIELDS = /^(content-length|transfer-encoding|connection|keep-alive|date|server|trailer)$/i;

/** One connection's HTTP/1 session. `run()` resolves when the connection is over. */
export class Http1ServerSession {
  readonly #conn: Http1Connection;
  readonly #transport: Transport;
  readonly #dispatch: Dispatch;
  readonly #env: ProtocolEnv;
  readonly #options: Http1ServerOptions;
  #served = 0;
  #eof = false;
  /**
   * One deadline timer per connection, re-armed lazily: each wait for bytes only moves `#waitUntil` (a
   * monotonic time), and the timer, when it fires early, re-arms itself for what is left. A timer and a
   * Promise.race per read were a measurable part of a request's cost.
   */
  #timer: unknown;
  /** When the armed timer fires (monotonic ms); Infinity when none is armed. */
  #timerAt = Infinity;
  #waitUntil = Infinity;
  #waiting = false;
  /** The request being read: its head, body pieces and transfer codings, kept across waits for bytes. */
  #head: Http1RequestEvent | undefined;
  #body: Uint8Array[] = [];
  #codings: readonly string[] | undefined;

  constructor(transport: Transport, dispatch: Dispatch, env: ProtocolEnv, options: Http1ServerOptions = {}) {
    // The keep-alive timeout is the engine's idle deadline unless the engine options set one.
    const idle = options.keepAlive ? options.keepAlive.timeout : DEFAULT_TIMEOUT_MS;
    // Nothing here takes the fired transitions, so the engine keeps none: kept, a keep-alive connection's
    // list grew by eight records a request (a GET answered with a body) as long as it stayed open.
    this.#conn = new Http1Connection({ idleTimeoutMs: idle, ...options.engine, role: 'server', allocate: fromSlab, recordTransitions: false });
    this.#transport = transport;
    this.#dispatch = dispatch;
    this.#env = env;
    this.#options = options;
  }

  /** The engine, for tests (its states; it keeps no fired transitions). */
  get connection(): Http1Connection {
    return this.#conn;
  }

  async run(): Promise<void> {
    try {
      await this.#serve();
    } finally {
      if (this.#timerAt !== Infinity) this.#env.timers.clearTimeout(this.#timer);
      this.#timerAt = Infinity;
    }
  }

  async #serve(): Promise<void> {
    try {
      for (;;) {
        // Each step below answers at once when it can, and only a wait for bytes (or a delayed answer, a
        // body to decode, a slow handler) costs a promise: awaiting what is already known still took a
        // turn of the microtask queue, and a request passed through five of them.
        let next = this.#parse();
        while (next === NEED_DATA) next = this.#eof ? CLOSED : this.#fed(await this.#receive());
        if (next instanceof Promise) next = await next;
        if (next.kind === 'closed') break;
        if (next.kind === 'error') {
          await this.#refuse(next.error);
          break;
        }
        const decided = this.#dispatch(next.request);
        const outcome = decided instanceof Promise ? await decided : decided;
        if (outcome.kind === 'drop') {
          if (outcome.how === 'reset') this.#transport.reset();
          else this.#transport.end();
          return;
        }
        if (outcome.delayMs > 0 || outcome.slow) await this.#answerLater(next.request, outcome);
        else {
          const bytes = this.#answerBytes(next.request, outcome.reply);
          // Backpressure: the next request is read only once a peer that is not reading has let the
          // socket take what we sent, so a client pipelining without reading cannot fill our memory.
          // Below the mark the answer is only queued: no promise, and no callback from the socket.
          const transport = this.#transport;
          if (transport.send !== undefined && (transport.backlog ?? Infinity) + bytes.length <= WRITE_HIGH_WATER) transport.send(bytes);
          else await transport.write(bytes);
        }
        // The engine's settle rules decide persistence from what was sent and received (RFC 9112 §9.3).
        if (this.#conn.ourState !== 'IDLE' && this.#conn.ourState !== 'SEND_RESPONSE') break;
      }
      this.#transport.end();
    } catch (e) {
      // A socket error (the peer reset) or an engine refusal we did not expect: nothing sensible to send.
      this.#transport.reset();
      if (!isSocketError(e)) throw e;
    }
  }

  /** What a wait for bytes brought (bytes, the end, a deadline), fed to the engine, and parsed on. */
  #fed(bytes: Uint8Array | null | 'interrupted' | 'timeout'): ReadResult | typeof NEED_DATA | Promise<ReadResult> {
    this.#waiting = false;
    if (bytes === 'timeout' || bytes === 'interrupted') {
      const expired = this.#conn.expire(monotonic());
      if (expired !== null && expired !== 'idle' && expired.type === 'error') return { kind: 'error', error: expired.error };
      // Idle too long, or stalled inside a body: close without an answer (RFC 9112 §9.5).
      if (expired === 'idle' || this.#conn.deadline(monotonic()) === null) return CLOSED;
      return NEED_DATA;
    }
    if (bytes === null) {
      this.#eof = true;
      this.#conn.receiveEof();
    } else this.#conn.receiveData(bytes);
    return this.#parse();
  }

  /**
   * Reads events from what the engine holds: the whole request once its end is there, NEED_DATA when more
   * bytes must come first (what was read so far is kept), or a promise when its body must be decoded.
   */
  #parse(): ReadResult | typeof NEED_DATA | Promise<ReadResult> {
    for (;;) {
      const step = this.#conn.nextEvent();
      switch (step.type) {
        case 'need-data':
          return NEED_DATA;
        case 'request':
          this.#head = step;
          // The 100 is queued ahead of the answer; the request is read on without waiting for the socket.
          if (expectsContinue(step)) void this.#transport.write(this.#conn.send(http1Informational({ status: 100, reason: 'Continue' })));
          break;
        case 'data':
          this.#body.push(step.data);
          this.#codings ??= step.codings;
          break;
        case 'end-of-message': {
          const h = this.#head!;
          const body = this.#body;
          const codings = this.#codings;
          this.#head = undefined;
          this.#codings = undefined;
          if (body.length > 0) this.#body = [];
          const content = body.length === 0 ? EMPTY : concat(body);
          const request = (content: Uint8Array): ReadResult => ({
            kind: 'request',
            request: { method: h.method, target: h.target, version: h.version, headers: h.headers, body: content },
          });
          // Transfer-Encoding: gzip, chunked: the engine removed chunked; the handler gets the content, never the coded bytes (RFC 9112 §6.1).
          if (codings === undefined || codings.length === 0) return request(content);
          return decodeHttp1TransferCodings(content, codings).then(request, (error: unknown) => {
            if (error instanceof WireError) return { kind: 'error', error } as const;
            throw error;
          });
        }
        case 'error':
          return { kind: 'error', error: step.error };
        // 'paused' means the client proposed a switch we did not take, or sent after its last request;
        // 'connection-closed' is the client's FIN between requests. Either way this connection is done.
        default:
          return CLOSED;
      }
    }
  }

  /**
   * The next bytes of a request, or 'timeout'. The engine keeps two deadlines on the caller's clock: the
   * whole header section within `headerTimeoutMs` of its first byte (408 otherwise, so a client trickling
   * a byte every few seconds cannot hold the connection), and `idleTimeoutMs` between requests. While a
   * body is read, the keep-alive timeout bounds each wait instead (RFC 9112 §9.5).
   */
  #receive(): Promise<Uint8Array | null | 'interrupted' | 'timeout'> {
    const transport = this.#transport;
    const now = monotonic();
    const deadline = this.#conn.deadline(now);
    const until = deadline ? Math.max(now, deadline.at) : now + (this.#options.keepAlive ? this.#options.keepAlive.timeout : DEFAULT_TIMEOUT_MS);
    if (transport.readInterruptible === undefined || transport.interrupt === undefined) return this.#raceRead(until - now);
    this.#waitUntil = until;
    if (until < this.#timerAt) this.#arm(until, now);
    // The caller clears #waiting when the read returns; the timer interrupts only a read that waits.
    this.#waiting = true;
    return transport.readInterruptible();
  }

  /** Arms the connection's timer for monotonic time `at`, replacing one armed for later. */
  #arm(at: number, now: number): void {
    const { timers } = this.#env;
    if (this.#timerAt !== Infinity) timers.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = timers.setTimeout(() => this.#onTimer(), Math.max(0, at - now));
  }

  #onTimer(): void {
    this.#timerAt = Infinity;
    // Between waits nothing is timed: the next wait arms the timer again.
    if (!this.#waiting) return;
    const now = monotonic();
    if (now < this.#waitUntil) this.#arm(this.#waitUntil, now);
    else this.#transport.interrupt!();
  }

  /** #receive for a Transport without readInterruptible: read() raced against a timer of its own. */
  async #raceRead(wait: number): Promise<Uint8Array | null | 'timeout'> {
    const { timers } = this.#env;
    let timer: unknown;
    const expired = new Promise<'timeout'>((resolve) => (timer = timers.setTimeout(() => resolve('timeout'), wait)));
    try {
      return await Promise.race([this.#transport.read(), expired]);
    } finally {
      timers.clearTimeout(timer);
    }
  }

  /** The whole answer at once: head, body and end leave in one buffer, so one write (one system call). */
  #answerNow(request: WireRequest, reply: Reply): Promise<void> {
    return this.#transport.write(this.#answerBytes(request, reply));
  }

  /** The bytes of a whole answer: head, body and end, in one buffer. */
  #answerBytes(request: WireRequest, reply: Reply): Uint8Array {
    this.#served++;
    const bytes: Uint8Array[] = [];
    for (const ev of this.#responseEvents(request, reply)) {
      const b = this.#conn.send(ev);
      if (b.length > 0) bytes.push(b);
    }
    return bytes.length === 0 ? EMPTY : joinForSocket(bytes);
  }

  /** An answer held back by latency, or trickled out slowly. */
  async #answerLater(request: WireRequest, outcome: Extract<Outcome, { kind: 'reply' }>): Promise<void> {
    const { timers } = this.#env;
    const sleep = (ms: number) => new Promise<void>((resolve) => timers.setTimeout(resolve, ms));
    if (outcome.delayMs > 0) await sleep(outcome.delayMs);
    const slow = outcome.slow;
    if (!slow) return this.#answerNow(request, outcome.reply);
    this.#served++;
    const events = this.#responseEvents(request, outcome.reply);
    // A slow body: the head at once, then the body in slices, each one a data event of its own.
    for (const ev of events) {
      if (ev.type !== 'data') {
        await this.#transport.write(this.#conn.send(ev));
        continue;
      }
      for (let at = 0; at < ev.data.length; at += slow.bytesPerTick) {
        if (this.#transport.closed) return;
        await sleep(slow.tickMs);
        await this.#transport.write(this.#conn.send(http1Data(ev.data.subarray(at, at + slow.bytesPerTick))));
      }
    }
  }

  /** The response as engine events: head (with framing and persistence fields), body, end. */
  #responseEvents(request: WireRequest, reply: Reply): Http1Event[] {
    if (request.version === '0.9') {
      const body = reply.status >= 400 ? html09(reply.status, `${request.method} ${request.target}`) : reply.body;
      return [http1Response({ status: 200, reason: 'OK', version: '0.9' }), ...(body.length > 0 ? [http1Data(body)] : []), END];
    }
    const keepAlive = this.#options.keepAlive;
    const options = tokens(request.headers, 'connection');
    const remaining = keepAlive ? keepAlive.max - this.#served : 0;
    const persist =
      keepAlive !== false &&
      keepAlive !== undefined &&
      remaining > 0 &&
      !options.includes('close') &&
      (request.version === '1.1' || options.includes('keep-alive'));
    const headers: Http1Header[] = [
      { name: 'Date', value: httpDate(this.#env.now()) },
      { name: 'Server', value: this.#options.name ?? 'roundtrip-sim' },
    ];
    for (const h of reply.headers) if (!PROTOCOL_FIELDS.test(h.name)) headers.push(h);
    // RFC 9110 §8.6: a HEAD reply may announce the Content-Length the GET would have; 204 and 304 carry none.
    const bodiless = request.method === 'HEAD' || reply.status === 204 || reply.status === 304;
    if (reply.status !== 204 && reply.status !== 304) headers.push({ name: 'Content-Length', value: String(reply.body.length) });
    if (!persist) headers.push({ name: 'Connection', value: 'close' });
    else if (request.version === '1.0') {
      headers.push({ name: 'Connection', value: 'keep-alive' });
      const timeout = `timeout=${Math.ceil(keepAlive!.timeout / 1000)}`;
      headers.push({ name: 'Keep-Alive', value: remaining === Infinity ? timeout : `${timeout}, max=${remaining}` });
    }
    const head = http1Response({ status: reply.status, reason: reply.reason, version: request.version, headers });
    return bodiless || reply.body.length === 0 ? [head, END] : [head, http1Data(reply.body), END];
  }

  /** A request we could not parse: the WireError's status, its sentence as the body, then close. */
  async #refuse(error: WireError): Promise<void> {
    const status = error.statusHint ?? 400;
    const text = `${error.message}\n`;
    const head = http1Response({
      status,
      reason: reasonPhrase(status),
      headers: [
        { name: 'Date', value: httpDate(this.#env.now()) },
        { name: 'Server', value: this.#options.name ?? 'roundtrip-sim' },
        { name: 'Content-Type', value: 'text/plain;charset=UTF-8' },
        { name: 'Content-Length', value: String(encoder.encode(text).length) },
        { name: 'Connection', value: 'close' },
      ],
    });
    const bytes = [head, http1Data(encoder.encode(text)), END].map((ev) => this.#conn.send(ev));
    await this.#transport.write(concat(bytes));
  }
}

const html09 = (status: number, detail: string): Uint8Array => {
  const title = `${status} ${reasonPhrase(status)}`;
  return encoder.encode(`<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${detail}</p></body></html>\n`);
};

const isSocketError = (e: unknown): boolean => e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && !('side' in e);

/** HTTP/1.x as a ServerProtocol: it takes every connection no other protocol claims. */
export const http1Protocol = (options: Http1ServerOptions = {}): ServerProtocol => ({
  id: 'http/1.1',
  detect: () => 'yes',
  serve: (transport, dispatch, env) => new Http1ServerSession(transport, dispatch, env, options).run(),
});
