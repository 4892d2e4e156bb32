// @vitest-environment jsdom
/**
 * Every challenge is solvable and not solved from the start: its starting snippet runs without error and fails
 * its check with a message that names what was measured; its reference solution passes. Both run the way the
 * docs' snippets run in tests (viz/run-snippet.ts), so the check sees the recording a reader's run would make.
 */
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
