/**
 * Differential harness: run one scenario script against @tanstack/query-core (the reference) and
 * against roundtrip/query, each on fresh vi fake timers starting at the same instant, and compare
 * what was observed: every observer result, every cache event and whatever the script logged.
 *
 * Recorded values are normalised (functions dropped, errors reduced to their message, library
 * objects to their identity-free essentials) so the comparison is about behaviour, not identity.
 * Test-only: production code never imports @tanstack/*.
 */
import * as reference from '@tanstack/query-core';
import { expect, it, vi } from 'vitest';
import * as ours from '../index';

/** The scenarios use the shared v5 interface; both modules satisfy it structurally. */
export type Lib = typeof ours;

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

export interface Ctx {
  /** Loosely typed on purpose: scripts poke at both libraries with the same code. */
  lib: any;
  client: any;
  /** Append a labelled, normalised value to the log. */
  log: (label: string, value?: unknown) => void;
  /** Subscribe and log every result the observer emits (and the initial current result). */
  observe: (name: string, observer: { subscribe: (fn: (r: any) => void) => () => void; getCurrentResult?: () => any }) => () => void;
  /** Move the fake clock, running due timers and microtasks. */
  advance: (ms: number) => Promise<void>;
  /** A promise resolving with `value` after `ms` of fake time. */
  after: <T>(ms: number, value: T) => Promise<T>;
  /** A promise rejecting with Error(message) after `ms` of fake time. */
  failAfter: (ms: number, message: string) => Promise<never>;
  /** Advance fake time 1 ms at a time until `promise` settles (max 60 s); returns its value. */
  settle: <T>(promise: Promise<T>) => Promise<T>;
  /** Catch and log a promise's outcome under `label` (does not block). */
  track: (label: string, promise: Promise<unknown>) => void;
}

export type Scenario = (ctx: Ctx) => Promise<void>;

export interface ScenarioOptions {
  /** QueryClient constructor config (may use the lib's cache classes). */
  config?: (lib: Lib, log: Ctx['log']) => Record<string, unknown>;
  /** Skip recording cache events (for noisy scenarios). */
  noCacheEvents?: boolean;
}

function normalise(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (depth > 12) return '<deep>';
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function') return undefined;
    if (typeof value === 'symbol') return value.description ?? 'symbol';
    return value;
  }
  if (value instanceof Error) return { error: value.message, cancelled: value.constructor?.name === 'CancelledError' || undefined };
  if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) return { signal: value.aborted };
  if (seen.has(value)) return '<cycle>';
  seen.add(value);
  // library objects: keep what identifies them
  const v = value as Record<string, unknown>;
  if ('queryHash' in v && 'observers' in v && 'state' in v) return { query: v.queryHash };
  if ('mutationId' in v && 'state' in v) return { mutation: v.mutationId };
  if (Array.isArray(value)) return value.map((item) => normalise(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v).sort()) {
    if (typeof v[key] === 'function') continue;
    out[key] = normalise(v[key], depth + 1, seen);
  }
  return out;
}

function queryEvent(event: any): unknown {
  const query = event.query;
  return {
    cache: 'query',
    type: event.type,
    hash: query?.queryHash,
    action: event.action ? normalise(event.action) : undefined,
    status: query?.state.status,
    fetchStatus: query?.state.fetchStatus,
    observers: query?.getObserversCount(),
  };
}

function mutationEvent(event: any): unknown {
  const mutation = event.mutation;
  return {
    cache: 'mutation',
    type: event.type,
    id: mutation?.mutationId,
    action: event.action ? normalise(event.action) : undefined,
    status: mutation?.state.status,
    isPaused: mutation?.state.isPaused,
  };
}

/** Run a scenario against one library and return everything it observed. */
export async function runScenario(lib: Lib, scenario: Scenario, options: ScenarioOptions = {}): Promise<Array<unknown>> {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  lib.environmentManager.setIsServer(() => false);
  lib.onlineManager.setOnline(true);
  lib.focusManager.setFocused(undefined);
  const entries: Array<unknown> = [];
  const log: Ctx['log'] = (label, value) => {
    entries.push({ label, at: Date.now() - T0, value: normalise(value) });
  };
  const client = new lib.QueryClient(options.config?.(lib, log) as any);
  const unsubscribers: Array<() => void> = [];
  if (!options.noCacheEvents) {
    unsubscribers.push(client.getQueryCache().subscribe((event: unknown) => entries.push(queryEvent(event))));
    unsubscribers.push(client.getMutationCache().subscribe((event: unknown) => entries.push(mutationEvent(event))));
  }
  const ctx: Ctx = {
    lib,
    client,
    log,
    observe: (name, observer) => {
      if (observer.getCurrentResult) log(`${name}:initial`, observer.getCurrentResult());
      const stop = observer.subscribe((result) => log(name, result));
      unsubscribers.push(stop);
      return stop;
    },
    advance: async (ms) => {
      await vi.advanceTimersByTimeAsync(ms);
    },
    after: (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms)),
    failAfter: (ms, message) => new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms)),
    settle: async (promise) => {
      let done = false;
      promise.then(
        () => (done = true),
        () => (done = true),
      );
      for (let i = 0; i < 60000 && !done; i++) await vi.advanceTimersByTimeAsync(i === 0 ? 0 : 1);
      return promise;
    },
    track: (label, promise) => {
      promise.then(
        (value) => log(`${label}:resolved`, value),
        (error) => log(`${label}:rejected`, error),
      );
    },
  };
  try {
    await scenario(ctx);
    await vi.advanceTimersByTimeAsync(0);
  } finally {
    for (const stop of unsubscribers) stop();
    client.clear();
    lib.onlineManager.setOnline(true);
    lib.focusManager.setFocused(undefined);
    vi.clearAllTimers();
    vi.useRealTimers();
  }
  return entries;
}

/** Declare a differential test: the same script must be observed identically on both libraries. */
export function diff(name: string, scenario: Scenario, options?: ScenarioOptions): void {
  it(`matches @tanstack/query-core: ${name}`, async () => {
    const expected = await runScenario(reference as unknown as Lib, scenario, options);
    const actual = await runScenario(ours, scenario, options);
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
}

export const libraries = { reference: reference as unknown as Lib, ours };
