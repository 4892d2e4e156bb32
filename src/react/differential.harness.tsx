/**
 * Differential harness: run one scenario against roundtrip/react and against @tanstack/react-query
 * (each with a QueryClient from its own core), on vi fake timers starting at t = 0, and return what every
 * render saw. The two logs must be equal: same renders, in the same order, with the same values.
 *
 * A scenario is written once against `Lib` (the shared v5 interface) and logs through `ctx.log`;
 * values are normalised (errors to their message, functions dropped) so the logs compare with toEqual.
 */
import * as React from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import * as tanstack from '@tanstack/react-query';
import * as roundtrip from './index';
import { ErrorBoundary } from './test-utils';

export type Lib = typeof roundtrip;
export const ours: Lib = roundtrip;
// Same interface by design; the cast only bridges the two packages' nominal class types.
export const theirs: Lib = tanstack as unknown as Lib;

export interface Ctx {
  lib: Lib;
  client: InstanceType<Lib['QueryClient']>;
  log: (entry: unknown) => void;
  ErrorBoundary: typeof ErrorBoundary;
}

export interface Driver {
  advance: (ms: number) => Promise<void>;
  /** Run `fn` inside act() (for cache writes, focus changes, etc.). */
  act: (fn: () => unknown) => Promise<void>;
  click: (text: string) => Promise<void>;
  rerender: (ui: React.ReactElement) => void;
}

export interface Scenario {
  name: string;
  /** Render inside <React.StrictMode> (double render, double effects). */
  strict?: boolean;
  clientConfig?: Record<string, unknown>;
  setup: (ctx: Ctx) => React.ReactElement;
  drive: (driver: Driver, ctx: Ctx) => Promise<void>;
}

export function normalise(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return { error: value.message };
  if (typeof value === 'function') return '[fn]';
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => normalise(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = normalise((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

/** Pick `keys` off a hook result (reading them is what tracks them) and normalise. */
export function pick(result: object, keys: ReadonlyArray<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = normalise((result as Record<string, unknown>)[key]);
  return out;
}

export async function runScenario(lib: Lib, scenario: Scenario): Promise<Array<unknown>> {
  vi.useFakeTimers({ now: 0 });
  const entries: Array<unknown> = [];
  const client = new lib.QueryClient(scenario.clientConfig ?? { defaultOptions: { queries: { retry: false } } });
  const ctx: Ctx = { lib, client, log: (entry) => entries.push(normalise(entry)), ErrorBoundary };
  const Provider = lib.QueryClientProvider;
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const wrap = (ui: React.ReactElement) => {
      const tree = <Provider client={client}>{ui}</Provider>;
      return scenario.strict ? <React.StrictMode>{tree}</React.StrictMode> : tree;
    };
    const view = render(wrap(scenario.setup(ctx)));
    const driver: Driver = {
      advance: async (ms) => {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(ms);
        });
      },
      act: async (fn) => {
        await act(async () => {
          await fn();
        });
      },
      click: async (text) => {
        await act(async () => {
          fireEvent.click(screen.getByText(text));
        });
      },
      rerender: (ui) => view.rerender(wrap(ui)),
    };
    await scenario.drive(driver, ctx);
    entries.push({ final: normalise(document.body.textContent) });
    view.unmount();
  } finally {
    cleanup();
    client.clear();
    errors.mockRestore();
    vi.useRealTimers();
  }
  return entries;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
export const later =
  <T,>(ms: number, value: T) =>
  (): Promise<T> =>
    sleep(ms).then(() => value);
export const failLater = (ms: number, message: string) => (): Promise<never> => sleep(ms).then(() => Promise.reject(new Error(message)));
