import { describe, expect, it } from 'vitest';
import { formatArgs, formatValue } from './format';

describe('console formatting', () => {
  it('prints top-level strings bare and nested strings quoted', () => {
    expect(formatArgs(['status', 200, { ok: true, text: 'OK' }])).toBe('status 200 { ok: true, text: "OK" }');
  });
  it('shows the values a console shows', () => {
    expect(formatValue([1, 'a', null, undefined, 10n, -0])).toBe('[1, "a", null, undefined, 10n, -0]');
    expect(formatValue(new Map([['k', [1]]]))).toBe('Map(1) { "k" => [1] }');
    expect(formatValue(new Set())).toBe('Set(0) {}');
    expect(formatValue(new TypeError('bad'))).toBe('TypeError: bad');
    expect(formatValue(function named() {})).toBe('[Function: named]');
    expect(formatValue({ 'content-type': 'text/plain' })).toBe('{ "content-type": "text/plain" }');
    expect(formatValue(new Uint8Array([1, 2]))).toBe('Uint8Array(2) [1, 2]');
  });
  it('survives cycles and caps depth, length and size', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(formatValue(a)).toBe('{ name: "a", self: [Circular] }');
    expect(formatValue({ a: { b: { c: { d: { e: 1 } } } } })).toBe('{ a: { b: { c: { d: [Object] } } } }');
    expect(formatValue(Array.from({ length: 60 }, (_, i) => i))).toContain('… 10 more');
    const big = formatArgs(['x'.repeat(20_000)]);
    expect(big.length).toBeLessThan(10_100);
    expect(big).toContain('10000 more characters');
  });
  it("shows an error's cause chain, as fetch failures put the reason there", () => {
    const failed = new TypeError('Failed to fetch', { cause: new Error('connection refused by api.example') });
    expect(formatValue(failed)).toBe('TypeError: Failed to fetch (caused by Error: connection refused by api.example)');
    const deep = new Error('a', { cause: new Error('b', { cause: 'c' }) });
    expect(formatValue(deep)).toBe('Error: a (caused by Error: b (caused by "c"))');
    const loop = new Error('self');
    (loop as { cause?: unknown }).cause = loop;
    expect(formatValue(loop)).toBe('Error: self (caused by [Circular])');
  });
  it('shows repeated (non-cyclic) references in full', () => {
    const shared = { x: 1 };
    expect(formatValue([shared, shared])).toBe('[{ x: 1 }, { x: 1 }]');
  });
});
