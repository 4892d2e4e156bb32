import * as reference from '@tanstack/query-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashKey, partialMatchKey, replaceEqualDeep } from './utils';

// JSON-ish values, including the awkward bits: index-like names, undefined, NaN, -0, nesting, Dates.
const leaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(Number.NaN),
  fc.constant(-0),
  fc.date({ noInvalidDate: true }),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), tie('object')),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('1', '01', '10', 'b', 'a')), tie('node'), { maxKeys: 4 }),
}));
const key = fc.array(value.node, { maxLength: 4 });

describe('key helpers agree with @tanstack/query-core on generated inputs', () => {
  it('hashKey', () => {
    fc.assert(
      fc.property(key, (k) => {
        expect(hashKey(k)).toBe(reference.hashKey(k));
      }),
      { numRuns: 500, seed: 20260101 },
    );
  });

  it('hashKey on shapes only the sorting replacer handles (toJSON, class instances, null prototypes, tags)', () => {
    class Point {
      constructor(
        public y: number,
        public x: { b: number; a: number },
      ) {}
    }
    const nullProto = Object.assign(Object.create(null) as object, { b: 1, a: 2 });
    const tagged = { b: 1, a: 2, [Symbol.toStringTag]: 'Tagged' };
    const withToJson = { toJSON: () => ({ b: 1, a: { d: 1, c: 2 } }) };
    const arrayWithToJson = Object.assign([1, 2], { toJSON: () => ({ z: 1, y: 2 }) });
    let deep: unknown = { b: 1, a: 2 };
    for (let i = 0; i < 40; i++) deep = [deep];
    const keys: Array<Array<unknown>> = [
      [new Point(1, { b: 2, a: 3 })],
      [nullProto],
      [tagged],
      [withToJson],
      ['x', arrayWithToJson],
      [deep],
      [{ b: [{ d: 1, c: 2 }], a: { f: 1, e: [3, { h: 1, g: 2 }] } }],
      [
        { a: 1, b: 2 },
        { '2': 'x', '10': 'y', b: 1 },
      ],
    ];
    for (const k of keys) expect(hashKey(k)).toBe(reference.hashKey(k));
  });

  it('partialMatchKey', () => {
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(partialMatchKey(a, b)).toBe(reference.partialMatchKey(a, b));
        expect(partialMatchKey(a, a.slice(0, 2))).toBe(reference.partialMatchKey(a, a.slice(0, 2)));
      }),
      { numRuns: 500, seed: 20260101 },
    );
  });

  it('replaceEqualDeep keeps the same values and the same shared references', () => {
    fc.assert(
      fc.property(value.node, value.node, (a, b) => {
        const ours = replaceEqualDeep(a, b);
        const theirs = reference.replaceEqualDeep(a, b);
        expect(ours).toStrictEqual(theirs);
        expect(ours === a).toBe(theirs === a);
        expect(ours === b).toBe(theirs === b);
        const clone = structuredClone(b);
        expect(replaceEqualDeep(b, clone) === b).toBe(reference.replaceEqualDeep(b, clone) === b);
      }),
      { numRuns: 500, seed: 20260101 },
    );
  });
});

describe('cache searches agree with a full scan (the reference)', () => {
  // findAll's leading-primitive check (queryCache.ts) must tell '0' from 0, and never match NaN
  const part = fc.oneof(
    fc.constantFrom('todos', 'users', 'a', '0', 'NaN', Number.NaN),
    fc.integer({ min: 0, max: 3 }),
    fc.constant(null),
    fc.record({ id: fc.integer({ min: 0, max: 2 }) }),
  );
  const keyArb = fc.array(part, { minLength: 0, maxLength: 3 });

  it('findAll with partial keys and type filters returns the same queries in the same order', async () => {
    const { QueryClient, QueryObserver } = await import('./index');
    fc.assert(
      fc.property(
        fc.array(keyArb, { maxLength: 25 }),
        fc.array(fc.tuple(keyArb, fc.constantFrom('all', 'active', 'inactive'), fc.boolean()), { maxLength: 6 }),
        fc.array(fc.nat(24), { maxLength: 5 }),
        (keys, filters, observedIdx) => {
          const mine = new QueryClient();
          const theirs = new reference.QueryClient();
          const stops: Array<() => void> = [];
          keys.forEach((key, i) => {
            mine.setQueryData(key, i);
            theirs.setQueryData(key, i);
          });
          for (const index of observedIdx) {
            const key = keys[index];
            if (!key) continue;
            stops.push(new QueryObserver(mine, { queryKey: key, staleTime: Infinity }).subscribe(() => undefined));
            stops.push(new reference.QueryObserver(theirs, { queryKey: key, staleTime: Infinity }).subscribe(() => undefined));
          }
          // a removal and re-insertion moves a query to the end of the cache
          if (keys[0]) {
            const [q1, q2] = [mine.getQueryCache().find({ queryKey: keys[0] }), theirs.getQueryCache().find({ queryKey: keys[0] })];
            if (q1 && q2) {
              mine.getQueryCache().remove(q1);
              mine.getQueryCache().add(q1);
              theirs.getQueryCache().remove(q2);
              theirs.getQueryCache().add(q2);
            }
          }
          for (const [queryKey, type, exact] of filters) {
            const a = mine
              .getQueryCache()
              .findAll({ queryKey, type, exact })
              .map((q) => q.queryHash);
            const b = theirs
              .getQueryCache()
              .findAll({ queryKey, type, exact })
              .map((q) => q.queryHash);
            expect(a).toEqual(b);
          }
          for (const stop of stops) stop();
          mine.clear();
          theirs.clear();
        },
      ),
      { numRuns: 300, seed: 20260101 },
    );
  });
});
