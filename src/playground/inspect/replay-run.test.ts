/**
 * Replay, run: the snippet built from a capture is compiled and executed the way the playground runs it
 * (viz/run-snippet.ts), and what it prints is what the capture's server answered. For curl's logs that is what
 * curl saw: the status and fields of each response, and the body only where curl printed it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordCode } from '../viz/run-snippet';
import { inspect } from './inspect';
import { replaySnippet } from './replay';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

async function replayed(name: string): Promise<string[]> {
  const r = inspect({ text: fixture(name) });
  if (!r.replay) throw new Error(`${name}: no replay (${r.noReplay ?? r.problems.map((p) => p.message).join('; ')})`);
  const { output } = await recordCode(replaySnippet(r.replay.exchanges, r.replay.from), { name });
  return output;
}

describe('Replay of a curl log answers what curl saw', () => {
  it('curl -v with its progress meter: GET / answered 200, no body (curl printed none)', async () => {
    // Before #30 item 1 the response was read as cut, and the replay answered 502.
    expect(await replayed('curl-v-meter.txt')).toEqual(['GET / -> 200 0 bytes']);
  });

  it('curl -v with the body on standard output: the 157 bytes Content-Length counted', async () => {
    expect(await replayed('curl-v-both.txt')).toEqual(['GET / -> 200 157 bytes']);
  });

  it('a POST whose body curl did not print, and a 304', async () => {
    expect(await replayed('curl-v-post.txt')).toEqual(['POST /post -> 201 8 bytes']);
    expect(await replayed('curl-sv-304.txt')).toEqual(['GET / -> 304 0 bytes']);
  });

  it('curl --trace-ascii: the chunked body, de-chunked (12 + 29 bytes)', async () => {
    expect(await replayed('curl-trace-ascii-chunked.txt')).toEqual(['GET /chunked -> 200 41 bytes']);
  });
});
