// @vitest-environment jsdom
/**
 * Every challenge is solvable and not solved from the start: its starting snippet runs without error and fails
 * its check with a message that names what was measured; its reference solution passes. Both run the way the
 * docs' snippets run in tests (viz/run-snippet.ts), so the check sees the recording a reader's run would make.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as query from 'roundtrip/query';
import { recordCode } from '../viz/run-snippet';
import { VIEWS } from '../viz/views';
import { CHALLENGES } from './catalog';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(Date.UTC(2026, 0, 1));
  query.environmentManager.setIsServer(() => false);
  query.onlineManager.setOnline(true);
});

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

it('ids are unique, and each challenge has a goal and one to three hints', () => {
  expect(new Set(CHALLENGES.map((c) => c.id)).size).toBe(CHALLENGES.length);
  for (const c of CHALLENGES) {
    expect(c.goal.length, c.id).toBeGreaterThan(20);
    expect(c.hints.length, c.id).toBeGreaterThanOrEqual(1);
    expect(c.hints.length, c.id).toBeLessThanOrEqual(3);
    expect(c.page, c.id).toMatch(/^\/(http|query)\/[a-z0-9-]+\/$/);
  }
});

describe.each(CHALLENGES.map((c) => [c.id, c] as const))('%s', (id, challenge) => {
  it('the starting snippet runs and fails the check, naming what it measured', async () => {
    const run = await recordCode(challenge.starter, { name: `${id}.start`, react: challenge.react ?? false });
    const verdict = challenge.check(run.recording, run.output);
    expect(verdict.passed, verdict.message).toBe(false);
    expect(verdict.message).toMatch(/\d/);
  }, 60_000);

  it('the reference solution passes, and the view it opens on draws its run', async () => {
    const run = await recordCode(challenge.solution, { name: `${id}.solution`, react: challenge.react ?? false });
    const verdict = challenge.check(run.recording, run.output);
    expect(verdict, run.output.join('\n')).toMatchObject({ passed: true });
    expect(VIEWS.find((v) => v.id === challenge.view)?.applies(run.recording), `${id} opens on ${challenge.view}`).toBe(true);
  }, 60_000);
});

describe('placement', () => {
  const pages = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? pages(`${dir}/${e.name}`) : e.name.endsWith('.mdx') ? [`${dir}/${e.name}`] : [],
    );
  const mdx = pages('content/docs').map((path) => ({ href: `/${path.slice('content/docs/'.length, -'.mdx'.length)}/`, text: readFileSync(path, 'utf8') }));

  it('every page with a playground has at least one challenge, and at least 24 in all', () => {
    expect(CHALLENGES.length).toBeGreaterThanOrEqual(24);
    const missing = mdx.filter((p) => p.text.includes('<Playground') && !p.text.includes('<Challenge ')).map((p) => p.href);
    expect(missing).toEqual([]);
  });

  it('each challenge is placed once, on the page it names', () => {
    for (const c of CHALLENGES) {
      const on = mdx.filter((p) => p.text.includes(`<Challenge id="${c.id}"`)).map((p) => p.href);
      expect(on, c.id).toEqual([c.page]);
    }
    const placed = mdx.flatMap((p) => [...p.text.matchAll(/<Challenge id="([^"]+)"/g)].map((m) => m[1]));
    expect(placed.filter((id) => !CHALLENGES.some((c) => c.id === id))).toEqual([]);
  });
});
