/**
 * Test helpers for the React bindings (not part of the public surface). Everything runs on vi fake
 * timers: `sleep` resolves on the fake clock, and `advance` moves it inside act() so React commits.
 */
import * as React from 'react';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { QueryClient } from 'roundtrip/query';
import { QueryClientProvider } from './QueryClientProvider';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve `value` after `ms` of fake time. */
export const later =
  <T,>(ms: number, value: T) =>
  (): Promise<T> =>
    sleep(ms).then(() => value);

export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    // The notify tick is a setTimeout(cb, 0), which the fake clock (like Node) runs 1 ms later; step
    // over it so that whatever settled during `ms` is also rendered.
    await vi.advanceTimersByTimeAsync(1);
  });
}

export function createClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function renderWithClient(client: QueryClient, ui: React.ReactElement) {
  const rendered = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return {
    ...rendered,
    rerender: (next: React.ReactElement) => rendered.rerender(<QueryClientProvider client={client}>{next}</QueryClientProvider>),
  };
}

/** A minimal error boundary that shows the error's message and can be reset from a button. */
export class ErrorBoundary extends React.Component<
  { fallback: (error: Error, reset: () => void) => React.ReactNode; children?: React.ReactNode; onReset?: () => void },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  reset = (): void => {
    this.props.onReset?.();
    this.setState({ error: null });
  };
  override render(): React.ReactNode {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
