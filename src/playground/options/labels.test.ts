/**
 * Every knob of a docs snippet has a label a newcomer can read (issue #27: the panel said "rtt"). The panel
 * falls back to the name in words (humanName), which is no better for an abbreviation, so the docs snippets give
 * labels; the name itself is shown beside the doc line, where it ties the control to the snippet's code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractOptionsSchema } from './extract';
import { humanName } from './OptionsPanel';
import { SNIPPETS_DIR } from '../viz/run-snippet';

const snippets = readdirSync(SNIPPETS_DIR).filter((f) => /\.tsx?$/.test(f));

describe('option labels', () => {
  const withOptions = snippets.flatMap((file) => {
    const schema = extractOptionsSchema(readFileSync(`${SNIPPETS_DIR}/${file}`, 'utf8'), file);
    return schema ? [{ file, schema }] : [];
  });

  it('every option of every docs snippet has a label of its own, in words, starting with a capital', () => {
    expect(withOptions.length).toBeGreaterThan(10);
    const unlabelled = withOptions.flatMap(({ file, schema }) =>
      Object.entries(schema).flatMap(([name, spec]) => (spec.label && spec.label !== name && /^[A-Z]/.test(spec.label) ? [] : [`${file}: ${name}`])),
    );
    expect(unlabelled).toEqual([]);
  });

  it('an option without a label is named in words', () => {
    expect(humanName('retryDelay')).toBe('Retry delay');
    expect(humanName('max_connections')).toBe('Max connections');
    expect(humanName('loss')).toBe('Loss');
  });
});
