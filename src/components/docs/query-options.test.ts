/**
 * The option tables cannot drift from the library: every default constant is documented, every cell built
 * from a constant shows its value, every option the spec's tables list has a row, and the inline markdown
 * renders to clean HTML. (That the constants themselves are the library's real behaviour, on ours and on
 * @tanstack/query-core, is src/query/defaults.test.ts.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUERY_DEFAULTS } from 'roundtrip/query';
import { describe, expect, it } from 'vitest';
import {
  DEFAULTS_TABLE,
  DEFAULT_BACKOFF,
  INFINITE_QUERY_OPTIONS,
  MUTATION_OPTIONS,
  QUERY_OPTIONS,
  code,
  duration,
  inlineMarkdown,
  type DefaultName,
} from './query-options';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const spec = readFileSync(path.resolve(repoRoot, '../shared/spec/query-library.md'), 'utf8');
const names = Object.keys(QUERY_DEFAULTS) as DefaultName[];
const queryOptions = Object.values(QUERY_OPTIONS).flat();
const optionLists = { query: queryOptions, mutation: MUTATION_OPTIONS, infinite: INFINITE_QUERY_OPTIONS };

/** The option names in the first column of the spec table under `### heading`. */
function specOptionNames(heading: string): string[] {
  const section = spec.split(`### ${heading}`)[1]!.split('\n#')[0]!;
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Option') && !l.startsWith('|---'));
  return rows.flatMap((row) =>
    row
      .split('|')[1]!
      .split(',')
      .map((name) => name.trim()),
  );
}

/** How a constant's value may appear in a cell. */
function renderings(value: unknown): string[] {
  const out = [code(value)];
  if (typeof value === 'number' && Number.isFinite(value)) out.push(duration(value), String(value));
  return out;
}

/** STALE_TIME -> staleTime: the option a constant is the default of, when the names line up. */
const optionOf = (name: DefaultName) => name.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

describe('query option tables', () => {
  it('document every default constant, in the defaults table and at its option', () => {
    for (const name of names) {
      expect(
        DEFAULTS_TABLE.some((row) => row.from?.includes(name)),
        `${name} in DEFAULTS_TABLE`,
      ).toBe(true);
    }
    const atOption = new Set([...queryOptions, ...MUTATION_OPTIONS].flatMap((o) => o.from ?? []));
    const clientLevel: DefaultName[] = ['CANCEL_REFETCH', 'FETCH_QUERY_RETRY', 'REFETCH_TYPE', 'FILTER_TYPE'];
    expect(names.filter((name) => !atOption.has(name) && !clientLevel.includes(name))).toEqual([]);
  });

  it('show the value of every constant a cell is built from', () => {
    const cells = [
      ...Object.values(optionLists).flatMap((list) => list.map((o) => ({ label: o.name, text: o.default, from: o.from }))),
      ...DEFAULTS_TABLE.map((row) => ({ label: row.item, text: row.value, from: row.from })),
    ];
    for (const { label, text, from = [] } of cells) {
      for (const name of from) {
        const shown = renderings(QUERY_DEFAULTS[name]).some((r) => text.includes(r));
        expect(shown, `${label}: "${text}" shows ${name} = ${String(QUERY_DEFAULTS[name])}`).toBe(true);
      }
    }
  });

  it('build the cell of every option that has a constant from that constant', () => {
    for (const [kind, list] of Object.entries(optionLists)) {
      for (const option of list) {
        const own = kind === 'mutation' ? names.find((name) => name === `MUTATION_${option.name.toUpperCase()}`) : undefined;
        const constant = own ?? names.find((name) => optionOf(name) === option.name);
        if (constant) expect(option.from, `${kind} option ${option.name}`).toContain(constant);
      }
    }
    expect(MUTATION_OPTIONS.find((o) => o.name === 'retry')!.from).toEqual(['MUTATION_RETRY']);
    expect(queryOptions.find((o) => o.name === 'retryDelay')!.default).toBe(DEFAULT_BACKOFF);
  });

  it("cover every option of the spec's query and mutation tables", () => {
    const query = specOptionNames('Query options (useQuery)').filter((n) => n !== 'suspense' && n !== 'others');
    expect(query.length).toBeGreaterThan(20);
    expect(query.filter((n) => !queryOptions.some((o) => o.name === n))).toEqual([]);
    const mutation = specOptionNames('Mutation options (useMutation)');
    expect(mutation.length).toBeGreaterThan(10);
    expect(mutation.filter((n) => !MUTATION_OPTIONS.some((o) => o.name === n))).toEqual([]);
  });

  it('show the common claim where it states another default', () => {
    const triggers = Object.fromEntries(QUERY_OPTIONS.triggers.map((o) => [o.name, o]));
    expect(triggers.refetchInterval!.specSays).toMatch(/refetch immediately/);
    expect(triggers.refetchInterval!.default).toBe('`false`');
    expect(triggers.refetchOnReconnect!.default).toMatch(/'always'/);
    // The Defaults page shows the same correction beside the default itself.
    const interval = DEFAULTS_TABLE.find((row) => row.item === '`refetchInterval`');
    expect(interval?.specSays).toMatch(/refetch immediately/);
  });

  it('state the enabled rule with its exceptions: invalidation refetches skip it, skipToken breaks refetch()', () => {
    const enabled = QUERY_OPTIONS.identity.find((o) => o.name === 'enabled')!.rule;
    expect(enabled).toMatch(/`invalidateQueries` and `refetchQueries`/);
    expect(enabled).toMatch(/`refetch\(\)` still works/);
    expect(enabled).toMatch(/skipToken/);
    expect(enabled).toMatch(/Missing queryFn/);
    expect(enabled).not.toMatch(/same effect/);
  });

  it('mark the infinite queryFn context field direction as deprecated, as v5 types.ts does', () => {
    const context = INFINITE_QUERY_OPTIONS.find((o) => o.label === '`queryFn` context')!.rule;
    expect(context).toMatch(/`direction`[^.]*deprecated/);
  });

  it('keep names unique within each table', () => {
    for (const list of [...Object.values(QUERY_OPTIONS), MUTATION_OPTIONS, INFINITE_QUERY_OPTIONS]) {
      const seen = list.map((o) => o.label ?? o.name);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });
});

describe('cell formatting', () => {
  it('writes values as code and durations in words', () => {
    expect(code('online')).toBe("`'online'`");
    expect(code(Infinity)).toBe('`Infinity`');
    expect(duration(300_000)).toBe('300,000 ms (5 minutes)');
    expect(duration(60_000)).toBe('60,000 ms (1 minute)');
    expect(duration(1500)).toBe('1,500 ms');
    expect(DEFAULT_BACKOFF).toBe('`min(1000 × 2^failureCount, 30000)` ms: 1 s, 2 s, 4 s, ... up to 30 s');
  });

  it('renders inline markdown, escaping everything else', () => {
    expect(inlineMarkdown('`a < b` and <b> & [link](/query/x/#y), *em*, **strong**')).toBe(
      '<code>a &lt; b</code> and &lt;b&gt; &amp; <a href="/query/x/#y">link</a>, <em>em</em>, <strong>strong</strong>',
    );
    expect(inlineMarkdown('`*not emphasis*` [`not a link`](x)')).toContain('<code>*not emphasis*</code>');
  });

  it('leaves no markdown markers in any rendered cell', () => {
    const cells = [
      ...Object.values(optionLists).flatMap((list) => list.flatMap((o) => [o.label ?? '', o.type, o.default, o.rule, o.specSays ?? ''])),
      ...DEFAULTS_TABLE.flatMap((row) => [row.item, row.value, row.specSays ?? '']),
    ];
    for (const cell of cells) {
      const html = inlineMarkdown(cell).replace(/<code>.*?<\/code>/g, '');
      expect(html, cell).not.toMatch(/`|\]\(|\*\*/);
    }
  });
});
