/**
 * scripts/serve.ts end to end (start it, curl it, Ctrl+C it), and the rule that keeps these adapters out of
 * the browser: nothing reachable from src/wire/index.ts imports node: modules or this folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Closers, curl, curlH2, nghttp, parseCurlOutput } from './testing';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const closers = new Closers();
afterEach(() => closers.closeAll());

/** Resolves with the text once `pattern` shows up on stdout; rejects if the process exits first. */
const waitForOutput = (child: ChildProcess, pattern: RegExp): Promise<string> =>
  new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (pattern.test(out)) resolvePromise(out);
    });
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.once('exit', (code) => reject(new Error(`serve.ts exited (${code}) before printing ${pattern}:\n${out}\n${err}`)));
  });

describe('npm run serve (scripts/serve.ts)', () => {
  it('prints its URL and examples, answers curl, and exits cleanly on SIGINT', async () => {
    // The test's own Node (the project's Node 24) runs tsx as a loader, the way `npm run serve` would.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    closers.add(child, (c) => {
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });
    const banner = await waitForOutput(child, /Ctrl\+C to stop/);
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    expect(banner).toContain(`curl -i ${url}/todos`);
    expect(banner).toContain(`curl -i --http2-prior-knowledge ${url}/todos/1`);
    expect(banner).toContain(`nghttp -nv ${url}/todos`);
    const { stdout } = await curl(['-i', `${url}/todos/1`]);
    expect(parseCurlOutput(stdout)[0]?.status).toBe(200);
    // The same port speaks h2c to a client that opens with the HTTP/2 preface.
    const h2 = await curlH2(['-i', `${url}/todos/1`]);
    expect(h2.stdout).toMatch(/^HTTP\/2 200 \r\n/);
    const frames = await nghttp(['-nva', `${url}/`]);
    expect(frames.stdout).toMatch(/recv PUSH_PROMISE frame <[^>]*stream_id=13>/);
    expect(frames.stdout).toMatch(/recv \(stream_id=2\) content-type: text\/css/);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 15_000);

  it('rejects a bad --port with a message that says what is expected', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts', '--port', 'http'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).toBe(2);
    expect(err).toContain('--port expects a TCP port number');
  }, 15_000);
});

describe('the browser bundle stays free of Node', () => {
  it('no module reachable from src/wire/index.ts imports node: or src/wire/node', () => {
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      if (file.startsWith(here)) offenders.push(`${file} (the Node adapters)`);
      const source = readFileSync(file, 'utf8');
      for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (spec!.startsWith('node:')) offenders.push(`${file} imports ${spec}`);
        else if (spec!.startsWith('.')) visit(resolveTs(join(dirname(file), spec!)));
      }
    };
    visit(resolve(here, '../index.ts'));
    expect(seen.size).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });
});

const resolveTs = (path: string): string => {
  for (const candidate of [path, `${path}.ts`, `${path}/index.ts`]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`Cannot resolve ${path}`);
};
