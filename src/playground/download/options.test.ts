import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { extractOptionsSchema } from '../options/extract';
import { resolveValues } from '../options/schema';
import { withChosenDefaults } from './options';

const snippet = (name: string) => readFileSync(`content/snippets/${name}`, 'utf8');

/** The values the project's defineOptions returns: the defaults declared in its code. */
const defaultsOf = (code: string) => resolveValues(extractOptionsSchema(code)!, {});

describe('withChosenDefaults: a downloaded project runs with the options the reader chose', () => {
  it('rewrites the default of each chosen option, numbers, booleans and choices alike, and nothing else', () => {
    const code = snippet('query-offline.ts');
    const { code: out, missed } = withChosenDefaults(code, { startOnline: true, networkMode: 'offlineFirst', offlineFor: 500 });
    expect(missed).toEqual([]);
    expect(defaultsOf(out)).toEqual({ startOnline: true, networkMode: 'offlineFirst', offlineFor: 500 });
    // Every other line as it was.
    const changedLines = out.split('\n').filter((line, i) => line !== code.split('\n')[i]);
    expect(changedLines).toHaveLength(3);
  });

  it('works for each docs snippet that declares options, for every option, with a value other than its default', () => {
    const declaring = readdirSync('content/snippets').filter((name) => snippet(name).includes('defineOptions({'));
    expect(declaring.length).toBeGreaterThanOrEqual(6);
    for (const name of declaring) {
      const code = snippet(name);
      const schema = extractOptionsSchema(code)!;
      const chosen = Object.fromEntries(
        Object.entries(schema).map(([key, spec]) => [
          key,
          spec.type === 'boolean'
            ? !spec.default
            : spec.type === 'select'
              ? spec.choices.find((c) => c !== spec.default)!
              : (spec.max ?? spec.default + 1) === spec.default
                ? spec.min!
                : (spec.max ?? spec.default + 1),
        ]),
      );
      const { code: out, missed } = withChosenDefaults(code, chosen);
      expect(missed, name).toEqual([]);
      expect(defaultsOf(out), name).toEqual(chosen);
    }
  });

  it('names the options it could not find (code edited into a shape it does not read), and leaves the code alone', () => {
    const code =
      "import { defineOptions } from 'roundtrip/playground';\nconst base = 3;\nconst { n } = defineOptions({ n: { type: 'number', default: base, doc: 'N' } });\n";
    expect(withChosenDefaults(code, { n: 4, gone: true })).toEqual({ code, missed: ['gone', 'n'] });
  });

  it('writes strings as string literals, quotes and all', () => {
    const code = "defineOptions({ label: { type: 'select', choices: ['a', \"it's\"], default: 'a', doc: 'x' } });";
    expect(withChosenDefaults(code, { label: "it's" }).code).toBe(
      "defineOptions({ label: { type: 'select', choices: ['a', \"it's\"], default: \"it's\", doc: 'x' } });",
    );
  });
});
