/**
 * Transport: a node:net socket seen the way a sans-I/O engine wants it. Bytes are pulled with `read()`
 * (null once the peer has closed its sending side), pushed with `write()`, and the connection ends either
 * in order (`end`: FIN, then keep draining until the peer closes too) or abruptly (`reset`: RST).
 *
 * This is the only file of the adapter that touches a socket's events; the protocol sessions (HTTP/1 and
 * h2c) are written against the `Transport` interface alone.
 */
import type { Socket } from 'node:net';

/** The two timer functions the adapter needs, injected so nothing captures a global at import. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
};

export interface Transport {
  /** The next bytes from the peer, or null once it has closed its side (or the socket is gone). */
  read(): Promise<Uint8Array | null>;
  /**
   * Like read(), but a call to `interrupt()` while it waits ends the wait with 'interrupted'. A session that
   * keeps one deadline timer per connection uses the pair instead of racing every read against a timer of
   * its own. Optional: without it, a session races read() against a timer.
   */
  readInterruptible?(): Promise<Uint8Array | null | 'interrupted'>;
  /** Ends the readInterruptible() waiting now with 'interrupted'; no effect when none waits. */
  interrupt?(): void;
  /** Puts bytes back so the next read() returns them first (protocol detection peeks at the preface). */
  unread(bytes: Uint8Array): void;
  /** Writes bytes; resolves once the socket has taken them (so a slow peer slows the writer down). */
  write(bytes: Uint8Array): Promise<void>;
  /**
   * Queues bytes like write(), in the same order, for a writer that does not wait for them: it watches
   * `backlog` instead. Optional; without it, write().
   */
  send?(bytes: Uint8Array): void;
  /** Orderly close: FIN after what is queued, then keep reading until the peer closes or the linger ends. */
  end(): void;
  /** Abortive close (RST): the peer may lose bytes still in flight. */
  reset(): void;
  /** True once the socket is fully closed. */
  readonly closed: boolean;
  /** 'address:port' of the peer, for logs. */
  readonly peer: string;
  /**
   * Bytes written but not yet taken by the operating system (queued here or in the socket): 0 means the
   * peer is reading what we send. An HTTP/2 session uses it to tell a peer that reads from one that
   * floods us with frames we must acknowledge while it reads nothing (RFC 9113 §10.5).
   */
  readonly backlog?: number;
}

/**
 * RFC 9112 §9.6: a server that closes right after its last response, while the client may still be
 * sending, risks a TCP reset that wipes the response from the client's buffers. So `end()` half-closes
 * first and waits for the client's FIN; this bounds the wait. Apache's lingering close uses 2 s as well.
 */
export const LINGER_MS = 2000;

/**
 * Received bytes held for a session that has not read them yet. Above the high mark the socket stops
 * reading (TCP flow control then slows the peer down); below the low mark it reads again. Without this a
 * peer that sends faster than a session consumes would fill the heap.
 */
const READ_HIGH_WATER = 1 << 20;
const READ_LOW_WATER = 256 << 10;
interface PendingRead {
  readonly resolve: (result: Uint8Array | null | 'interrupted') => void;
  readonly reject: (error: unknown) => void;
  readonly interruptible: boolean;
}

/** Coalesced output up to this size is joined into one buffer; larger goes out as a corked writev. */
const JOIN_LIMIT = 256 << 10;

export class SocketTransport implements Transport {
  readonly #socket: Socket;
  readonly #timers: Timers;
  readonly #chunks: Uint8Array[] = [];
  #eof = false;
  #closed = false;
  #error: Error | undefined;
  /** The read() waiting for bytes, if any: settled straight from the socket's events. */
  #pending: PendingRead | undefined;
  /** Set by interrupt() while a readInterruptible() waits; cleared when that read returns. */
  #interrupted = false;
  #linger: unknown;
  /** Bytes in #chunks; the socket is paused while this is above READ_HIGH_WATER. */
  #buffered = 0;
  #paused = false;
  /** Output written during this turn of the event loop, sent as one write when the turn ends. */
  #out: Uint8Array[] = [];
  #outBytes = 0;
  #outDone: (() => void)[] = [];
  /** The writers of each socket write still in progress, oldest first: the socket calls back in order. */
  readonly #writing: (() => void)[][] = [];
  #flushScheduled = false;

  constructor(socket: Socket, timers: Timers = realTimers) {
    this.#socket = socket;
    this.#timers = timers;
    // Each write is a whole answer (or the engine's whole output for a turn): Nagle's algorithm would hold
    // its last segment back until the peer's delayed ACK, some 40 ms on Linux, on every response.
    socket.setNoDelay(true);
    // A Buffer is a Uint8Array subclass; hand the engines plain views so events compare as plain bytes.
    socket.on('data', (b: Buffer) => this.#push(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
    socket.on('end', () => {
      this.#eof = true;
      this.#notify();
    });
    socket.on('error', (e) => {
      this.#error = e;
      this.#notify();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#eof = true;
      this.#timers.clearTimeout(this.#linger);
      this.#notify();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get peer(): string {
    return `${this.#socket.remoteAddress ?? '?'}:${this.#socket.remotePort ?? '?'}`;
  }

  get backlog(): number {
    return this.#outBytes + this.#socket.writableLength;
  }

  #push(bytes: Uint8Array): void {
    // After our FIN nobody reads any more; what the peer still sends is drained and dropped.
    if (this.#socket.writableEnded) return;
    this.#chunks.push(bytes);
    this.#buffered += bytes.length;
    if (!this.#paused && this.#buffered > READ_HIGH_WATER) {
      this.#paused = true;
      this.#socket.pause();
    }
    this.#notify();
  }

  /** A waiting read takes what has arrived (bytes, EOF, an error or an interrupt); otherwise it keeps waiting. */
  #notify(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    let result: Uint8Array | null | 'interrupted' | undefined;
    try {
      result = this.#poll();
    } catch (e) {
      this.#pending = undefined;
      pending.reject(e);
      return;
    }
    if (result === undefined) return;
    this.#pending = undefined;
    pending.resolve(result);
  }

  /** What a read returns now: bytes, null at EOF, 'interrupted', or undefined when it must wait. Throws a socket error. */
  #poll(): Uint8Array | null | 'interrupted' | undefined {
    const chunk = this.#chunks.shift();
    // An interrupt ends only the wait it arrived in: bytes that came with it win, and the next read waits.
    const interrupted = this.#interrupted;
    this.#interrupted = false;
    if (chunk) {
      this.#buffered -= chunk.length;
      if (this.#paused && this.#buffered < READ_LOW_WATER) {
        this.#paused = false;
        this.#socket.resume();
      }
      return chunk;
    }
    if (this.#error) throw this.#error;
    if (this.#eof) return null;
    return interrupted ? 'interrupted' : undefined;
  }

  read(): Promise<Uint8Array | null> {
    return this.#read(false) as Promise<Uint8Array | null>;
  }

  readInterruptible(): Promise<Uint8Array | null | 'interrupted'> {
    return this.#read(true);
  }

  interrupt(): void {
    if (this.#pending?.interruptible !== true) return;
    this.#interrupted = true;
    this.#notify();
  }

  /**
   * No async function and no wake-up loop: a read that can be answered now is, and one that cannot is
   * settled by #notify with the bytes themselves (one promise per wait, the cheapest a Promise API allows).
   */
  #read(interruptible: boolean): Promise<Uint8Array | null | 'interrupted'> {
    let result: Uint8Array | null | 'interrupted' | undefined;
    try {
      result = this.#poll();
    } catch (e) {
      return Promise.reject(e);
    }
    if (result !== undefined) return Promise.resolve(result);
    const { promise, resolve, reject } = Promise.withResolvers<Uint8Array | null | 'interrupted'>();
    this.#pending = { resolve, reject, interruptible };
    return promise;
  }

  unread(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#chunks.unshift(bytes);
    this.#buffered += bytes.length;
  }

  /**
   * Queues bytes; everything written in one turn of the event loop leaves in a single socket write when
   * the turn ends (setImmediate), so a response's HEADERS and DATA, or the answers to a batch of
   * requests, share TCP segments instead of costing a system call and a packet each.
   */
  write(bytes: Uint8Array): Promise<void> {
    if (this.#closed || this.#socket.writableEnded) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#queue(bytes);
    this.#outDone.push(resolve);
    return promise;
  }

  send(bytes: Uint8Array): void {
    if (this.#closed || this.#socket.writableEnded) return;
    this.#queue(bytes);
  }

  #queue(bytes: Uint8Array): void {
    this.#out.push(bytes);
    this.#outBytes += bytes.length;
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      SocketTransport.#due.push(this);
      if (SocketTransport.#due.length === 1) setImmediate(SocketTransport.#flushDue);
    }
  }

  /**
   * Transports with output queued this turn, in the order they queued it. One setImmediate flushes them
   * all: with many connections busy, an Immediate per connection per turn was a cost of its own.
   */
  static #due: SocketTransport[] = [];
  static readonly #flushDue = (): void => {
    const due = SocketTransport.#due;
    SocketTransport.#due = [];
    for (const t of due) {
      // One connection's failure must not leave the others' output unsent: it fails that connection only.
      try {
        t.#flush();
      } catch (e) {
        t.#socket.destroy(e instanceof Error ? e : new Error(String(e)));
      }
    }
  };

  #flush(): void {
    this.#flushScheduled = false;
    const chunks = this.#out;
    const done = this.#outDone;
    const total = this.#outBytes;
    if (chunks.length === 0) return;
    this.#out = [];
    if (done.length > 0) this.#outDone = [];
    this.#outBytes = 0;
    if (this.#closed || this.#socket.writableEnded || this.#socket.destroyed) {
      for (const resolve of done) resolve();
      return;
    }
    // Errors surface through the 'error' event and the next read(); the writers just move on. A batch
    // nobody waits for (only send()) asks the socket for no callback, which spares it a tick per write;
    // the callbacks that are asked for come in order, so #writing stays in step with them.
    const written = done.length > 0 ? this.#written : undefined;
    if (written) this.#writing.push(done);
    if (chunks.length === 1 || total <= JOIN_LIMIT) {
      this.#socket.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), written);
      return;
    }
    this.#socket.cork();
    for (let i = 0; i < chunks.length - 1; i++) this.#socket.write(chunks[i]!);
    this.#socket.write(chunks[chunks.length - 1]!, written);
    this.#socket.uncork();
  }

  /** The socket took the oldest write in progress (or failed it): its writers resume. Made once, not per write. */
  readonly #written = (): void => {
    const done = this.#writing.shift();
    if (done) for (const resolve of done) resolve();
  };

  end(): void {
    if (this.#closed || this.#socket.writableEnded) return;
    this.#flush();
    this.#socket.end();
    this.#linger = this.#timers.setTimeout(() => this.#socket.destroy(), LINGER_MS);
  }

  reset(): void {
    if (this.#closed) return;
    const done = this.#outDone;
    this.#out = [];
    this.#outDone = [];
    this.#outBytes = 0;
    for (const resolve of done) resolve();
    this.#socket.resetAndDestroy();
  }
}
