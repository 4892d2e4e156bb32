/**
 * InfiniteQueryObserver: a QueryObserver over `{ pages, pageParams }` that adds page navigation
 * (fetchNextPage / fetchPreviousPage) and the page flags to its result.
 */
import { hasNextPage, hasPreviousPage } from './infiniteQueryBehavior';
import { QueryObserver } from './queryObserver';
import type { Query } from './query';
import type { QueryClient } from './queryClient';
import type { Subscribable } from './subscribable';
import type {
  DefaultError,
  DefaultedInfiniteQueryObserverOptions,
  FetchNextPageOptions,
  FetchPreviousPageOptions,
  InfiniteData,
  InfiniteQueryObserverBaseResult,
  InfiniteQueryObserverOptions,
  InfiniteQueryObserverResult,
  QueryKey,
} from './types';

type InfiniteQueryObserverListener<TData, TError> = (result: InfiniteQueryObserverResult<TData, TError>) => void;

type ReplaceReturnType<TFunction extends (...args: Array<any>) => unknown, TReturn> = (...args: Parameters<TFunction>) => TReturn;

export class InfiniteQueryObserver<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
> extends QueryObserver<TQueryFnData, TError, TData, InfiniteData<TQueryFnData, TPageParam>, TQueryKey> {
  declare subscribe: Subscribable<InfiniteQueryObserverListener<TData, TError>>['subscribe'];
  declare getCurrentResult: ReplaceReturnType<
    QueryObserver<TQueryFnData, TError, TData, InfiniteData<TQueryFnData, TPageParam>, TQueryKey>['getCurrentResult'],
    InfiniteQueryObserverResult<TData, TError>
  >;
  declare protected fetch: ReplaceReturnType<
    QueryObserver<TQueryFnData, TError, TData, InfiniteData<TQueryFnData, TPageParam>, TQueryKey>['fetch'],
    Promise<InfiniteQueryObserverResult<TData, TError>>
  >;

  constructor(client: QueryClient, options: InfiniteQueryObserverOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>) {
    super(client, options as any);
  }

  protected override bindMethods(): void {
    super.bindMethods();
    this.fetchNextPage = this.fetchNextPage.bind(this);
    this.fetchPreviousPage = this.fetchPreviousPage.bind(this);
  }

  override setOptions(options: InfiniteQueryObserverOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>): void {
    super.setOptions({ ...options, _type: 'infinite' } as any);
  }

  override getOptimisticResult(
    options: DefaultedInfiniteQueryObserverOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): InfiniteQueryObserverResult<TData, TError> {
    options._type = 'infinite';
    return super.getOptimisticResult(options as any) as InfiniteQueryObserverResult<TData, TError>;
  }

  fetchNextPage(options?: FetchNextPageOptions): Promise<InfiniteQueryObserverResult<TData, TError>> {
    return this.fetch({ ...options, meta: { fetchMore: { direction: 'forward' } } });
  }

  fetchPreviousPage(options?: FetchPreviousPageOptions): Promise<InfiniteQueryObserverResult<TData, TError>> {
    return this.fetch({ ...options, meta: { fetchMore: { direction: 'backward' } } });
  }

  protected override createResult(
    query: Query<TQueryFnData, TError, InfiniteData<TQueryFnData, TPageParam>, TQueryKey>,
    options: InfiniteQueryObserverOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
  ): InfiniteQueryObserverResult<TData, TError> {
    const { state } = query;
    const base = super.createResult(query, options as any);
    const { isFetching, isRefetching, isError, isRefetchError } = base;
    const direction = state.fetchMeta?.fetchMore?.direction;
    const isFetchNextPageError = isError && direction === 'forward';
    const isFetchingNextPage = isFetching && direction === 'forward';
    const isFetchPreviousPageError = isError && direction === 'backward';
    const isFetchingPreviousPage = isFetching && direction === 'backward';
    const result: InfiniteQueryObserverBaseResult<TData, TError> = {
      ...base,
      fetchNextPage: this.fetchNextPage,
      fetchPreviousPage: this.fetchPreviousPage,
      hasNextPage: hasNextPage(options, state.data),
      hasPreviousPage: hasPreviousPage(options, state.data),
      isFetchNextPageError,
      isFetchingNextPage,
      isFetchPreviousPageError,
      isFetchingPreviousPage,
      isRefetchError: isRefetchError && !isFetchNextPageError && !isFetchPreviousPageError,
      isRefetching: isRefetching && !isFetchingNextPage && !isFetchingPreviousPage,
    };
    return result as InfiniteQueryObserverResult<TData, TError>;
  }
}
