/**
 * Test helpers for the Node adapters: a registry of things to close after each test, a raw socket that
 * sends exact bytes and collects everything until the server closes, curl, and the HTTP/2 peers (curl
 * --http2-prior-knowledge, nghttp, nghttpd). Not exported.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Socket, connect, createServer as createNetServer } from 'node:net';

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
      reject(
        e.code === 'ENOENT'
          ? new Error(
              'curl is not installed (or not on PATH), and these tests need it as a real HTTP/1.1 peer. Install it: apt-get install curl (CI: .ci/run does this).',
            )
          : e,
      );
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

export interface ToolResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Debian packages of the HTTP/2 peers the h2c tests run, for the message when one is missing. */
export const INSTALL_HINTS: Readonly<Record<string, string>> = {
  curl: 'apt-get install curl (Debian builds it with nghttp2, so --http2-prior-knowledge works)',
  nghttp: 'apt-get install nghttp2-client',
  nghttpd: 'apt-get install nghttp2-server',
};

const missing = (bin: string, tool = bin.split('/').pop()!): Error => {
  const hint = INSTALL_HINTS[tool] ?? `install ${tool}`;
  return new Error(`${bin} is not installed (or not on PATH), and these tests need it as a real HTTP/2 peer. Install it: ${hint} (CI: .ci/run does this).`);
};

/**
 * Runs a command-line peer to completion, killed after `timeoutMs`. A missing binary fails the test with
 * an install hint, as `curl()` does: the HTTP/2 tests are the engine's proof against other implementations.
 */
export function runTool(bin: string, args: readonly string[], options: { tool?: string; timeoutMs?: number } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 8000);
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? missing(bin, options.tool) : e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** curl speaking h2c by prior knowledge (RFC 9113 §3.3): no Upgrade, the preface goes out first. */
export const curlH2 = (args: readonly string[], bin = 'curl'): Promise<ToolResult> =>
  runTool(bin, ['--http2-prior-knowledge', '-sS', '--max-time', '5', ...args], { tool: 'curl' });

/** nghttp (nghttp2's client); -v prints every frame sent and received. */
export const nghttp = (args: readonly string[], bin = 'nghttp'): Promise<ToolResult> => runTool(bin, ['--timeout=5', ...args], { tool: 'nghttp' });

/** A free loopback port: listen on 0, read the port, close. (A tool that cannot bind port 0 gets this one.) */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port; gives up after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Debian installs nghttpd in /usr/sbin, which is not on every user's PATH (CI checks the same place). */
export const NGHTTPD = existsSync('/usr/sbin/nghttpd') ? '/usr/sbin/nghttpd' : 'nghttpd';

/** A long-running peer (nghttpd): spawned, failing with an install hint when missing, killed by `stop()`. */
export interface Daemon {
  readonly port: number;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export async function startDaemon(bin: string, args: (port: number) => readonly string[], tool?: string): Promise<Daemon> {
  const port = await freePort();
  const child = spawn(bin, args(port), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    }
    await exited;
  };
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? missing(bin, tool) : e));
    child.once('exit', (code) => reject(new Error(`${bin} exited (${code}) before listening:\n${out}`)));
  });
  failed.catch(() => undefined); // after startup, an exit is stop()'s business
  try {
    await Promise.race([waitForPort(port), failed]);
  } catch (e) {
    await stop();
    throw e;
  }
  return { port, output: () => out, stop };
}
