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
  /** Puts bytes back so the next read() returns them first (protocol detection peeks at the preface). */
  unread(bytes: Uint8Array): void;
  /** Writes bytes; resolves once the socket has taken them (so a slow peer slows the writer down). */
  write(bytes: Uint8Array): Promise<void>;
  /** Orderly close: FIN after what is queued, then keep reading until the peer closes or the linger ends. */
  end(): void;
  /** Abortive close (RST): the peer may lose bytes still in flight. */
  reset(): void;
  /** True once the socket is fully closed. */
  readonly closed: boolean;
  /** 'address:port' of the peer, for logs. */
  readonly peer: string;
}

/**
 * RFC 9112 §9.6: a server that closes right after its last response, while the client may still be
 * sending, risks a TCP reset that wipes the response from the client's buffers. So `end()` half-closes
 * first and waits for the client's FIN; this bounds the wait. Apache's lingering close uses 2 s as well.
 */
export const LINGER_MS = 2000;

export class SocketTransport implements Transport {
  readonly #socket: Socket;
  readonly #timers: Timers;
  readonly #chunks: Uint8Array[] = [];
  #eof = false;
  #closed = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;
  #linger: unknown;

  constructor(socket: Socket, timers: Timers = realTimers) {
    this.#socket = socket;
    this.#timers = timers;
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

  #push(bytes: Uint8Array): void {
    // After our FIN nobody reads any more; what the peer still sends is drained and dropped.
    if (this.#socket.writableEnded) return;
    this.#chunks.push(bytes);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) return chunk;
      if (this.#error) throw this.#error;
      if (this.#eof) return null;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  unread(bytes: Uint8Array): void {
    if (bytes.length > 0) this.#chunks.unshift(bytes);
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.#closed || this.#socket.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      // Errors surface through the 'error' event and the next read(); the writer just moves on.
      this.#socket.write(bytes, () => resolve());
    });
  }

  end(): void {
    if (this.#closed || this.#socket.writableEnded) return;
    this.#socket.end();
    this.#linger = this.#timers.setTimeout(() => this.#socket.destroy(), LINGER_MS);
  }

  reset(): void {
    if (this.#closed) return;
    this.#socket.resetAndDestroy();
  }
}
