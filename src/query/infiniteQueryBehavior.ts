/**
 * How an infinite query fetches. Its data is `{ pages, pageParams }`:
 * - fetchNextPage / fetchPreviousPage (fetchMeta.fetchMore.direction) fetch one page at that end;
 * - any other fetch (refetch, invalidation) refetches every cached page from the first, asking
 *   getNextPageParam afresh each time and stopping early when it says there is no next page;
 * - maxPages trims from the opposite end.
 */
import { addConsumeAwareSignal, addToEnd, addToStart, ensureQueryFn, fetchSignal } from './utils';
import type { QueryBehavior } from './query';
import type { InfiniteData, InfiniteQueryPageParamsOptions, OmitKeyof, QueryFunctionContext, QueryKey } from './types';
import type { FetchSignalContext } from './utils';

export function infiniteQueryBehavior<TQueryFnData, TError, TData, TPageParam>(
  pages?: number,
): QueryBehavior<TQueryFnData, TError, InfiniteData<TData, TPageParam>> {
  return {
    onFetch: (context, query) => {
      const options = context.options as typeof context.options & InfiniteQueryPageParamsOptions<TData>;
      const direction = context.fetchOptions?.meta?.fetchMore?.direction;
      const oldData = { pages: context.state.data?.pages || [], pageParams: context.state.data?.pageParams || [] };

      const fetchFn = async () => {
        let cancelled = false;
        const internalSignal = (context as FetchSignalContext)[fetchSignal];
        const queryFn = ensureQueryFn(options as any, context.fetchOptions);

        const fetchPage = async (data: InfiniteData<unknown>, param: unknown, previous?: boolean): Promise<InfiniteData<unknown>> => {
          if (cancelled) return Promise.reject(context.signal.reason);
          if (param == null && data.pages.length) return Promise.resolve(data);
          const queryFnContext = addConsumeAwareSignal(
            {
              client: context.client,
              queryKey: context.queryKey,
              pageParam: param,
              direction: previous ? 'backward' : 'forward',
              meta: options.meta,
            } as OmitKeyof<QueryFunctionContext<QueryKey, unknown>, 'signal'>,
            () => context.signal,
            () => {
              cancelled = true;
            },
            internalSignal,
          );
          const page = await queryFn(queryFnContext as unknown as QueryFunctionContext<QueryKey, never>);
          const { maxPages } = options;
          const add = previous ? addToStart : addToEnd;
          return { pages: add(data.pages, page, maxPages), pageParams: add(data.pageParams, param, maxPages) };
        };

        let result: InfiniteData<unknown> = { pages: [], pageParams: [] };
        if (direction && oldData.pages.length) {
          const previous = direction === 'backward';
          const param = pageParamBeyond(options, oldData, previous);
          result = await fetchPage(oldData, param, previous);
        } else {
          // at least the first page; then as many as were cached (or `pages`), while there is a next one
          const pageCount = pages ?? oldData.pages.length;
          const firstParam = oldData.pageParams[0];
          let param = firstParam === undefined ? options.initialPageParam : firstParam;
          for (let fetched = 1; ; fetched++) {
            result = await fetchPage(result, param);
            if (fetched >= pageCount) break;
            param = pageParamBeyond(options, result);
            if (param == null) break;
          }
        }
        return result;
      };

      const persister = options.persister;
      context.fetchFn = persister
        ? () => persister(fetchFn as any, { client: context.client, queryKey: context.queryKey, meta: options.meta, signal: context.signal }, query)
        : fetchFn;
    },
  };
}

/** The param of the page after the last one (or, `previous`, before the first one); none without pages. */
function pageParamBeyond(options: InfiniteQueryPageParamsOptions<any>, { pages, pageParams }: InfiniteData<unknown>, previous?: boolean): unknown {
  if (pages.length === 0) return undefined;
  const edge = previous ? 0 : pages.length - 1;
  return previous
    ? options.getPreviousPageParam?.(pages[edge], pages, pageParams[edge], pageParams)
    : options.getNextPageParam(pages[edge], pages, pageParams[edge], pageParams);
}

export function hasNextPage(options: InfiniteQueryPageParamsOptions<any, any>, data?: InfiniteData<unknown>): boolean {
  return !!data && pageParamBeyond(options, data) != null;
}

export function hasPreviousPage(options: InfiniteQueryPageParamsOptions<any, any>, data?: InfiniteData<unknown>): boolean {
  return !!data && pageParamBeyond(options, data, true) != null;
}
