import { describe, expect, it } from 'vitest';
import { generateDeclarations } from './types-plugin.mjs';

describe('generated declarations for the editor', () => {
  it('lay out each library as a package entry with its real exported API', () => {
    const files = generateDeclarations();
    for (const entry of ['wire', 'query', 'react']) {
      expect(files[`file:///node_modules/roundtrip/${entry}/index.d.ts`]).toBe(`export * from '../src/${entry}/index';\n`);
      expect(files[`file:///node_modules/roundtrip/src/${entry}/index.d.ts`]).toBeDefined();
    }
    expect(files['file:///node_modules/roundtrip/src/wire/index.d.ts']).toContain('WIRE_VERSION');
    expect(files['file:///node_modules/roundtrip/src/wire/errors.d.ts']).toContain('class WireError');
    // roundtrip/playground (the options module) is offered too, without the build-time extractor.
    expect(files['file:///node_modules/roundtrip/playground/index.d.ts']).toBe("export * from '../src/playground/options/index';\n");
    expect(files['file:///node_modules/roundtrip/src/playground/options/index.d.ts']).toContain('defineOptions');
    expect(Object.keys(files).some((f) => f.includes('extract'))).toBe(false);
    expect(Object.keys(files).some((f) => /\.test\.d\.ts$/.test(f))).toBe(false);
  }, 60_000);
});
