import { describe, expect, it } from 'vitest';
import { extractOptionsSchema } from './extract';

describe('extractOptionsSchema (build time)', () => {
  it('reads the literal schema without running the snippet', () => {
    const code = [
      "import { defineOptions as knobs } from 'roundtrip/playground';",
      "throw new Error('never runs');",
      'const o = knobs({',
      "  loss: { type: 'number', default: 0, min: 0, max: 0.5, step: 0.01, doc: 'Loss' },",
      "  'delta': { type: 'number', default: -1, min: -Infinity, doc: 'Delta' },",
      "  httpVersion: { type: 'select', choices: ['2', '3'] as const, default: '3', doc: 'Version' },",
      '});',
    ].join('\n');
    expect(extractOptionsSchema(code)).toEqual({
      loss: { type: 'number', default: 0, min: 0, max: 0.5, step: 0.01, doc: 'Loss' },
      delta: { type: 'number', default: -1, min: -Infinity, doc: 'Delta' },
      httpVersion: { type: 'select', choices: ['2', '3'], default: '3', doc: 'Version' },
    });
  });

  it('returns undefined for a snippet without options', () => {
    expect(extractOptionsSchema("import { createSimulation } from 'roundtrip/wire';\nconst defineOptions = 1;")).toBeUndefined();
  });

  it('names the file and line of a schema it cannot read or that is wrong', () => {
    const computed =
      "import { defineOptions } from 'roundtrip/playground';\nconst max = 5;\ndefineOptions({ n: { type: 'number', default: 1, max, doc: 'n' } });";
    expect(() => extractOptionsSchema(computed, 'a.ts')).toThrow('a.ts:3: defineOptions takes plain "name: value" entries');
    const variable =
      "import { defineOptions } from 'roundtrip/playground';\nconst max = 5;\ndefineOptions({ n: { type: 'number', default: 1, max: max, doc: 'n' } });";
    expect(() => extractOptionsSchema(variable, 'a.ts')).toThrow(/a\.ts:3:\d+: defineOptions needs literal values.*found `max`/);
    const wrong = "import { defineOptions } from 'roundtrip/playground';\n\ndefineOptions({ n: { type: 'number', default: 9, max: 5, doc: 'n' } });";
    expect(() => extractOptionsSchema(wrong, 'b.ts')).toThrow('b.ts:3: defineOptions: option "n" has default 9');
  });
});
