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
      const options = context.options as unknown as InfiniteQueryPageParamsOptions<TData>;
      const direction = context.fetchOptions?.meta?.fetchMore?.direction;
      const oldPages = context.state.data?.pages || [];
      const oldPageParams = context.state.data?.pageParams || [];

      const fetchFn = async () => {
        let cancelled = false;
        const internalSignal = (context as FetchSignalContext)[fetchSignal];
        const queryFn = ensureQueryFn(context.options as any, context.fetchOptions);

        const fetchPage = async (data: InfiniteData<unknown>, param: unknown, previous?: boolean): Promise<InfiniteData<unknown>> => {
          if (cancelled) return Promise.reject(context.signal.reason);
          if (param == null && data.pages.length) return Promise.resolve(data);
          const queryFnContext = addConsumeAwareSignal(
            {
              client: context.client,
              queryKey: context.queryKey,
              pageParam: param,
              direction: previous ? 'backward' : 'forward',
              meta: context.options.meta,
            } as OmitKeyof<QueryFunctionContext<QueryKey, unknown>, 'signal'>,
            () => context.signal,
            () => {
              cancelled = true;
            },
            internalSignal,
          );
          const page = await queryFn(queryFnContext as unknown as QueryFunctionContext<QueryKey, never>);
          const { maxPages } = context.options;
          const add = previous ? addToStart : addToEnd;
          return { pages: add(data.pages, page, maxPages), pageParams: add(data.pageParams, param, maxPages) };
        };

        let result: InfiniteData<unknown> = { pages: [], pageParams: [] };
        if (direction && oldPages.length) {
          const previous = direction === 'backward';
          const oldData = { pages: oldPages, pageParams: oldPageParams };
          const param = (previous ? getPreviousPageParam : getNextPageParam)(options, oldData);
          result = await fetchPage(oldData, param, previous);
        } else {
          const pageCount = pages ?? oldPages.length;
          let fetched = 0;
          do {
            const param =
              fetched === 0
                ? oldPageParams[0] === undefined
                  ? options.initialPageParam
                  : oldPageParams[0]
                : getNextPageParam(options, result);
            if (fetched > 0 && param == null) break;
            result = await fetchPage(result, param);
            fetched++;
          } while (fetched < pageCount);
        }
        return result;
      };

      if (context.options.persister) {
        context.fetchFn = () =>
          context.options.persister?.(
            fetchFn as any,
            { client: context.client, queryKey: context.queryKey, meta: context.options.meta, signal: context.signal },
            query,
          );
      } else {
        context.fetchFn = fetchFn;
      }
    },
  };
}

function getNextPageParam(options: InfiniteQueryPageParamsOptions<any>, { pages, pageParams }: InfiniteData<unknown>): unknown {
  const last = pages.length - 1;
  return pages.length > 0 ? options.getNextPageParam(pages[last], pages, pageParams[last], pageParams) : undefined;
}

function getPreviousPageParam(
  options: InfiniteQueryPageParamsOptions<any>,
  { pages, pageParams }: InfiniteData<unknown>,
): unknown {
  return pages.length > 0 ? options.getPreviousPageParam?.(pages[0], pages, pageParams[0], pageParams) : undefined;
}

export function hasNextPage(options: InfiniteQueryPageParamsOptions<any, any>, data?: InfiniteData<unknown>): boolean {
  return !!data && getNextPageParam(options, data) != null;
}

export function hasPreviousPage(options: InfiniteQueryPageParamsOptions<any, any>, data?: InfiniteData<unknown>): boolean {
  if (!data || !options.getPreviousPageParam) return false;
  return getPreviousPageParam(options, data) != null;
}
