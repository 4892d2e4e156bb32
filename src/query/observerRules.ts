/**
 * When does an observer fetch? The decision rules, as small pure functions of (query, options).
 *
 *   on mount       no data yet (and not a failed query with retryOnMount: false), or data that
 *                  refetchOnMount allows (true: if stale, 'always': always)
 *   on focus       refetchOnWindowFocus, same true/'always' rule
 *   on reconnect   refetchOnReconnect, same rule
 *   options change the query changed, or the observer was disabled before, and the data is stale
 *
 * Nothing fetches while `enabled` resolves to false, and nothing refetches static data.
 */
import { ENABLED, REFETCH_ON_MOUNT, RETRY_ON_MOUNT } from './defaults';
import { resolveQueryValue } from './utils';
import type { Query } from './query';
import type { QueryObserverOptions } from './types';

// Hot path aliases: these run for every observer on every query update. Module runners (Vite SSR, which
// the docs site and the tests use) turn each read of an imported binding into a property read on the
// exporting module's namespace; a module-level alias is read once.
const resolveValue = resolveQueryValue;

type AnyQuery = Query<any, any, any, any>;
type AnyOptions = QueryObserverOptions<any, any, any, any, any>;

const enabledFor = (query: AnyQuery, options: AnyOptions) => resolveValue(options.enabled ?? ENABLED, query) !== false;

export function isStale(query: AnyQuery, options: AnyOptions): boolean {
  return enabledFor(query, options) && query.isStaleByTime(resolveValue(options.staleTime, query));
}

function shouldLoadOnMount(query: AnyQuery, options: AnyOptions): boolean {
  return (
    enabledFor(query, options) &&
    query.state.data === undefined &&
    !(query.state.status === 'error' && resolveValue(options.retryOnMount ?? RETRY_ON_MOUNT, query) === false)
  );
}

export function shouldFetchOn(
  query: AnyQuery,
  options: AnyOptions,
  trigger: AnyOptions['refetchOnMount'] | AnyOptions['refetchOnWindowFocus'] | AnyOptions['refetchOnReconnect'],
): boolean {
  if (!enabledFor(query, options) || resolveValue(options.staleTime, query) === 'static') return false;
  const value = resolveValue(trigger, query);
  return value === 'always' || (value !== false && isStale(query, options));
}

export function shouldFetchOnMount(query: AnyQuery, options: AnyOptions): boolean {
  return (
    shouldLoadOnMount(query, options) ||
    (query.state.data !== undefined && shouldFetchOn(query, options, options.refetchOnMount ?? REFETCH_ON_MOUNT))
  );
}

export function shouldFetchOptionally(
  query: AnyQuery,
  prevQuery: AnyQuery,
  options: AnyOptions,
  prevOptions: AnyOptions,
): boolean {
  return (
    (query !== prevQuery || resolveValue(prevOptions.enabled, query) === false) &&
    (!options.suspense || query.state.status !== 'error') &&
    isStale(query, options)
  );
}
