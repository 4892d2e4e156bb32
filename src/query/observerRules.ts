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
 *
 * The boolean options default to true (ENABLED, REFETCH_ON_MOUNT, REFETCH_ON_WINDOW_FOCUS, RETRY_ON_MOUNT in
 * defaults.ts): every rule below tests them with `!== false`, so an option left undefined already counts as
 * true and needs no `?? default`.
 */
import { resolveQueryValue } from './utils';
import type { Query } from './query';
import type { QueryObserverOptions } from './types';

type AnyQuery = Query<any, any, any, any>;
type AnyOptions = QueryObserverOptions<any, any, any, any, any>;

const enabledFor = (query: AnyQuery, options: AnyOptions) => resolveQueryValue(options.enabled, query) !== false;

export function isStale(query: AnyQuery, options: AnyOptions): boolean {
  return enabledFor(query, options) && query.isStaleByTime(resolveQueryValue(options.staleTime, query));
}

function shouldLoadOnMount(query: AnyQuery, options: AnyOptions): boolean {
  return (
    enabledFor(query, options) &&
    query.state.data === undefined &&
    !(query.state.status === 'error' && resolveQueryValue(options.retryOnMount, query) === false)
  );
}

export function shouldFetchOn(
  query: AnyQuery,
  options: AnyOptions,
  trigger: AnyOptions['refetchOnMount'] | AnyOptions['refetchOnWindowFocus'] | AnyOptions['refetchOnReconnect'],
): boolean {
  if (!enabledFor(query, options) || resolveQueryValue(options.staleTime, query) === 'static') return false;
  const value = resolveQueryValue(trigger, query);
  return value === 'always' || (value !== false && isStale(query, options));
}

export function shouldFetchOnMount(query: AnyQuery, options: AnyOptions): boolean {
  return shouldLoadOnMount(query, options) || (query.state.data !== undefined && shouldFetchOn(query, options, options.refetchOnMount));
}

export function shouldFetchOptionally(query: AnyQuery, prevQuery: AnyQuery, options: AnyOptions, prevOptions: AnyOptions): boolean {
  return (
    (query !== prevQuery || resolveQueryValue(prevOptions.enabled, query) === false) &&
    (!options.suspense || query.state.status !== 'error') &&
    isStale(query, options)
  );
}
