import * as reference from '@tanstack/query-core';
import { describe, expect, it } from 'vitest';
import * as ours from './index';

describe('public surface', () => {
  it('exports every runtime value @tanstack/query-core exports, with the same kind', () => {
    for (const name of Object.keys(reference)) {
      expect(ours, `missing export ${name}`).toHaveProperty(name);
      expect(typeof (ours as Record<string, unknown>)[name], name).toBe(typeof (reference as Record<string, unknown>)[name]);
    }
  });

  it('keeps QUERY_VERSION and documents its own extensions', () => {
    expect(ours.QUERY_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const extra = Object.keys(ours)
      .filter((name) => !(name in reference))
      .sort();
    expect(extra).toEqual(['Instrumentation', 'MUTATION_STATUS_TRANSITIONS', 'QUERY_DEFAULTS', 'QUERY_STATUS_TRANSITIONS', 'QUERY_VERSION']);
  });

  it('classes expose the same public methods', () => {
    type Class = abstract new (...args: never[]) => unknown;
    const pairs: Array<[string, Class, Class]> = [
      ['QueryClient', ours.QueryClient, reference.QueryClient],
      ['QueryCache', ours.QueryCache, reference.QueryCache],
      ['MutationCache', ours.MutationCache, reference.MutationCache],
      ['Query', ours.Query, reference.Query],
      ['Mutation', ours.Mutation, reference.Mutation],
      ['QueryObserver', ours.QueryObserver, reference.QueryObserver],
      ['InfiniteQueryObserver', ours.InfiniteQueryObserver, reference.InfiniteQueryObserver],
      ['QueriesObserver', ours.QueriesObserver, reference.QueriesObserver],
      ['MutationObserver', ours.MutationObserver, reference.MutationObserver],
    ];
    const methods = (cls: Class) => {
      const names = new Set<string>();
      for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
        for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
      }
      return names;
    };
    for (const [name, mine, theirs] of pairs) {
      const missing = [...methods(theirs)].filter((method) => !methods(mine).has(method));
      expect(missing, `${name} lacks`).toEqual([]);
    }
  });

  it('managers expose the same methods', () => {
    for (const name of ['focusManager', 'onlineManager', 'notifyManager', 'timeoutManager', 'environmentManager'] as const) {
      const theirs = reference[name] as unknown as Record<string, unknown>;
      const mine = ours[name] as unknown as Record<string, unknown>;
      const list = (object: Record<string, unknown>) => {
        const names = new Set(Object.keys(object));
        for (let proto = Object.getPrototypeOf(object); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
          for (const key of Object.getOwnPropertyNames(proto)) if (key !== 'constructor') names.add(key);
        }
        return names;
      };
      const missing = [...list(theirs)].filter((key) => !list(mine).has(key));
      expect(missing, `${name} lacks`).toEqual([]);
    }
  });
});
