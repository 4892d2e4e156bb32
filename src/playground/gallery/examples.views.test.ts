// @vitest-environment jsdom
/**
 * Every docs playground draws its subject (issue #27 item 1): each one's snippet, run the way the playground
 * runs it (viz/run-snippet.ts), records something at least one view draws, and the `view` its page names
 * (the view it opens on) is one of the views that apply to that recording, with something in it. A page that
 * names a view its snippet cannot feed, or a snippet that records nothing to draw, fails here with its id.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as query from 'roundtrip/query';
import type { Recording } from '../recording/model';
import { recordSnippet, SNIPPETS_DIR } from '../viz/run-snippet';
import { VIEWS } from '../viz/views';
import { collectExamples } from './examples';

function mdxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? mdxFiles(`${dir}/${e.name}`) : e.name.endsWith('.mdx') ? [`${dir}/${e.name}`] : [],
  );
}

const pages = Object.fromEntries(mdxFiles('content/docs').map((path) => [path, readFileSync(path, 'utf8')]));
const snippets = Object.fromEntries(readdirSync(SNIPPETS_DIR).map((file) => [file, readFileSync(`${SNIPPETS_DIR}/${file}`, 'utf8')]));
const EXAMPLES = collectExamples(pages, snippets);

/** Events a view of `id` has to draw: the kinds of source it reads, and for the byte views, their events. */
function content(recording: Recording, id: string): number {
  const wire = recording.sources.filter((s) => s.kind === 'wire');
  const queries = recording.sources.filter((s) => s.kind === 'query');
  const count = (types: readonly string[]) => wire.reduce((n, s) => n + s.events.filter((e) => types.includes(e.type)).length, 0);
  switch (id) {
    case 'frames':
      return count(['h2-frame']);
    case 'hpack':
      return wire.reduce((n, s) => n + s.events.filter((e) => e.type === 'h2-frame' && e.hpack !== undefined).length, 0);
    case 'messages':
      return count(['bytes-sent']);
    case 'waterfall':
      return count(['request-started']);
    case 'devtools':
    case 'events':
    case 'timers':
      return queries.reduce((n, s) => n + s.events.length, 0);
    default:
      return wire.reduce((n, s) => n + s.events.length, 0) + queries.reduce((n, s) => n + s.events.length, 0);
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  query.environmentManager.setIsServer(() => false);
  query.onlineManager.setOnline(true);
});

afterEach(() => {
  document.body.replaceChildren();
  query.onlineManager.setOnline(true);
  query.focusManager.setFocused(undefined);
  vi.useRealTimers();
});

describe('every docs playground opens on a view that draws its subject', () => {
  it('finds the docs playgrounds, each naming its view', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(36);
    expect(EXAMPLES.filter((e) => e.view === undefined).map((e) => e.id)).toEqual([]);
  });

  it.each(EXAMPLES.map((e) => [e.id, e] as const))(
    '%s',
    async (_, example) => {
      const { recording } = await recordSnippet(example.snippet);
      const applying = VIEWS.filter((v) => v.applies(recording)).map((v) => v.id);
      expect(applying.length, `${example.id}: no view draws its run`).toBeGreaterThan(0);
      expect(applying, `${example.id} (${example.page.href}) opens on "${example.view}"`).toContain(example.view);
      expect(content(recording, example.view!), `the ${example.view} view of ${example.id} has something to draw`).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('the simulated HTTP/2 exchange on /http/http2/ does what its paragraph says', () => {
  const run = async (flowControl: string) => {
    const { recording } = await recordSnippet('http2-exchange.ts', { overrides: { flowControl } });
    const events = recording.sources.flatMap((s) => (s.kind === 'wire' ? s.events : []));
    const sent = events.filter((e) => e.type === 'h2-frame' && e.direction === 'sent');
    const photo = events.find((e) => e.type === 'request-started' && e.url.endsWith('/photo.jpg'));
    const done = events.find((e) => e.type === 'request-finished' && photo?.type === 'request-started' && e.requestId === photo.requestId);
    return { sent, finished: done?.at ?? Number.NaN };
  };

  it('SETTINGS both ways, streams 1 and 3 interleaved, 65,535 DATA octets before the first WINDOW_UPDATE, a push on stream 2', async () => {
    const { sent, finished } = await run('rfc-defaults');
    const of = (side: string, type: string) => sent.filter((f) => f.type === 'h2-frame' && f.side === side && f.frameType === type);
    expect(of('client', 'SETTINGS').length).toBeGreaterThanOrEqual(2); // its own, and the ACK of the server's
    expect(of('server', 'SETTINGS').some((f) => f.type === 'h2-frame' && f.flags.includes('ACK'))).toBe(true);
    const data = of('server', 'DATA');
    expect(new Set(data.map((f) => f.type === 'h2-frame' && f.streamId))).toEqual(new Set([1, 2, 3]));
    const firstUpdate = of('client', 'WINDOW_UPDATE')[0]!;
    const before = data.filter((f) => f.at < firstUpdate.at).reduce((n, f) => n + (f.type === 'h2-frame' ? f.length : 0), 0);
    expect(before).toBe(65_535);
    expect(data.some((f) => f.at > firstUpdate.at)).toBe(true);
    const promise = of('server', 'PUSH_PROMISE');
    expect(promise.map((f) => f.type === 'h2-frame' && [f.streamId, f.fields.promisedStreamId])).toEqual([[1, 2]]);
    expect(Math.round(finished)).toBe(537);
  });

  it("with Chrome's windows the photo needs no WINDOW_UPDATE and is complete at about 450 ms", async () => {
    const { sent, finished } = await run('browser');
    const data = sent.filter((f) => f.type === 'h2-frame' && f.side === 'server' && f.frameType === 'DATA');
    expect(new Set(data.map((f) => f.at)).size).toBe(1); // all written at once
    expect(Math.round(finished)).toBe(450);
  });
});
