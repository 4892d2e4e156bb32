import { describe, expect, it } from 'vitest';
import { csstypeStandIn, generateDeclarations, reactDeclarations } from './types-plugin.mjs';

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

describe("React's declarations for the editor", () => {
  it('sit where module resolution looks for react, react/jsx-runtime and react-dom/client', () => {
    const files = reactDeclarations();
    expect(JSON.parse(files['file:///node_modules/@types/react/package.json']!).types).toBe('index.d.ts');
    expect(files['file:///node_modules/@types/react/index.d.ts']).toContain('function useState');
    expect(files['file:///node_modules/@types/react/jsx-runtime.d.ts']).toContain('export { Fragment, JSX }');
    expect(files['file:///node_modules/@types/react-dom/client.d.ts']).toContain('function createRoot');
    // Small enough to ship with the editor: csstype's stand-in keeps names, not value types.
    expect(files['file:///node_modules/csstype/index.d.ts']!.length).toBeLessThan(60_000);
  });

  it("csstype's stand-in names every standard property, each taking any string or number", () => {
    const source =
      'export interface StandardLonghandProperties<TLength = (string & {}) | 0, TTime = string & {}> {\n  /** doc */\n  accentColor?: Property.AccentColor | undefined;\n  zIndex?: Property.ZIndex | undefined;\n}\n\nexport interface StandardShorthandProperties<TLength = (string & {}) | 0, TTime = string & {}> {\n  margin?: Property.Margin<TLength> | undefined;\n}\n';
    const out = csstypeStandIn(source);
    expect(out).toContain('export interface Properties<TLength = (string & {}) | 0, TTime = string & {}> {');
    expect(out).toContain('  accentColor?: string | number | undefined;');
    expect(out).toContain('  zIndex?: string | number | undefined;');
    expect(out).toContain('  margin?: string | number | undefined;');
    expect(() => csstypeStandIn('nothing here')).toThrow(/csstype: interface StandardLonghandProperties not found/);
  });
});
