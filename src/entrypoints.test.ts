import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

describe('roundtrip/* entry points', () => {
  it('resolve through the package name to the curated index files', async () => {
    const wire = await import('roundtrip/wire');
    const query = await import('roundtrip/query');
    const react = await import('roundtrip/react');
    expect(wire.WIRE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(query.QUERY_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    // react re-exports from query: the same binding, not a copy
    expect(react.QUERY_VERSION).toBe(query.QUERY_VERSION);
  });

  it('are declared in package.json exports', () => {
    expect(pkg.name).toBe('roundtrip');
    expect(Object.keys(pkg.exports)).toEqual(['./wire', './query', './react']);
  });
});
