/**
 * dehydrate / hydrate: move cache contents across a serialization boundary (server -> client,
 * or into a share link). Queries carry their state and, if still pending, the promise; mutations
 * carry their state (by default only paused ones, so they can resume).
 *
 * Hydrating never overwrites newer data: an existing query is only updated when the incoming
 * `dataUpdatedAt` is later.
 */
import { noop } from './utils';
import { now } from './timeoutManager';
import type { Mutation, MutationState } from './mutation';
import type { MutationKey, MutationMeta, MutationOptions, MutationScope } from './mutationTypes';
import type { Query, QueryState } from './query';
import type { QueryClient } from './queryClient';
import type { DefaultError, QueryKey, QueryMeta, QueryOptions } from './types';

type TransformerFn = (data: any) => any;

export interface DehydrateOptions {
  serializeData?: TransformerFn;
  shouldDehydrateMutation?: (mutation: Mutation) => boolean;
  shouldDehydrateQuery?: (query: Query) => boolean;
  shouldRedactErrors?: (error: unknown) => boolean;
}

export interface HydrateOptions {
  defaultOptions?: {
    deserializeData?: TransformerFn;
    queries?: QueryOptions;
    mutations?: MutationOptions<unknown, DefaultError, unknown, unknown>;
  };
}

interface DehydratedMutation {
  mutationKey?: MutationKey;
  state: MutationState;
  meta?: MutationMeta;
  scope?: MutationScope;
}

interface DehydratedQuery {
  queryHash: string;
  queryKey: QueryKey;
  state: QueryState;
  promise?: Promise<unknown>;
  meta?: QueryMeta;
  dehydratedAt: number;
  queryType?: 'infinite';
}

export interface DehydratedState {
  mutations: Array<DehydratedMutation>;
  queries: Array<DehydratedQuery>;
}

/** If the promise is already settled, learn its value within this tick (thenables resolve synchronously). */
function peekResolved(promise: PromiseLike<unknown>): { data: unknown } | undefined {
  let data: unknown;
  const chained = promise.then((value) => {
    data = value;
    return value;
  }, noop) as Promise<unknown> | undefined;
  chained?.catch?.(noop);
  return data !== undefined ? { data } : undefined;
}

function dehydrateMutation(mutation: Mutation): DehydratedMutation {
  return {
    mutationKey: mutation.options.mutationKey,
    state: mutation.state,
    ...(mutation.options.scope && { scope: mutation.options.scope }),
    ...(mutation.meta && { meta: mutation.meta }),
  };
}

function dehydratePromise(query: Query, serializeData?: TransformerFn, shouldRedactErrors?: (error: unknown) => boolean): Promise<unknown> | undefined {
  const promise = query.promise?.then(serializeData).catch((error) => {
    if (shouldRedactErrors?.(error) === false) return Promise.reject(error);
    if (process.env.NODE_ENV !== 'production') {
      console.error(
        `A query that was dehydrated as pending ended up rejecting. [${query.queryHash}]: ${error}; The error will be redacted in production builds`,
      );
    }
    return Promise.reject(new Error('redacted'));
  });
  promise?.catch(noop);
  return promise;
}

export function dehydrateQuery(query: Query, serializeData?: TransformerFn, shouldRedactErrors?: (error: unknown) => boolean): DehydratedQuery {
  return {
    dehydratedAt: now(),
    state: {
      ...query.state,
      ...(query.state.data !== undefined && {
        data: serializeData ? serializeData(query.state.data) : query.state.data,
      }),
    },
    queryKey: query.queryKey,
    queryHash: query.queryHash,
    ...(query.state.status === 'pending' && { promise: dehydratePromise(query, serializeData, shouldRedactErrors) }),
    ...(query.meta && { meta: query.meta }),
    ...(query.queryType && { queryType: query.queryType }),
  };
}

export function defaultShouldDehydrateMutation(mutation: Mutation): boolean {
  return mutation.state.isPaused;
}

export function defaultShouldDehydrateQuery(query: Query): boolean {
  return query.state.status === 'success';
}

export function dehydrate(client: QueryClient, options: DehydrateOptions = {}): DehydratedState {
  const defaults = client.getDefaultOptions().dehydrate;
  const keepMutation = options.shouldDehydrateMutation ?? defaults?.shouldDehydrateMutation ?? defaultShouldDehydrateMutation;
  const keepQuery = options.shouldDehydrateQuery ?? defaults?.shouldDehydrateQuery ?? defaultShouldDehydrateQuery;
  const shouldRedactErrors = options.shouldRedactErrors ?? defaults?.shouldRedactErrors;
  const serializeData = options.serializeData ?? defaults?.serializeData;
  const mutations = client
    .getMutationCache()
    .getAll()
    .flatMap((mutation) => (keepMutation(mutation) ? [dehydrateMutation(mutation)] : []));
  const queries = client
    .getQueryCache()
    .getAll()
    .flatMap((query) => (keepQuery(query) ? [dehydrateQuery(query, serializeData, shouldRedactErrors)] : []));
  return { mutations, queries };
}

export function hydrate(client: QueryClient, dehydratedState: Partial<DehydratedState>, options?: HydrateOptions): void {
  // No guard for a missing state: reading it throws, as in TanStack, and persistQueryClientRestore relies on
  // that throw to discard an unreadable stored cache (and report onError) instead of keeping it forever.
  const mutationCache = client.getMutationCache();
  const queryCache = client.getQueryCache();
  const hydrateDefaults = client.getDefaultOptions().hydrate;
  const deserializeData = options?.defaultOptions?.deserializeData ?? hydrateDefaults?.deserializeData;

  for (const { state, ...mutationOptions } of dehydratedState.mutations ?? []) {
    mutationCache.build(client, { ...hydrateDefaults?.mutations, ...options?.defaultOptions?.mutations, ...mutationOptions }, state);
  }

  for (const { queryKey, state, queryHash, meta, promise, dehydratedAt, queryType } of dehydratedState.queries ?? []) {
    const syncData = promise ? peekResolved(promise) : undefined;
    const rawData = state.data === undefined ? syncData?.data : state.data;
    const data = rawData === undefined ? rawData : deserializeData ? deserializeData(rawData) : rawData;
    // a pending query that arrives with data (its promise already resolved) counts as a success
    const resolvedWhilePending = state.status === 'pending' && data !== undefined;

    let query = queryCache.get(queryHash);
    const existingPending = query?.state.status === 'pending';
    const existingFetching = query?.state.fetchStatus === 'fetching';

    if (query) {
      const newerSyncData = syncData && dehydratedAt > query.state.dataUpdatedAt;
      if (state.dataUpdatedAt > query.state.dataUpdatedAt || newerSyncData) {
        const { fetchStatus: _ignored, ...serialized } = state;
        query.setState({
          ...serialized,
          data,
          ...(resolvedWhilePending && {
            status: 'success' as const,
            dataUpdatedAt: dehydratedAt,
            ...(!existingFetching && { fetchStatus: 'idle' as const }),
          }),
        });
      }
    } else {
      query = queryCache.build(
        client,
        {
          ...hydrateDefaults?.queries,
          ...options?.defaultOptions?.queries,
          queryKey,
          queryHash,
          meta,
          _type: queryType,
        },
        {
          ...state,
          data,
          fetchStatus: 'idle',
          status: resolvedWhilePending ? 'success' : state.status,
          ...(resolvedWhilePending && { dataUpdatedAt: dehydratedAt }),
        },
      );
    }

    // still pending on the other side: adopt its promise as this query's fetch
    if (promise && !syncData && !existingPending && !existingFetching && dehydratedAt > query.state.dataUpdatedAt) {
      query.fetch(undefined, { initialPromise: Promise.resolve(promise).then(deserializeData) }).catch(noop);
    }
  }
}
