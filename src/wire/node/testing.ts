/**
 * Test helpers for the Node adapters: a registry of things to close after each test, a raw socket that
 * sends exact bytes and collects everything until the server closes, and curl. Not exported.
 */
import { spawn } from 'node:child_process';
import { type Socket, connect } from 'node:net';

/** Everything opened during a test registers its closer here; `closeAll()` runs in afterEach. */
export class Closers {
  #closers: (() => Promise<void> | void)[] = [];
  add<T>(value: T, close: (value: T) => Promise<void> | void): T {
    this.#closers.push(() => close(value));
    return value;
  }
  async closeAll(): Promise<void> {
    const all = this.#closers.reverse();
    this.#closers = [];
    for (const close of all) await close();
  }
}

export interface RawResult {
  /** Every byte the server sent, read as latin1. */
  readonly text: string;
  /** True when the server ended the connection; false when `until` was satisfied first. */
  readonly serverClosed: boolean;
}

/** A raw TCP peer for exact bytes: send, wait until the received text satisfies a predicate, or until EOF. */
export class RawPeer {
  readonly #socket: Socket;
  #text = '';
  #ended = false;
  #error: Error | undefined;
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setTimeout(5000, () => socket.destroy(new Error(`raw peer: no bytes for 5 s; got so far:\n${this.#text}`)));
    socket.on('data', (b: Buffer) => {
      this.#text += b.toString('latin1');
      this.#wake();
    });
    socket.on('end', () => {
      this.#ended = true;
      this.#wake();
    });
    socket.on('error', (e) => {
      this.#error = e;
      this.#wake();
    });
    socket.on('close', () => {
      this.#ended = true;
      this.#wake();
    });
  }

  static open(port: number): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawPeer(socket));
      });
    });
  }

  get text(): string {
    return this.#text;
  }

  send(text: string): void {
    this.#socket.write(Buffer.from(text, 'latin1'));
  }

  #wake(): void {
    const all = this.#waiters;
    this.#waiters = [];
    for (const w of all) w();
  }

  /** Resolves true once `until(text)` holds, false when the server ended first; rejects on a socket error. */
  async waitFor(until: (text: string) => boolean = () => false): Promise<boolean> {
    for (;;) {
      if (until(this.#text)) return true;
      if (this.#error) throw this.#error;
      if (this.#ended) return false;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  destroy(): void {
    this.#socket.destroy();
  }
}

/**
 * Sends `parts` on a fresh socket (each a separate write) and reads until the server ends the connection,
 * or, with `until`, until the text received so far satisfies it (for a keep-alive server that would wait).
 */
export async function rawExchange(port: number, parts: readonly string[], until?: (text: string) => boolean): Promise<RawResult> {
  const peer = await RawPeer.open(port);
  try {
    for (const p of parts) peer.send(p);
    const satisfied = await peer.waitFor(until);
    return { text: peer.text, serverClosed: !satisfied };
  } finally {
    peer.destroy();
  }
}

export interface CurlResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs Debian's curl as an HTTP/1.1 peer. A missing curl fails the test with an actionable message rather
 * than skipping it: these tests are the engines' proof against an independent implementation.
 */
export function curl(args: readonly string[], bin = 'curl'): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--http1.1', '-sS', '--max-time', '5', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('latin1')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'ENOENT'
        ? new Error('curl is not installed (or not on PATH), and these tests need it as a real HTTP/1.1 peer. Install it: apt-get install curl (CI: .ci/run does this).')
        : e);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Splits curl -i output (possibly several responses) into status lines, header maps and bodies. */
export function parseCurlOutput(out: string): { status: number; headers: Record<string, string>; body: string }[] {
  const responses: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = out;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    const head = end < 0 ? rest : rest.slice(0, end);
    const [statusLine, ...lines] = head.split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
    }
    rest = end < 0 ? '' : rest.slice(end + 4);
    const next = rest.search(/HTTP\/1\.[01] \d{3}/);
    const body = next < 0 ? rest : rest.slice(0, next);
    rest = next < 0 ? '' : rest.slice(next);
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
  }
  return responses;
}
