/**
 * The library's defaults as data. The core reads these where it decides a default (retryer, Removable,
 * observer rules, mutations), and the docs render their tables from the same values, so a page cannot
 * claim a default the code does not have. Values only: each is a primitive `const`, which esbuild inlines
 * at the point of use, so the core pays nothing for them being here. The prose lives in
 * src/components/docs/query-options.ts. Every value matches TanStack Query v5 (checked by defaults.test.ts).
 */
import type { NetworkMode } from './types';
import type { QueryTypeFilter } from './utils';

/** Queries (and observers), in a browser. */
export const STALE_TIME = 0;
/** 5 minutes. */
export const GC_TIME = 300_000;
export const RETRY = 3;
/** The default retryDelay waits min(RETRY_DELAY_BASE * 2^failureCount, RETRY_DELAY_MAX) ms. */
export const RETRY_DELAY_BASE = 1000;
export const RETRY_DELAY_MAX = 30_000;
export const NETWORK_MODE: NetworkMode = 'online';
export const ENABLED = true;
export const REFETCH_ON_MOUNT = true;
export const REFETCH_ON_WINDOW_FOCUS = true;
/** Only while networkMode is not 'always': such a query never waited for the network (QueryClient decides). */
export const REFETCH_ON_RECONNECT = true;
export const RETRY_ON_MOUNT = true;
export const REFETCH_INTERVAL = false;
export const REFETCH_INTERVAL_IN_BACKGROUND = false;
export const STRUCTURAL_SHARING = true;
export const CANCEL_REFETCH = true;

/** QueryClient methods and filters. fetchQuery, prefetchQuery and ensureQueryData do not retry. */
export const FETCH_QUERY_RETRY = false;
/** Which matches invalidateQueries refetches. */
export const REFETCH_TYPE: QueryTypeFilter = 'active';
/** Filters match active and inactive queries. */
export const FILTER_TYPE: QueryTypeFilter = 'all';

/** On a server (no window, or environmentManager says so) nothing is retried or garbage-collected. */
export const SERVER_GC_TIME = Infinity;
export const SERVER_RETRY = 0;

/** Mutations share gcTime, retryDelay and networkMode with queries but do not retry. */
export const MUTATION_RETRY = 0;
