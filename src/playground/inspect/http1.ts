/**
 * Raw HTTP/1.x as pasted or dropped: a request, a response, or a whole conversation (requests and responses
 * in the order they were captured), cut into the two directions of one connection, read by the engine's own
 * reader in both strict and lenient mode, and run through the engine's connection state table.
 *
 * A text box turns every CR LF into LF (HTML's textarea value normalization), so text that was pasted gets
 * CR LF back in each message head and on the framing lines of a chunked body before it is read (`restoreCrlf`);
 * a dropped file is read as its bytes. Body data is left alone: its length is what Content-Length or the chunk
 * size counts.
 */
import { Http1Connection, Http1Reader, type Http1Event, type Http1FiredTransition, type Http1Version } from 'roundtrip/wire';

export type Direction = 'client' | 'server';

export interface Segment {
  readonly from: Direction;
  readonly bytes: Uint8Array;
  /** Lengths of the messages the segment holds, in order (pipelined requests are one write); absent: one. */
  readonly messages?: readonly number[];
}

export interface Located {
  readonly code: string;
  readonly message: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface Verdict {
  readonly from: Direction;
  readonly strict: boolean;
  /** Whole messages read before the end or the error. */
  readonly messages: number;
  readonly error?: Located;
  /** The input ends inside a message (the capture stopped there; a connection would wait for more). */
  readonly incomplete: boolean;
  /** What lenient mode let through (strict mode rejects the first of these). */
  readonly tolerated: readonly Located[];
  /** Of `messages`, how many are a head whose body the capture left out (curl -v prints no bodies). */
  readonly bodiesLeftOut?: number;
}

export interface MachineStep {
  /** Index of the segment after which the rows fired. */
  readonly after: number;
  readonly machine: 'http1-client' | 'http1-server';
  readonly from: string;
  readonly input: string;
  readonly to: string;
}

const LF = 0x0a;
const CR = 0x0d;

/** Line and column (1-based) of byte `offset`, counting LF as the line break. */
export function locate(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, bytes.length);
  for (let i = 0; i < end; i++) {
    if (bytes[i] === LF) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

const startsWithStatusLine = (bytes: Uint8Array, at: number): boolean =>
  bytes[at] === 0x48 && bytes[at + 1] === 0x54 && bytes[at + 2] === 0x54 && bytes[at + 3] === 0x50 && bytes[at + 4] === 0x2f;

/** Index just past the empty line that ends the head starting at `from` (LF LF or CR LF CR LF), or -1. */
function headEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] !== LF) continue;
    if (bytes[i + 1] === LF) return i + 2;
    if (bytes[i + 1] === CR && bytes[i + 2] === LF) return i + 3;
  }
  return -1;
}

/** The head with a CR before every LF that lacks one. */
function crlfHead(head: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < head.length; i++) {
    if (head[i] === LF && (i === 0 || head[i - 1] !== CR)) out.push(CR);
    out.push(head[i]!);
  }
  return Uint8Array.from(out);
}

/** A CR was added before each of these LFs (pasted text): counted so the page can say what it assumed. */
export interface Restored {
  heads: number;
  /** Chunk-size lines, the line ends after chunk data, trailer lines and the final empty line (RFC 9112 §7.1). */
  chunkLines: number;
}

const CHUNKED = /^transfer-encoding:[^\n]*\bchunked[ \t]*\r?$/im;
const CHUNK_SIZE = /^[0-9a-fA-F]+(;[^\r\n]*)?\r?$/;

/**
 * The chunked body that starts at `from`, with CR LF restored on its framing lines (RFC 9112 §7.1: the chunk-size
 * line, the CRLF after each chunk's data, each trailer line and the last empty line). Chunk data is left as it is:
 * its length is what the chunk size counts. Restoring stops where the framing stops making sense, so the reader
 * reports the fault there. Returns the restored bytes, where they end in `input`, and how many lines changed.
 */
function crlfChunked(input: Uint8Array, from: number): { bytes: Uint8Array; end: number; lines: number } {
  const out: Uint8Array[] = [];
  let lines = 0;
  let p = from;
  const line = (): { text: string; end: number } | undefined => {
    const lf = input.indexOf(LF, p);
    if (lf < 0) return undefined;
    return { text: String.fromCharCode(...input.subarray(p, Math.min(lf, p + 200))), end: lf + 1 };
  };
  const push = (end: number) => {
    const hasCr = end - 2 >= p && input[end - 2] === CR;
    out.push(input.subarray(p, hasCr ? end - 2 : end - 1), Uint8Array.of(CR, LF));
    if (!hasCr) lines++;
    p = end;
  };
  for (;;) {
    const sizeLine = line();
    if (!sizeLine || !CHUNK_SIZE.test(sizeLine.text)) break;
    const size = Number.parseInt(sizeLine.text, 16);
    push(sizeLine.end);
    if (size === 0) {
      // Trailer section, then the empty line that ends the message.
      for (;;) {
        const t = line();
        if (!t) break;
        const empty = t.text === '' || t.text === '\r';
        push(t.end);
        if (empty) break;
      }
      break;
    }
    if (p + size > input.length) break;
    out.push(input.subarray(p, p + size));
    p += size;
    if (input[p] === LF) {
      out.push(Uint8Array.of(CR, LF));
      lines++;
      p += 1;
    } else if (input[p] === CR && input[p + 1] === LF) {
      out.push(Uint8Array.of(CR, LF));
      p += 2;
    } else break;
  }
  return { bytes: concat(out), end: p, lines };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Reads the message at the start of `bytes` leniently (so a boundary is found even in a message strict mode
 * rejects) and returns where it ends, or -1 when it does not end (an error, or cut short).
 */
function messageEnd(
  bytes: Uint8Array,
  reads: 'request' | 'response',
  context: { method?: string; version?: Http1Version },
): { end: number; method?: string; version?: Http1Version } {
  const reader = new Http1Reader(reads, { strict: false, maxBodyBytes: Infinity });
  reader.feed(bytes);
  reader.feedEof();
  let method: string | undefined;
  let version: Http1Version | undefined;
  for (let i = 0; i < 100_000; i++) {
    const ev = reader.next(reads === 'response' ? context : {});
    if (ev.type === 'request') {
      method = ev.method;
      version = ev.version;
    }
    if (ev.type === 'informational' || ev.type === 'end-of-message') return { end: reader.offset, ...(method ? { method, version: version! } : {}) };
    if (ev.type === 'error' || ev.type === 'need-data' || ev.type === 'paused' || ev.type === 'connection-closed') return { end: -1 };
  }
  return { end: -1 };
}

/**
 * Cuts a conversation into the segments each side wrote. A message that begins "HTTP/" is the server's; any
 * other is the client's. With `restore`, each head gets CR LF line ends first (the input was pasted text).
 */
export function splitConversation(input: Uint8Array, restore: boolean, restored: Restored = { heads: 0, chunkLines: 0 }): Segment[] {
  const segments: Segment[] = [];
  const methods: { method: string; version: Http1Version }[] = [];
  let p = 0;
  while (p < input.length) {
    const from: Direction = startsWithStatusLine(input, p) ? 'server' : 'client';
    let buffer = input.subarray(p);
    let shift = 0; // bytes `restore` added to the head
    if (restore) {
      const h = headEnd(input, p);
      if (h > 0) {
        const head = crlfHead(input.subarray(p, h));
        if (head.length > h - p) restored.heads++;
        const text = String.fromCharCode(...head.subarray(0, 8192));
        const body = CHUNKED.test(text) ? crlfChunked(input, h) : undefined;
        if (body) restored.chunkLines += body.lines;
        shift = head.length - (h - p) + (body ? body.bytes.length - (body.end - h) : 0);
        buffer = concat([head, ...(body ? [body.bytes] : []), input.subarray(body?.end ?? h)]);
      } else {
        const head = crlfHead(input.subarray(p));
        if (head.length > input.length - p) restored.heads++;
        segments.push({ from, bytes: head });
        break;
      }
    }
    const context = from === 'server' ? (methods.shift() ?? {}) : {};
    const read = messageEnd(buffer, from === 'client' ? 'request' : 'response', context);
    if (from === 'client' && read.method) methods.push({ method: read.method, version: read.version! });
    if (read.end <= 0 || read.end >= buffer.length) {
      segments.push({ from, bytes: buffer });
      break;
    }
    segments.push({ from, bytes: buffer.subarray(0, read.end) });
    p += read.end - shift;
    // Whitespace between pasted messages (a blank line after a body) belongs to no message.
    while (p < input.length && (input[p] === LF || input[p] === CR) && !startsWithStatusLine(input, p)) {
      const next = input.subarray(p).findIndex((b) => b !== LF && b !== CR);
      if (next < 0 || !startsWithStatusLine(input, p + next)) break;
      p += next;
    }
  }
  // Consecutive messages from one side are one write (pipelining): merge them, as the connection sees them.
  return mergeWrites(segments);
}

/** Consecutive segments from one side as one write, keeping where each message ends. */
export function mergeWrites(segments: readonly Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const s of segments) {
    const last = merged.at(-1);
    const lengths = s.messages ?? [s.bytes.length];
    if (last && last.from === s.from)
      merged[merged.length - 1] = { from: s.from, bytes: concat([last.bytes, s.bytes]), messages: [...(last.messages ?? []), ...lengths] };
    else merged.push({ from: s.from, bytes: s.bytes, messages: lengths });
  }
  return merged;
}

/** Both directions' bytes, in order. */
export function directions(segments: readonly Segment[]): Record<Direction, Uint8Array> {
  return {
    client: concat(segments.filter((s) => s.from === 'client').map((s) => s.bytes)),
    server: concat(segments.filter((s) => s.from === 'server').map((s) => s.bytes)),
  };
}

/** The methods of the requests in `bytes`, in order (what each response answers). */
function requestContexts(bytes: Uint8Array): { method: string; version: Http1Version }[] {
  const reader = new Http1Reader('request', { strict: false, maxBodyBytes: Infinity });
  reader.feed(bytes);
  reader.feedEof();
  const out: { method: string; version: Http1Version }[] = [];
  for (let i = 0; i < 100_000; i++) {
    const ev = reader.next();
    if (ev.type === 'request') out.push({ method: ev.method, version: ev.version });
    else if (ev.type !== 'data' && ev.type !== 'end-of-message' && ev.type !== 'informational') break;
  }
  return out;
}

/** What the engine says about one direction, in one mode. */
export function verdict(bytes: Uint8Array, from: Direction, strict: boolean, requests: readonly { method: string; version: Http1Version }[] = []): Verdict {
  const reads = from === 'client' ? 'request' : 'response';
  const reader = new Http1Reader(reads, { strict, maxBodyBytes: Infinity });
  reader.feed(bytes);
  let messages = 0;
  let error: Located | undefined;
  let incomplete = false;
  for (let i = 0; i < 100_000; i++) {
    const ev = reader.next(reads === 'response' ? (requests[messages] ?? {}) : {});
    if (ev.type === 'end-of-message') messages++;
    else if (ev.type === 'error') {
      const where = locate(bytes, ev.error.offset);
      error = {
        code: ev.error.code,
        message: ev.error.message,
        offset: ev.error.offset,
        line: ev.error.line ?? where.line,
        column: ev.error.column ?? where.column,
      };
      break;
    } else if (ev.type === 'need-data') {
      // The capture ends inside a message: not an error (more may have followed), but not a whole message either.
      incomplete = reader.offset < bytes.length || messages === 0;
      break;
    } else if (ev.type === 'paused' || ev.type === 'connection-closed') break;
  }
  const tolerated = reader.tolerated.map((t) => ({ code: t.code, message: t.message, offset: t.offset, ...locate(bytes, t.offset) }));
  return { from, strict, messages, incomplete, ...(error ? { error } : {}), tolerated };
}

export function verdicts(segments: readonly Segment[]): Verdict[] {
  const both = directions(segments);
  const requests = requestContexts(both.client);
  const out: Verdict[] = [];
  for (const from of ['client', 'server'] as const) {
    if (both[from].length === 0) continue;
    for (const strict of [true, false]) out.push(verdict(both[from], from, strict, requests));
  }
  return out;
}

/** The events a lenient reader finds in `bytes`: what the side that wrote them sent. */
/** The events a lenient reader finds in `bytes`, and the code of the fault it stopped at, if any. */
function eventsOf(
  bytes: Uint8Array,
  reads: 'request' | 'response',
  contexts: { method: string; version: Http1Version }[],
): { events: Http1Event[]; error?: string } {
  const reader = new Http1Reader(reads, { strict: false, maxBodyBytes: Infinity });
  reader.feed(bytes);
  const out: Http1Event[] = [];
  for (let i = 0; i < 100_000; i++) {
    const ev = reader.next(reads === 'response' ? (contexts[0] ?? {}) : {});
    if (ev.type === 'error') return { events: out, error: ev.error.code };
    if (ev.type === 'need-data' || ev.type === 'paused' || ev.type === 'connection-closed') break;
    if (ev.type === 'end-of-message' && reads === 'response') contexts.shift();
    out.push(ev);
  }
  return { events: out };
}

/**
 * The rows of the HTTP/1 connection table (src/wire/http1/state.ts) that fire, as each side writes its
 * segment: the writer's engine sends the messages, the reader's engine receives the bytes. Each engine tracks
 * both roles, as in the simulator (net/http1-observer.ts). An engine that refuses something stops there,
 * after its move to ERROR.
 */
export function machineSteps(segments: readonly Segment[]): MachineStep[] {
  const machines = new Http1Machines();
  return segments.flatMap((segment, index) => machines.add(segment, index));
}

/**
 * `machineSteps` one segment at a time, for a reader that gets a conversation as it is written (the
 * playground's `show`, sandbox/capture-show.ts): the two engines keep their state between segments.
 */
export class Http1Machines {
  readonly #engines = { client: new Http1Connection({ role: 'client', pipelining: true }), server: new Http1Connection({ role: 'server', pipelining: true }) };
  readonly #stopped = { client: false, server: false };
  /** The requests still waiting for their final response: how the responses are read. */
  readonly #contexts: { method: string; version: Http1Version }[] = [];

  /** The rows that fire as `segment`, the `index`th of the connection, is written and read. */
  add(segment: Segment, index: number): MachineStep[] {
    const engines = this.#engines;
    const contexts = this.#contexts;
    const writer = segment.from;
    const reader: Direction = writer === 'client' ? 'server' : 'client';
    const reads = writer === 'client' ? 'request' : 'response';
    if (writer === 'client') contexts.push(...requestContexts(segment.bytes));
    const { events, error } = eventsOf(segment.bytes, reads, writer === 'server' ? [...contexts] : []);
    if (writer === 'server') {
      const finals = events.filter((e) => e.type === 'end-of-message').length;
      contexts.splice(0, finals);
    }
    this.#guard(writer, () => {
      for (const e of events) engines[writer].send(e);
    });
    this.#guard(reader, () => {
      engines[reader].receiveData(segment.bytes);
      drain(engines[reader]);
    });
    const out: MachineStep[] = [];
    for (const side of ['client', 'server'] as const) {
      for (const fired of engines[side].takeTransitions()) out.push(toStep(fired, side, index));
    }
    // The writer wrote what no reader accepts (an invalid chunk size, say): its own engine would never have
    // produced those bytes, so it cannot refuse them itself. Its side of the connection fails there too.
    if (error && !this.#stopped[writer]) {
      const from = engines[writer].states[writer];
      this.#stopped[writer] = true;
      out.push({ after: index, machine: `http1-${writer}`, from: `${writer}:${from}`, input: `error: ${error}`, to: `${writer}:ERROR` });
    }
    return out;
  }

  /** An engine that refuses something stops there, after its move to ERROR. */
  #guard(side: Direction, action: () => void): void {
    if (this.#stopped[side]) return;
    try {
      action();
    } catch {
      this.#stopped[side] = true;
    }
  }
}

function drain(engine: Http1Connection): void {
  for (let i = 0; i < 100_000; i++) {
    const step = engine.nextEvent();
    if (step.type === 'need-data' || step.type === 'paused' || step.type === 'error' || step.type === 'connection-closed') return;
  }
}

function toStep(fired: Http1FiredTransition, engine: Direction, after: number): MachineStep {
  const input = fired.kind === 'event' ? fired.row.id : fired.kind === 'settle' ? fired.rule.id : `error: ${fired.code}`;
  return { after, machine: `http1-${engine}`, from: `${fired.role}:${fired.from}`, input, to: `${fired.role}:${fired.to}` };
}
