/**
 * experimental_streamedQuery: a queryFn built from an AsyncIterable. Each chunk is folded into the
 * cached data as it arrives (so observers see the stream grow); the fetch resolves when the stream ends.
 *
 * refetchMode: 'reset' (default) clears data and starts over; 'append' keeps adding to what is cached;
 * 'replace' builds the new value off-cache and swaps it in at the end.
 */
import { addConsumeAwareSignal, addToEnd, fetchSignal } from './utils';
import type { OmitKeyof, QueryFunction, QueryFunctionContext, QueryKey } from './types';
import type { FetchSignalContext } from './utils';

type BaseStreamedQueryParams<TQueryFnData, TQueryKey extends QueryKey> = {
  streamFn: (context: QueryFunctionContext<TQueryKey>) => AsyncIterable<TQueryFnData> | Promise<AsyncIterable<TQueryFnData>>;
  refetchMode?: 'append' | 'reset' | 'replace';
};

type SimpleStreamedQueryParams<TQueryFnData, TQueryKey extends QueryKey> = BaseStreamedQueryParams<TQueryFnData, TQueryKey> & {
  reducer?: never;
  initialValue?: never;
};

type ReducibleStreamedQueryParams<TQueryFnData, TData, TQueryKey extends QueryKey> = BaseStreamedQueryParams<TQueryFnData, TQueryKey> & {
  reducer: (acc: TData, chunk: TQueryFnData) => TData;
  initialValue: TData;
};

type StreamedQueryParams<TQueryFnData, TData, TQueryKey extends QueryKey> =
  | SimpleStreamedQueryParams<TQueryFnData, TQueryKey>
  | ReducibleStreamedQueryParams<TQueryFnData, TData, TQueryKey>;

export function streamedQuery<TQueryFnData = unknown, TData = Array<TQueryFnData>, TQueryKey extends QueryKey = QueryKey>({
  streamFn,
  refetchMode = 'reset',
  reducer = (items, chunk) => addToEnd(items as Array<TQueryFnData>, chunk) as TData,
  initialValue = [] as TData,
}: StreamedQueryParams<TQueryFnData, TData, TQueryKey>): QueryFunction<TData, TQueryKey> {
  return async (context) => {
    const signal = (context as FetchSignalContext)[fetchSignal];
    if (signal?.aborted) return initialValue;

    const client = context.client;
    const query = client.getQueryCache().find({ queryKey: context.queryKey, exact: true });
    const isRefetch = !!query && query.isFetched();
    if (isRefetch && refetchMode === 'reset') {
      query.setState({ ...query.resetState, fetchStatus: 'fetching' });
    }

    let cancelled = false;
    const streamContext = addConsumeAwareSignal<OmitKeyof<typeof context, 'signal'>>(
      {
        client,
        meta: context.meta,
        queryKey: context.queryKey,
        pageParam: context.pageParam,
        direction: context.direction,
      },
      () => context.signal,
      () => {
        cancelled = true;
      },
      signal,
    );
    const inactive = () => cancelled || signal?.aborted === true;
    const stream = await streamFn(streamContext as QueryFunctionContext<TQueryKey>);
    const replacing = isRefetch && refetchMode === 'replace';

    let result = initialValue;
    for await (const chunk of stream) {
      if (inactive()) break;
      if (replacing) result = reducer(result, chunk);
      else client.setQueryData<TData>(context.queryKey, (prev) => reducer(prev === undefined ? initialValue : prev, chunk));
    }
    if (replacing && !inactive()) client.setQueryData<TData>(context.queryKey, result);

    const data = client.getQueryData<TData>(context.queryKey);
    return data === undefined ? initialValue : data;
  };
}
