/**
 * The docs snippets that declare options: their build-time schema matches what they declare when run, and
 * turning a knob changes what they print (the reason the knob exists).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import * as playground from 'roundtrip/playground';
import { compileSnippet } from '../sandbox/compile';
import { executeSnippet } from '../sandbox/execute';
import { formatArgs } from '../sandbox/format';
import { installOptionsContext } from './context';
import { extractOptionsSchema } from './extract';
import type { OptionsSchema } from './schema';

const MODULES = { 'roundtrip/wire': wire, 'roundtrip/query': query, 'roundtrip/playground': playground };

async function runSnippet(file: string, overrides: Record<string, unknown> = {}) {
  const code = readFileSync(`content/snippets/${file}`, 'utf8');
  const compiled = compileSnippet(code);
  if (!compiled.ok) throw new Error(compiled.message);
  const lines: string[] = [];
  let reported: OptionsSchema | undefined;
  installOptionsContext({ overrides, onSchema: (s) => (reported = s) });
  const log = (...args: unknown[]) => lines.push(formatArgs(args));
  try {
    await executeSnippet(compiled.js, MODULES, { log, info: log, warn: log, error: log, debug: log });
  } finally {
    installOptionsContext(undefined);
  }
  return { output: lines.join('\n'), reported, extracted: extractOptionsSchema(code, file) };
}

describe('snippets with options', () => {
  it('query-observer-states: fewer retries than failures ends in error', async () => {
    const normal = await runSnippet('query-observer-states.ts');
    expect(normal.reported).toEqual(normal.extracted);
    expect(normal.output).toContain('final state: { status: "success"');
    const impatient = await runSnippet('query-observer-states.ts', { retry: 1 });
    expect(impatient.output).toContain('final state: { status: "error"');
  });

  it('query-offline: networkMode "always" does not pause', async () => {
    const paused = await runSnippet('query-offline.ts');
    expect(paused.reported).toEqual(paused.extracted);
    expect(paused.output).toContain('mutation paused? true');
    const always = await runSnippet('query-offline.ts', { networkMode: 'always' });
    expect(always.output).toContain('mutation paused? false');
  });

  it('http3-vs-http2-loss: the seed is the state, so a run replays exactly, and another seed differs', async () => {
    const a = await runSnippet('http3-vs-http2-loss.ts');
    const b = await runSnippet('http3-vs-http2-loss.ts');
    expect(a.reported).toEqual(a.extracted);
    expect(b.output).toBe(a.output);
    const other = await runSnippet('http3-vs-http2-loss.ts', { seed: 7 });
    expect(other.output).not.toBe(a.output);
    const lossless = await runSnippet('http3-vs-http2-loss.ts', { loss: 0 });
    expect(lossless.output).not.toBe(a.output);
    expect(lossless.output).toContain('HTTP/2, loss 0: ');
  });

  it('http3-qpack-blocking: the figures /http/http3/ quotes (RFC 9204 §2.1.2)', async () => {
    const run = await runSnippet('http3-qpack-blocking.ts');
    expect(run.reported).toEqual(run.extracted);
    const lines = run.output.split('\n');
    expect(lines[0]).toMatch(/^HTTP\/2 \(HPACK\): request field sections 37 B .* last byte at 225 ms$/);
    expect(lines[1]).toBe('  /api/cart 225 ms, /app 225 ms, /api/status 225 ms');
    expect(lines[2]).toMatch(/^HTTP\/3, table 4096 B: request field sections 19 B \+ encoder\/decoder streams 33 B; .* last byte at 200 ms$/);
    expect(lines[3]).toBe(
      '  /api/status 100 ms, /api/cart 200 ms, /app 200 ms; blocked: stream 8 (needs 4 inserts, has 2), stream 12 (needs 5 inserts, has 2)',
    );
    expect(lines[4]).toMatch(/^HTTP\/3, no table: request field sections 82 B \+ encoder\/decoder streams 0 B; .* last byte at 213 ms$/);
    expect(lines[5]).toBe('  /app 100 ms, /api/status 100 ms, /api/cart 213 ms');
    const literal = (await runSnippet('http3-qpack-blocking.ts', { maxBlockedStreams: '0' })).output.split('\n');
    expect(literal[2]).toMatch(/request field sections 55 B \+ encoder\/decoder streams 20 B; .* last byte at 200 ms$/);
    expect(literal[3]).toBe('  /app 100 ms, /api/status 100 ms, /api/cart 200 ms');
    const clean = (await runSnippet('http3-qpack-blocking.ts', { lose: false })).output;
    expect([...clean.matchAll(/last byte at (\d+) ms/g)].map((m) => m[1])).toEqual(['100', '100', '100']);
  });

  it('http-connections: a longer round trip makes every policy slower', async () => {
    const fast = await runSnippet('http-connections.ts');
    const slow = await runSnippet('http-connections.ts', { rtt: 300 });
    expect(fast.reported).toEqual(fast.extracted);
    const times = (out: string) => [...out.matchAll(/: (\d+) ms/g)].map((m) => Number(m[1]));
    const [f, s] = [times(fast.output), times(slow.output)];
    expect(f).toHaveLength(4);
    s.forEach((t, i) => expect(t).toBeGreaterThan(f[i]!));
  });

  it('http-compare-page-load: loss slows the page, and the congestion control and the loss pattern change the figures (RFC 9438, RFC 6582)', async () => {
    const times = (out: string) => [...out.matchAll(/: (\d+) ms/g)].map((m) => Number(m[1]));
    const clean = await runSnippet('http-compare-page-load.ts');
    expect(clean.reported).toEqual(clean.extracted);
    const lossy = await runSnippet('http-compare-page-load.ts', { loss: 0.05 });
    const reno = await runSnippet('http-compare-page-load.ts', { loss: 0.05, congestionControl: 'newreno' });
    const bursty = await runSnippet('http-compare-page-load.ts', { loss: 0.05, burst: 4 });
    const [c, l, r, b] = [times(clean.output), times(lossy.output), times(reno.output), times(bursty.output)];
    expect(c).toHaveLength(7);
    // The same seed loses the same packets in every run: each way of loading is no faster than without loss.
    l.forEach((t, i) => expect(t).toBeGreaterThanOrEqual(c[i]!));
    expect(l.reduce((x, y) => x + y)).toBeGreaterThan(c.reduce((x, y) => x + y));
    expect(r).not.toEqual(l);
    expect(b).not.toEqual(l);
  });

  it('hello-wire: HTTP/1.0 opens a second connection where 1.1 and 2 reuse the first', async () => {
    const v11 = await runSnippet('hello-wire.ts');
    expect(v11.reported).toEqual(v11.extracted);
    expect(v11.output).toContain('reused the connection');
    const v10 = await runSnippet('hello-wire.ts', { httpVersion: '1.0' });
    expect(v10.output).not.toContain('reused the connection');
    expect(v10.output.match(/ms to connect/g)).toHaveLength(2);
    const v2 = await runSnippet('hello-wire.ts', { httpVersion: '2', rtt: 200 });
    expect(v2.output).toContain('reused the connection');
    expect(v2.output).toContain('200 ms to connect');
  });

  it('a bad value says which option and what it expected', async () => {
    await expect(runSnippet('http-connections.ts', { rtt: 'fast' })).rejects.toThrow('Option "rtt" must be a number from 1 to 1000; got "fast".');
  });
});
