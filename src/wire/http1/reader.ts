/**
 * Http1Reader: the receiving half of an HTTP/1 engine, for one direction of one connection. Feed it bytes
 * (and EOF); `next()` returns the next event, 'need-data', 'paused' (the connection switched protocols), or
 * the error that stopped it. No I/O, no clocks: the same bytes always give the same events, whether they
 * arrive whole or one at a time.
 *
 * It knows message syntax and framing. It does not know connection state: whether another message may follow,
 * which request a response answers, or whether an Upgrade was accepted are the connection's business
 * (connection.ts), which passes what it knows in as `ResponseContext`.
 */
import { ParseContext, type Tolerated } from './codes';
import { WireError } from '../errors';
import { ChunkedDecoder } from './chunked';
import { type Http1Event, type Http1Version, type Header, type EndOfMessageEvent, dataEvent } from './events';

const END: EndOfMessageEvent = Object.freeze({ type: 'end-of-message', trailers: Object.freeze([]) });
import { type BodyFraming, persistentBy, requestFraming, responseFraming } from './framing';
import {
  type MutableFacts,
  type RequestLine,
  type StatusLine,
  contentEnd,
  noFacts,
  parseFields,
  parseRequestLine,
  parseStatusLine,
  versionFailsAt,
} from './head';
import { ReceiveBuffer } from './receive-buffer';

const Chunked = ChunkedDecoder;

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;

export interface ReaderOptions {
  /** Reject every ambiguity (default). false: repair what RFC 9112 allows and report it in `tolerated`. */
  readonly strict?: boolean;
  /** Largest header (and trailer) section, start line included. Node and h11 both default to 16 KiB. */
  readonly maxHeaderBytes?: number;
  /** Largest chunk-size line, extensions included (llhttp's CVE-2024-22019 fix bounds these too). */
  readonly maxChunkLineBytes?: number;
  /**
   * Longest request-target; a longer one is refused with 414 (URI Too Long, RFC 9112 §3 and RFC 9110
   * §15.5.15) before the header section limit (431) is reached. Default 8 KiB, RFC 9112 §3's recommended
   * minimum for what a server should support.
   */
  readonly maxTargetBytes?: number;
  /**
   * Largest request body (content, after chunked decoding); a longer one is refused with 413 (Content Too
   * Large, RFC 9110 §15.5.14): at once when Content-Length announces it, or when a chunk size would pass it.
   * Default 1 MiB (nginx's client_max_body_size). Responses are not limited. Infinity for no limit.
   */
  readonly maxBodyBytes?: number;
}

export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
export const DEFAULT_MAX_CHUNK_LINE_BYTES = 4096;
export const DEFAULT_MAX_TARGET_BYTES = 8 * 1024;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Room for the method, spaces and version around a request-target on the request line. */
const REQUEST_LINE_SLACK = 32;

/** What the connection knows about the request a response answers. */
export interface ResponseContext {
  /** Method of the request; 'HEAD' and 'CONNECT' change the framing (RFC 9112 §6.3 steps 1-2). */
  readonly method?: string;
  /** The request was HTTP/0.9: the response is the bare body up to EOF. */
  readonly version?: Http1Version;
}

export type NeedData = { readonly type: 'need-data' };
export type Paused = { readonly type: 'paused' };
export type ReadError = { readonly type: 'error'; readonly error: WireError };
export type ReadStep = Http1Event | NeedData | Paused | ReadError;

export const NEED_DATA: NeedData = Object.freeze({ type: 'need-data' });
export const PAUSED: Paused = Object.freeze({ type: 'paused' });

/** Facts about the message whose head was read last. */
export interface HeadMeta {
  readonly framing: BodyFraming;
  /** RFC 9112 §9.3: may another message follow on this connection, as far as this message is concerned? */
  readonly persistent: boolean;
  /** A request that asks to leave HTTP/1 (CONNECT, or Upgrade): the connection must wait for the answer. */
  readonly proposesSwitch: boolean;
  /**
   * A request's own say, from its version and Connection options alone (RFC 9112 §9.3), and whether it
   * carries Upgrade: what the connection records for it, read while the fields were parsed rather than
   * looked up again. `persistent` may be false where this is true (an HTTP/1.0 request with
   * Transfer-Encoding, whose framing is faulty).
   */
  readonly request?: { readonly persistent: boolean; readonly upgrade: boolean };
  /** Stream offset where the message started. */
  readonly offset: number;
}

/** An HTTP/0.9 request never persists and cannot ask to upgrade. */
const HTTP09_REQUEST = Object.freeze({ persistent: false, upgrade: false });

type Phase = 'head' | 'body' | 'switched' | 'closed' | 'error';

/**
 * A head whose start line is parsed and whose field lines are still arriving. Strict mode checks each field
 * line as soon as it is complete (failFast), so an error already visible is reported at once, at the same
 * offset however the bytes were split.
 */
interface PendingHead {
  readonly line: RequestLine | StatusLine;
  /** Stream offset of the start line's LF. */
  readonly end: number;
  /** Stream offset of the first field line not yet checked. */
  next: number;
  /** Stream offset up to which the unfinished line after `next` holds no LF and no bare CR. */
  scanned: number;
  /** Facts of the lines checked so far (Content-Length lines are judged against the earlier ones). */
  readonly facts: MutableFacts;
}

const CR_AT_STATUS_REASON = 10;

export class Http1Reader {
  readonly buffer = new ReceiveBuffer();
  readonly ctx: ParseContext;
  private readonly maxHead: number;
  private readonly maxChunkLine: number;
  private readonly maxTarget: number;
  private readonly maxBody: number;
  private phase: Phase = 'head';
  private eof = false;
  private error: WireError | undefined;
  private framing: BodyFraming = { kind: 'none' };
  /**
   * Transfer codings other than chunked on the current body (BodyFraming.codings), kept in a field of its own:
   * reading it from the framing, whose shape differs by kind, would cost a polymorphic lookup per event.
   */
  codings: readonly string[] | undefined;
  private remaining = 0;
  private chunked: ChunkedDecoder | undefined;
  /** A start line parsed before the rest of its head arrived (so lenient reports are not repeated). */
  private pendingStart: PendingHead | undefined;
  meta: HeadMeta | undefined;

  constructor(
    readonly reads: 'request' | 'response',
    opts: ReaderOptions = {},
  ) {
    this.ctx = new ParseContext(opts.strict ?? true, reads, (at) => this.buffer.locate(at));
    this.maxHead = opts.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
    this.maxChunkLine = opts.maxChunkLineBytes ?? DEFAULT_MAX_CHUNK_LINE_BYTES;
    this.maxTarget = opts.maxTargetBytes ?? DEFAULT_MAX_TARGET_BYTES;
    this.maxBody = reads === 'request' ? (opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : Infinity;
  }

  /** Part of a message head has arrived but not all of it (a header-read deadline is running). */
  get inHead(): boolean {
    return this.phase === 'head' && (this.pendingStart !== undefined || this.buffer.length > 0);
  }

  /** Ends reading with `error` (a deadline the caller keeps passed); next() reports it from now on. */
  abort(error: WireError): void {
    this.phase = 'error';
    this.error = error;
  }

  get tolerated(): readonly Tolerated[] {
    return this.ctx.tolerated;
  }

  /** Stream offset of the next unread byte. */
  get offset(): number {
    return this.buffer.offset;
  }

  get atEof(): boolean {
    return this.eof;
  }

  feed(data: Uint8Array): void {
    if (this.eof && data.length > 0)
      throw new WireError({ code: 'data-after-eof', side: 'local', message: 'Bytes were fed after EOF; a closed connection receives nothing more.' });
    this.buffer.append(data);
  }

  feedEof(): void {
    this.eof = true;
  }

  /** Stop reading HTTP/1: the bytes left over belong to the protocol switched to (RFC 9110 §7.8). */
  switchProtocols(): Uint8Array {
    this.phase = 'switched';
    return this.buffer.rest();
  }

  next(response: ResponseContext = {}): ReadStep {
    if (this.phase === 'error') return { type: 'error', error: this.error! };
    try {
      return this.step(response);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      this.phase = 'error';
      this.error = e;
      return { type: 'error', error: e };
    }
  }

  private step(response: ResponseContext): ReadStep {
    switch (this.phase) {
      case 'head':
        return this.readHead(response);
      case 'body':
        return this.readBody();
      case 'switched':
        return PAUSED;
      case 'closed':
        return { type: 'connection-closed' };
      case 'error':
        return { type: 'error', error: this.error! };
    }
  }

  private incomplete(what: string): never {
    const at = this.buffer.offset + this.buffer.length;
    return this.ctx.fail('incomplete-message', at, `The connection closed in the middle of ${what} (RFC 9112 §8); the message is incomplete.`);
  }

  private targetTooLong(start: number): never {
    return this.ctx.fail(
      'request-target-too-long',
      start,
      `The request-target is longer than ${this.maxTarget} bytes; a server answers 414 (URI Too Long, RFC 9112 §3).`,
    );
  }

  private bodyTooLarge(at: number, size: string): never {
    return this.ctx.fail(
      'content-too-large',
      at,
      `The request body (${size}) is larger than the ${this.maxBody} bytes this server accepts; it answers 413 (Content Too Large, RFC 9110 §15.5.14).`,
    );
  }

  private tooLarge(start: number): never {
    return this.ctx.fail(
      'header-section-too-large',
      start + this.maxHead,
      `The header section is larger than ${this.maxHead} bytes; a server answers 431 (RFC 6585 §5).`,
    );
  }

  private readHead(response: ResponseContext): ReadStep {
    const buf = this.buffer;
    if (this.reads === 'response' && response.version === '0.9') return this.http09Response();
    if (this.pendingStart === undefined && !this.skipEmptyLines()) return this.waitOrEof(this.reads === 'request' ? 'a request' : 'a response');
    if (buf.length === 0) {
      if (!this.eof) return NEED_DATA;
      this.phase = 'closed';
      return { type: 'connection-closed' };
    }
    const start = buf.offset;
    // 1. The start line. Parsed as soon as it is complete: an HTTP/0.9 request is nothing else.
    if (this.pendingStart === undefined) {
      const lf = buf.indexOfLF(start);
      const lineLength = lf < 0 ? buf.length : lf - start;
      const cap = Math.min(this.maxHead, this.reads === 'request' ? this.maxTarget + REQUEST_LINE_SLACK : Infinity);
      if (this.ctx.strict && (lf < 0 || lineLength > cap)) this.startLineFailFast(start, Math.min(lf < 0 ? buf.offset + buf.length : lf, start + cap));
      // A request line this long can only carry an over-long target: 414, not 431, even before it ends.
      if (this.reads === 'request' && lineLength > this.maxTarget + REQUEST_LINE_SLACK) this.targetTooLong(start);
      if (lineLength > this.maxHead) this.tooLarge(start);
      if (lf < 0) return this.waitOrEof(this.reads === 'request' ? 'a request line' : 'a status line');
      const toStream = start - buf.rawStart;
      const le = contentEnd(buf.raw, buf.rawStart, lf - toStream, this.ctx, toStream);
      const line =
        this.reads === 'request'
          ? parseRequestLine(buf.raw, buf.rawStart, le, this.ctx, toStream, buf)
          : parseStatusLine(buf.raw, buf.rawStart, le, this.ctx, toStream, buf);
      if (this.reads === 'request' && (line as RequestLine).target.length > this.maxTarget) this.targetTooLong(start);
      if (line.version === '0.9') {
        buf.consume(lf - start + 1);
        const req = line as RequestLine;
        this.beginBody({ kind: 'none' }, { framing: { kind: 'none' }, persistent: false, proposesSwitch: false, offset: start, request: HTTP09_REQUEST });
        return { type: 'request', method: req.method, target: req.target, version: '0.9', headers: [] };
      }
      this.pendingStart = { line, end: lf, next: lf + 1, scanned: lf + 1, facts: noFacts() };
    }
    // 2. The rest of the header section, up to the blank line.
    const end = buf.findSectionEnd(this.pendingStart.end);
    if ((end < 0 ? buf.length : end - start) > this.maxHead) {
      // What byte-at-a-time feeding would have found in the bytes before the limit comes first.
      if (this.ctx.strict) this.failFast(this.pendingStart, start + this.maxHead);
      this.tooLarge(start);
    }
    if (end < 0) {
      if (this.ctx.strict) this.failFast(this.pendingStart, buf.offset + buf.length);
      return this.waitOrEof('a header section');
    }
    const toStream = start - buf.rawStart;
    const { line, end: startLineLF } = this.pendingStart;
    this.pendingStart = undefined;
    const { headers, facts } = parseFields(
      buf.raw,
      startLineLF + 1 - toStream,
      end - toStream,
      this.ctx,
      toStream,
      buf,
      buf.lineEnds,
      buf.lineCount > 0 && buf.lineEnds[0] === startLineLF ? buf.lineCount : 0,
      1,
    );
    // Events from the parser are readonly by type, not frozen: Object.freeze on every event and header list
    // cost a quarter of parse time. The builders in events.ts (what we send) still freeze.
    const frozen: readonly Header[] = headers;
    const version = line.version;
    const faultyTE = version === '1.0' && facts.transferEncoding.length > 0;
    if ('method' in line) {
      const framing = requestFraming({ version, facts, offset: start }, this.ctx);
      const proposesSwitch = line.method === 'CONNECT' || facts.upgrade;
      buf.consume(end - start);
      const persistent = persistentBy(version, facts.connection);
      this.beginBody(framing, { framing, persistent: persistent && !faultyTE, proposesSwitch, offset: start, request: { persistent, upgrade: facts.upgrade } });
      return { type: 'request', method: line.method, target: line.target, version, headers: frozen };
    }
    const framing = responseFraming({ version, facts, offset: start, status: line.status }, response.method, this.ctx);
    buf.consume(end - start);
    const persistent = persistentBy(version, facts.connection) && !faultyTE && framing.kind !== 'close';
    const meta: HeadMeta = { framing, persistent, proposesSwitch: false, offset: start };
    if (line.status < 200) {
      this.meta = meta;
      // RFC 9110 §15.2.2: after 101 the bytes that follow belong to the new protocol.
      if (line.status === 101) this.phase = 'switched';
      return { type: 'informational', version, status: line.status, reason: line.reason, headers: frozen };
    }
    this.beginBody(framing, meta);
    return { type: 'response', version, status: line.status, reason: line.reason, headers: frozen };
  }

  /**
   * Strict mode, before a header section is complete: check every field line that is (the ones whose LF is
   * before `limit`, and a line cut by a CR whose next byte is not LF, which no later byte can repair). A line
   * is checked once; its facts carry over, so a second Content-Length fails at its own line. The whole-section
   * parse applies the same checks in the same order, so it reports the same first error.
   */
  private failFast(p: PendingHead, limit: number): void {
    const buf = this.buffer;
    const toStream = buf.offset - buf.rawStart;
    for (;;) {
      const lf = buf.indexOfLF(Math.max(p.next, p.scanned));
      if (lf < 0 || lf >= limit) break;
      parseFields(buf.raw, p.next - toStream, lf + 1 - toStream, this.ctx, toStream, buf, [], 0, 0, p.facts, p.next === p.end + 1);
      p.next = lf + 1;
      p.scanned = p.next;
    }
    // RFC 9112 §2.2: a first field line that starts with whitespace is already invalid at that byte (strict
    // mode rejects it rather than skipping the line), so it fails before the line is complete.
    if (p.next === p.end + 1 && p.next < Math.min(limit, buf.offset + buf.length)) {
      const first = buf.at(p.next);
      if (first === SP || first === HTAB) parseFields(buf.raw, p.next - toStream, p.next + 1 - toStream, this.ctx, toStream, buf, [], 0, 0, p.facts, true);
    }
    const cr = this.bareCr(Math.max(p.next, p.scanned - 1), limit);
    if (cr >= 0) parseFields(buf.raw, p.next - toStream, cr + 2 - toStream, this.ctx, toStream, buf, [], 0, 0, p.facts, p.next === p.end + 1);
    p.scanned = Math.max(p.scanned, limit);
  }

  /**
   * Strict mode, before a start line has its LF (or when it is over a limit): a CR followed by another byte
   * already makes it invalid. The line is judged as if it ended after that byte, which gives the error the
   * whole line would give: a request line splits on the first odd whitespace, and a status line whose CR is
   * in the reason phrase has its version, code and SP in place. A status line with an earlier CR waits.
   */
  private startLineFailFast(start: number, limit: number): void {
    const buf = this.buffer;
    const toStream = start - buf.rawStart;
    if (this.reads === 'request') {
      // A version that already cannot be right fails now ("GET / HTTP/5.6" before its CRLF, RFC 9112 §2.3),
      // judged on the bytes before any CR, which may yet be the line's end.
      let end = Math.min(limit, buf.offset + buf.length);
      for (let i = start; i < end; i++) if (buf.at(i) === CR) end = i;
      const cut = versionFailsAt(buf.raw, buf.rawStart, end - toStream);
      if (cut >= 0) parseRequestLine(buf.raw, buf.rawStart, cut, this.ctx, toStream, buf);
    }
    const cr = this.bareCr(start, limit);
    if (cr < 0) return;
    if (this.reads === 'request') parseRequestLine(buf.raw, buf.rawStart, cr + 2 - toStream, this.ctx, toStream, buf);
    else if (cr - start >= CR_AT_STATUS_REASON) parseStatusLine(buf.raw, buf.rawStart, cr + 2 - toStream, this.ctx, toStream, buf);
  }

  /** Stream offset of the first CR in [from, limit) followed, before `limit`, by a byte other than LF; or -1. */
  private bareCr(from: number, limit: number): number {
    const buf = this.buffer;
    const stop = Math.min(limit, buf.offset + buf.length) - 1;
    for (let i = from; i < stop; i++) if (buf.at(i) === CR && buf.at(i + 1) !== LF) return i;
    return -1;
  }

  private waitOrEof(what: string): ReadStep {
    if (this.eof) {
      if (this.buffer.length === 0 && this.pendingStart === undefined) {
        this.phase = 'closed';
        return { type: 'connection-closed' };
      }
      this.incomplete(what);
    }
    return NEED_DATA;
  }

  /**
   * RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the request-line (some old
   * clients send a CRLF after a POST body). The same robustness applies to a client before a status line:
   * servers send a stray CRLF after a body (or after a 304, which has none). Returns false when it cannot
   * tell yet.
   */
  private skipEmptyLines(): boolean {
    const buf = this.buffer;
    while (buf.length > 0) {
      const first = buf.at(buf.offset);
      if (first === LF) {
        this.ctx.violation('bare-lf', buf.offset, 'Found a bare LF before the start line (RFC 9112 §2.2); send CRLF.');
        buf.consume(1);
      } else if (first === CR) {
        if (buf.length < 2) return this.eof;
        if (buf.at(buf.offset + 1) !== LF) return true;
        buf.consume(2);
      } else return true;
    }
    return true;
  }

  private http09Response(): ReadStep {
    // A 0.9 response has no status line or headers: status 200 is synthesized, as browsers do.
    const meta: HeadMeta = { framing: { kind: 'close' }, persistent: false, proposesSwitch: false, offset: this.buffer.offset };
    this.beginBody(meta.framing, meta);
    return Object.freeze({ type: 'response', version: '0.9', status: 200, reason: 'OK', headers: Object.freeze([] as Header[]) });
  }

  private beginBody(framing: BodyFraming, meta: HeadMeta): void {
    this.meta = meta;
    this.framing = framing;
    this.codings = framing.kind === 'chunked' || framing.kind === 'close' ? framing.codings : undefined;
    this.phase = 'body';
    if (framing.kind === 'content-length' && framing.length > this.maxBody) this.bodyTooLarge(this.buffer.offset, `Content-Length: ${framing.length}`);
    if (framing.kind === 'content-length') this.remaining = framing.length;
    if (framing.kind === 'chunked') this.chunked = new Chunked(this.ctx, this.maxChunkLine, this.maxHead, this.maxBody);
  }

  private endMessage(eom: EndOfMessageEvent = END): EndOfMessageEvent {
    this.chunked = undefined;
    this.phase = this.framing.kind === 'tunnel' ? 'switched' : this.framing.kind === 'close' ? 'closed' : 'head';
    return eom;
  }

  private readBody(): ReadStep {
    const step = this.readFramed();
    const codings = this.codings;
    // RFC 9112 §6.1: bytes under codings other than chunked are not the content yet; say so on each event.
    return codings === undefined || step.type !== 'data' ? step : { type: 'data', data: step.data, codings };
  }

  private readFramed(): ReadStep {
    const buf = this.buffer;
    switch (this.framing.kind) {
      case 'none':
      case 'tunnel':
        return this.endMessage();
      case 'content-length': {
        if (this.remaining === 0) return this.endMessage();
        if (buf.length === 0) return this.eof ? this.incomplete('a body') : NEED_DATA;
        const n = Math.min(this.remaining, buf.length);
        this.remaining -= n;
        return dataEvent(buf.take(n));
      }
      case 'chunked': {
        const ev = this.chunked!.next(buf);
        if (ev === null) return this.eof ? this.incomplete('a chunked body') : NEED_DATA;
        return ev.type === 'end-of-message' ? this.endMessage(ev) : ev;
      }
      case 'close':
        if (buf.length > 0) return dataEvent(buf.take(buf.length));
        return this.eof ? this.endMessage() : NEED_DATA;
    }
  }
}
