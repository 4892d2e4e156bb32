/**
 * The snippets of the "HTTP/2 attacks and defences" page, run the way the playground runs them: compiled,
 * executed with the instrumented wire module and the reader's knob values, their simulations captured as
 * sources and recorded. With the defence on, the answer the page promises (a GOAWAY code, a RST_STREAM code,
 * a 408) is in the recorded trace, where the Frames and Sequence views draw it; with it off, it is not, and
 * the cost the page describes shows up in what the snippet prints.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from 'roundtrip/wire';
import { extractOptionsSchema } from '../options/extract';
import { recordSnippet, SNIPPETS_DIR } from '../viz/run-snippet';
import { VIEWS } from '../viz/views';

async function run(name: string, overrides: Record<string, unknown> = {}) {
  const file = `http2-attack-${name}.ts`;
  const { recording, output, reported } = await recordSnippet(file, { overrides });
  const events = recording.sources.flatMap((s) => (s.kind === 'wire' ? (s.events as readonly TraceEvent[]) : []));
  const views = VIEWS.filter((v) => v.applies(recording)).map((v) => v.id);
  return { output: output.join('\n'), events, views, reported, extracted: extractOptionsSchema(readFileSync(`${SNIPPETS_DIR}/${file}`, 'utf8'), file) };
}

/** Error codes of the GOAWAY frames the server sent, as the trace has them. */
const goaways = (events: readonly TraceEvent[]) =>
  events.flatMap((e) => (e.type === 'h2-frame' && e.side === 'server' && e.direction === 'sent' && e.frameType === 'GOAWAY' ? [e.fields.error] : []));
const count = (events: readonly TraceEvent[], frameType: string, side: 'client' | 'server', direction: 'sent' | 'received') =>
  events.filter((e) => e.type === 'h2-frame' && e.frameType === frameType && e.side === side && e.direction === direction).length;
const number = (output: string, pattern: RegExp) => Number(pattern.exec(output)?.[1]);

describe('HTTP/2 attack snippets', () => {
  it('rapid reset: reset budget, no request started and GOAWAY INTERNAL_ERROR after the burst; none, no GOAWAY and the handler runs for every reset stream', async () => {
    const on = await run('rapid-reset');
    expect(on.reported).toEqual(on.extracted);
    expect(on.views).toEqual(expect.arrayContaining(['sequence', 'frames']));
    expect(goaways(on.events)).toEqual(['INTERNAL_ERROR']);
    expect(count(on.events, 'GOAWAY', 'client', 'received')).toBe(1);
    // Each request is withdrawn in the read that brought it, so none is started; the budget still ends the connection.
    expect(number(on.output, /handler started (\d+) times/)).toBe(0);
    const off = await run('rapid-reset', { defence: 'none' });
    expect(goaways(off.events)).toEqual([]);
    expect(off.output).toContain('no GOAWAY');
    expect(number(off.output, /handler started (\d+) times/)).toBe(200);
    const more = await run('rapid-reset', { defence: 'none', streams: 400 });
    expect(number(more.output, /handler started (\d+) times/)).toBe(400);
  });

  it('rapid reset: handler limit, handlers bounded by the stream limit of 20, GOAWAY ENHANCE_YOUR_CALM once more than 80 wait', async () => {
    const limited = await run('rapid-reset', { defence: 'handler limit' });
    expect(number(limited.output, /handler started (\d+) times/)).toBe(20);
    expect(goaways(limited.events)).toEqual(['ENHANCE_YOUR_CALM']);
    // 20 run and 81 wait before the 102nd request (stream 203) finds the queue over 80.
    expect(number(limited.output, /last stream (\d+)/)).toBe(203);
    expect(limited.output).toMatch(/More than 80 requests waiting for one of 20 handlers/);
    // Under the queue's bound the connection stays open, and still only 20 handlers ever start.
    const few = await run('rapid-reset', { defence: 'handler limit', streams: 60 });
    expect(goaways(few.events)).toEqual([]);
    expect(number(few.output, /handler started (\d+) times/)).toBe(20);
  });

  it('CONTINUATION flood: on, GOAWAY ENHANCE_YOUR_CALM at the ninth; off, the server holds every frame of the block', async () => {
    const on = await run('continuation');
    expect(on.reported).toEqual(on.extracted);
    expect(goaways(on.events)).toEqual(['ENHANCE_YOUR_CALM']);
    expect(on.output).not.toContain('holding');
    const off = await run('continuation', { defence: false });
    expect(goaways(off.events)).toEqual([]);
    expect(number(off.output, /holding (\d+) frames/)).toBe(501);
    const more = await run('continuation', { defence: false, frames: 1000 });
    expect(number(more.output, /holding \d+ frames \((\d+) bytes\)/)).toBeGreaterThan(number(off.output, /holding \d+ frames \((\d+) bytes\)/));
    expect(more.output).toContain('handler runs: 0');
  });

  it('HPACK bomb: on, RST_STREAM ENHANCE_YOUR_CALM and nothing reaches the handler; off, the expansion does', async () => {
    const on = await run('hpack-bomb');
    expect(on.reported).toEqual(on.extracted);
    expect(on.views).toContain('hpack');
    const resets = on.events.filter((e) => e.type === 'h2-frame' && e.side === 'server' && e.direction === 'sent' && e.frameType === 'RST_STREAM');
    expect(resets.map((e) => e.type === 'h2-frame' && e.fields.error)).toEqual(['ENHANCE_YOUR_CALM']);
    expect(goaways(on.events)).toEqual([]);
    expect(number(on.output, /received (\d+) bytes/)).toBe(0);
    const off = await run('hpack-bomb', { defence: false });
    expect(count(off.events, 'RST_STREAM', 'server', 'sent')).toBe(0);
    const block = number(off.output, /a (\d+)-byte header block/);
    expect(number(off.output, /received (\d+) bytes/)).toBeGreaterThan(100 * block);
  });

  it('PING and SETTINGS floods: on, GOAWAY ENHANCE_YOUR_CALM; off, every frame is acknowledged', async () => {
    for (const frame of ['PING', 'SETTINGS']) {
      const on = await run('ping-flood', { frame });
      expect(on.reported).toEqual(on.extracted);
      expect(goaways(on.events)).toEqual(['ENHANCE_YOUR_CALM']);
      expect(count(on.events, frame, 'server', 'sent')).toBeLessThan(60);
      const off = await run('ping-flood', { frame, defence: false });
      expect(goaways(off.events)).toEqual([]);
      // Every flood frame answered (and, for SETTINGS, the preface's too).
      expect(count(off.events, frame, 'server', 'sent')).toBe(frame === 'PING' ? 500 : 502);
    }
  });

  it('slowloris: on, 408 over HTTP/1 and GOAWAY NO_ERROR over HTTP/2; off, the connection is still open at the end', async () => {
    const h1 = await run('slowloris');
    expect(h1.reported).toEqual(h1.extracted);
    expect(h1.output).toContain('server answered: HTTP/1.1 408 Request Timeout');
    const closed = h1.events.find((e) => e.type === 'connection-closed');
    expect(closed?.at).toBeGreaterThanOrEqual(10_000);
    const h1off = await run('slowloris', { defence: false });
    expect(h1off.output).toContain('server answered: (nothing)');
    expect(h1off.output).toContain('connection still open after 30 s');
    const h2 = await run('slowloris', { version: 'HTTP/2' });
    expect(goaways(h2.events)).toEqual(['NO_ERROR']);
    expect(h2.output).toContain('connection closed by the server');
    const h2off = await run('slowloris', { version: 'HTTP/2', defence: false });
    expect(goaways(h2off.events)).toEqual([]);
    expect(h2off.output).toContain('connection still open after 30 s');
  });
});
