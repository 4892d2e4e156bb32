/**
 * react-dom/client as a snippet gets it: an error an error boundary caught is reported as handled, not as an error.
 *
 * React's default `onCaughtError` logs a caught error with console.error, so the playground's console showed it
 * in red after "Finished" although the boundary did its job and the preview shows its fallback, which reads as a
 * failure of the example. Roots made here report it once, at the info level, naming the boundary. A snippet that
 * passes its own `onCaughtError` keeps it: its options are spread over this default.
 */
import { formatArgs } from './format';

interface CaughtErrorInfo {
  readonly componentStack?: string | undefined;
  readonly errorBoundary?: unknown;
}
type RootOptions = { onCaughtError?: (error: unknown, info: CaughtErrorInfo) => void } & Record<string, unknown>;

export interface ReactDomClientLike {
  createRoot(container: unknown, options?: RootOptions): unknown;
  hydrateRoot(container: unknown, children: unknown, options?: RootOptions): unknown;
}

/** The line the console shows for `error`, caught by `boundary` (a component instance, when React names one). */
export function describeCaught(error: unknown, boundary?: unknown): string {
  const name = (boundary as { constructor?: { name?: unknown } } | null | undefined)?.constructor?.name;
  const by = typeof name === 'string' && name !== '' && name !== 'Object' ? ` <${name}>` : '';
  const what = error instanceof Error ? `${error.name}: ${error.message}` : formatArgs([error]);
  return `Caught by the error boundary${by}: ${what}`;
}

export function reportCaughtErrors<T extends ReactDomClientLike>(client: T, report: (line: string) => void): T {
  const onCaughtError = (error: unknown, info: CaughtErrorInfo) => report(describeCaught(error, info.errorBoundary));
  return Object.freeze({
    ...client,
    createRoot: (container: unknown, options?: RootOptions) => client.createRoot(container, { onCaughtError, ...options }),
    hydrateRoot: (container: unknown, children: unknown, options?: RootOptions) => client.hydrateRoot(container, children, { onCaughtError, ...options }),
  });
}
