/**
 * The set-up commands a reader copies from the README install with the npm that package.json pins, the one
 * .ci/run installs with: a README naming another npm would write a lockfile that CI then rejects.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('pinned npm', () => {
  const pinned: string = JSON.parse(read('package.json')).packageManager;

  it('package.json pins an exact npm version', () => {
    expect(pinned).toMatch(/^npm@\d+\.\d+\.\d+$/);
  });

  it("the README's two set-up commands install with it", () => {
    const setUp = read('README.md').split('```sh')[1]!.split('```')[0]!;
    const commands = setUp.trim().split('\n');
    expect(commands).toHaveLength(2);
    for (const command of commands) expect(command.startsWith(`npx -y ${pinned} install && npm `)).toBe(true);
  });

  it('.ci/run installs with the version package.json names, not a copy of it', () => {
    const ci = read('.ci/run');
    expect(ci).toContain('require("./package.json").packageManager');
    expect(ci).not.toContain(pinned.slice('npm@'.length));
  });
});
