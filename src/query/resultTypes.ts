/**
 * Public types, part 2: what observers hand to their listeners.
 *
 * A result is one base shape plus a "narrowing" shape per situation, so checking `status`,
 * `isPending`, `isSuccess`, `isError`, `isPlaceholderData`... narrows `data` and `error`:
 *
 *   situation        status    data        error
 *   pending          pending   undefined   null
 *   loading error    error     undefined   TError
 *   refetch error    error     TData       TError
 *   success          success   TData       null
 *   placeholder      success   TData       null     (isPlaceholderData: true)
 */
import type { DefaultError, FetchNextPageOptions, FetchPreviousPageOptions, FetchStatus, QueryStatus, RefetchOptions } from './types';

export interface QueryObserverBaseResult<TData = unknown, TError = DefaultError> {
  /** Last successfully resolved data (after `select`), or placeholder data. */
  data: TData | undefined;
  dataUpdatedAt: number;
  error: TError | null;
  errorUpdatedAt: number;
  /** Failures of the current fetch; back to 0 when a fetch starts or succeeds. */
  failureCount: number;
  failureReason: TError | null;
  /** How many times the query ended in error, ever. */
  errorUpdateCount: number;
  isError: boolean;
  isFetched: boolean;
  isFetchedAfterMount: boolean;
  isFetching: boolean;
  /** isPending && isFetching: the first fetch is running. */
  isLoading: boolean;
  isPending: boolean;
  isLoadingError: boolean;
  /** @deprecated same as isLoading */
  isInitialLoading: boolean;
  isPaused: boolean;
  isPlaceholderData: boolean;
  isRefetchError: boolean;
  isRefetching: boolean;
  isStale: boolean;
  isSuccess: boolean;
  isEnabled: boolean;
  refetch: (options?: RefetchOptions) => Promise<QueryObserverResult<TData, TError>>;
  status: QueryStatus;
  fetchStatus: FetchStatus;
}

type PendingShape = {
  data: undefined;
  error: null;
  isError: false;
  isPending: true;
  isLoadingError: false;
  isRefetchError: false;
  isSuccess: false;
  isPlaceholderData: false;
  status: 'pending';
};

type LoadingErrorShape<TError> = {
  data: undefined;
  error: TError;
  isError: true;
  isPending: false;
  isLoading: false;
  isLoadingError: true;
  isRefetchError: false;
  isSuccess: false;
  isPlaceholderData: false;
  status: 'error';
};

type RefetchErrorShape<TData, TError> = {
  data: TData;
  error: TError;
  isError: true;
  isPending: false;
  isLoading: false;
  isLoadingError: false;
  isRefetchError: true;
  isSuccess: false;
  isPlaceholderData: false;
  status: 'error';
};

type SuccessShape<TData, TPlaceholder extends boolean> = {
  data: TData;
  error: null;
  isError: false;
  isPending: false;
  isLoading: false;
  isLoadingError: false;
  isRefetchError: false;
  isSuccess: true;
  isPlaceholderData: TPlaceholder;
  status: 'success';
};

/** Infinite results add the page-direction flags, which are false except in the error shapes. */
type NoPageErrors = { isFetchNextPageError: false; isFetchPreviousPageError: false };

export type QueryObserverPendingResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & PendingShape;

export type QueryObserverLoadingResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & PendingShape & { isLoading: true };

export type QueryObserverLoadingErrorResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & LoadingErrorShape<TError>;

export type QueryObserverRefetchErrorResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & RefetchErrorShape<TData, TError>;

export type QueryObserverSuccessResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & SuccessShape<TData, false>;

export type QueryObserverPlaceholderResult<TData = unknown, TError = DefaultError> = QueryObserverBaseResult<TData, TError> & SuccessShape<TData, true>;

/** A result whose data is always there (initialData was given). */
export type DefinedQueryObserverResult<TData = unknown, TError = DefaultError> =
  | QueryObserverRefetchErrorResult<TData, TError>
  | QueryObserverSuccessResult<TData, TError>;

export type QueryObserverResult<TData = unknown, TError = DefaultError> =
  | DefinedQueryObserverResult<TData, TError>
  | QueryObserverLoadingErrorResult<TData, TError>
  | QueryObserverLoadingResult<TData, TError>
  | QueryObserverPendingResult<TData, TError>
  | QueryObserverPlaceholderResult<TData, TError>;

// ---------------------------------------------------------------- infinite

export interface InfiniteQueryObserverBaseResult<TData = unknown, TError = DefaultError> extends QueryObserverBaseResult<TData, TError> {
  fetchNextPage: (options?: FetchNextPageOptions) => Promise<InfiniteQueryObserverResult<TData, TError>>;
  fetchPreviousPage: (options?: FetchPreviousPageOptions) => Promise<InfiniteQueryObserverResult<TData, TError>>;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  isFetchNextPageError: boolean;
  isFetchingNextPage: boolean;
  isFetchPreviousPageError: boolean;
  isFetchingPreviousPage: boolean;
}

export type InfiniteQueryObserverPendingResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  PendingShape &
  NoPageErrors;

export type InfiniteQueryObserverLoadingResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  PendingShape &
  NoPageErrors & { isLoading: true };

export type InfiniteQueryObserverLoadingErrorResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  LoadingErrorShape<TError> &
  NoPageErrors;

export type InfiniteQueryObserverRefetchErrorResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  RefetchErrorShape<TData, TError>;

export type InfiniteQueryObserverSuccessResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  SuccessShape<TData, false> &
  NoPageErrors;

export type InfiniteQueryObserverPlaceholderResult<TData = unknown, TError = DefaultError> = InfiniteQueryObserverBaseResult<TData, TError> &
  SuccessShape<TData, true> &
  NoPageErrors;

export type DefinedInfiniteQueryObserverResult<TData = unknown, TError = DefaultError> =
  | InfiniteQueryObserverRefetchErrorResult<TData, TError>
  | InfiniteQueryObserverSuccessResult<TData, TError>;

export type InfiniteQueryObserverResult<TData = unknown, TError = DefaultError> =
  | DefinedInfiniteQueryObserverResult<TData, TError>
  | InfiniteQueryObserverLoadingErrorResult<TData, TError>
  | InfiniteQueryObserverLoadingResult<TData, TError>
  | InfiniteQueryObserverPendingResult<TData, TError>
  | InfiniteQueryObserverPlaceholderResult<TData, TError>;
