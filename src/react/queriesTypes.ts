/**
 * The types of useQueries and useSuspenseQueries: what each element of a `queries` array infers to, and
 * one walk over the array that both hooks share.
 *
 * The walk goes through the options tuple one element at a time (up to a depth of 20, as the original
 * does, to stay clear of TypeScript's recursion limit). Each element's types come from an explicit
 * `{ queryFnData, error, data }` / `[TQueryFnData, TError, TData]` hint, or from its queryFn, select and
 * throwOnError. The two hooks differ only in the element types (suspense results always have data) and in
 * how a homogeneous array (`ids.map(...)`) is typed, so those are picked by `Kind`; the walk is one.
 */
import type { DefaultError, OmitKeyof, QueriesPlaceholderDataFunction, QueryFunction, QueryKey, ThrowOnError } from 'roundtrip/query';
import type { DefinedUseQueryResult, UseQueryOptions, UseQueryResult, UseSuspenseQueryOptions, UseSuspenseQueryResult } from './types';

type MAXIMUM_DEPTH = 20;

// skipToken widened to symbol, so that inference still works when it is not a `unique symbol` at the use site.
type SkipTokenForUseQueries = symbol;

/** Which hook a walk types: useQueries ('plain') or useSuspenseQueries ('suspense'). */
type Kind = 'plain' | 'suspense';

// ---------------------------------------------------------------- useQueries elements

// In a list, placeholderData functions get no previous data (there is no "previous query" per slot).
export type UseQueryOptionsForUseQueries<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> = OmitKeyof<UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>, 'placeholderData' | 'subscribed'> & {
  placeholderData?: TQueryFnData | QueriesPlaceholderDataFunction<TQueryFnData>;
};

export type GetUseQueryOptionsForUseQueries<T> = T extends { queryFnData: infer TQueryFnData; error?: infer TError; data: infer TData }
  ? UseQueryOptionsForUseQueries<TQueryFnData, TError, TData>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? UseQueryOptionsForUseQueries<TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? UseQueryOptionsForUseQueries<unknown, TError, TData>
      : T extends [infer TQueryFnData, infer TError, infer TData]
        ? UseQueryOptionsForUseQueries<TQueryFnData, TError, TData>
        : T extends [infer TQueryFnData, infer TError]
          ? UseQueryOptionsForUseQueries<TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? UseQueryOptionsForUseQueries<TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, infer TQueryKey> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? UseQueryOptionsForUseQueries<
                  TQueryFnData,
                  unknown extends TError ? DefaultError : TError,
                  unknown extends TData ? TQueryFnData : TData,
                  TQueryKey
                >
              : UseQueryOptionsForUseQueries;

// A defined initialData makes `data` defined, exactly as the useQuery overloads do.
type GetDefinedOrUndefinedQueryResult<T, TData, TError = unknown> = T extends { initialData?: infer TInitialData }
  ? unknown extends TInitialData
    ? UseQueryResult<TData, TError>
    : TInitialData extends TData
      ? DefinedUseQueryResult<TData, TError>
      : TInitialData extends () => infer TInitialDataResult
        ? unknown extends TInitialDataResult
          ? UseQueryResult<TData, TError>
          : TInitialDataResult extends TData
            ? DefinedUseQueryResult<TData, TError>
            : UseQueryResult<TData, TError>
        : UseQueryResult<TData, TError>
  : UseQueryResult<TData, TError>;

type GetUseQueryResult<T> = T extends { queryFnData: any; error?: infer TError; data: infer TData }
  ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
      : T extends [any, infer TError, infer TData]
        ? GetDefinedOrUndefinedQueryResult<T, TData, TError>
        : T extends [infer TQueryFnData, infer TError]
          ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? GetDefinedOrUndefinedQueryResult<T, TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, any> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? GetDefinedOrUndefinedQueryResult<T, unknown extends TData ? TQueryFnData : TData, unknown extends TError ? DefaultError : TError>
              : UseQueryResult;

// ---------------------------------------------------------------- useSuspenseQueries elements

export type GetUseSuspenseQueryOptions<T> = T extends { queryFnData: infer TQueryFnData; error?: infer TError; data: infer TData }
  ? UseSuspenseQueryOptions<TQueryFnData, TError, TData>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? UseSuspenseQueryOptions<TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? UseSuspenseQueryOptions<unknown, TError, TData>
      : T extends [infer TQueryFnData, infer TError, infer TData]
        ? UseSuspenseQueryOptions<TQueryFnData, TError, TData>
        : T extends [infer TQueryFnData, infer TError]
          ? UseSuspenseQueryOptions<TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? UseSuspenseQueryOptions<TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, infer TQueryKey> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? UseSuspenseQueryOptions<TQueryFnData, TError, TData, TQueryKey>
              : T extends {
                    queryFn?: QueryFunction<infer TQueryFnData, infer TQueryKey> | SkipTokenForUseQueries;
                    throwOnError?: ThrowOnError<any, infer TError, any, any>;
                  }
                ? UseSuspenseQueryOptions<TQueryFnData, TError, TQueryFnData, TQueryKey>
                : UseSuspenseQueryOptions;

type GetUseSuspenseQueryResult<T> = T extends { queryFnData: any; error?: infer TError; data: infer TData }
  ? UseSuspenseQueryResult<TData, TError>
  : T extends { queryFnData: infer TQueryFnData; error?: infer TError }
    ? UseSuspenseQueryResult<TQueryFnData, TError>
    : T extends { data: infer TData; error?: infer TError }
      ? UseSuspenseQueryResult<TData, TError>
      : T extends [any, infer TError, infer TData]
        ? UseSuspenseQueryResult<TData, TError>
        : T extends [infer TQueryFnData, infer TError]
          ? UseSuspenseQueryResult<TQueryFnData, TError>
          : T extends [infer TQueryFnData]
            ? UseSuspenseQueryResult<TQueryFnData>
            : T extends {
                  queryFn?: QueryFunction<infer TQueryFnData, any> | SkipTokenForUseQueries;
                  select?: (data: any) => infer TData;
                  throwOnError?: ThrowOnError<any, infer TError, any, any>;
                }
              ? UseSuspenseQueryResult<unknown extends TData ? TQueryFnData : TData, unknown extends TError ? DefaultError : TError>
              : T extends {
                    queryFn?: QueryFunction<infer TQueryFnData, any> | SkipTokenForUseQueries;
                    throwOnError?: ThrowOnError<any, infer TError, any, any>;
                  }
                ? UseSuspenseQueryResult<TQueryFnData, unknown extends TError ? DefaultError : TError>
                : UseSuspenseQueryResult;

// ---------------------------------------------------------------- the shared walk

type OptionsOf<T, K extends Kind> = K extends 'suspense' ? GetUseSuspenseQueryOptions<T> : GetUseQueryOptionsForUseQueries<T>;
type ResultOf<T, K extends Kind> = K extends 'suspense' ? GetUseSuspenseQueryResult<T> : GetUseQueryResult<T>;

/** An array that is not a tuple (e.g. from ids.map(...)): infer once for all elements. */
type HomogeneousOptions<T, K extends Kind> = K extends 'suspense'
  ? Array<unknown> extends T
    ? T
    : T extends Array<UseSuspenseQueryOptions<infer TQueryFnData, infer TError, infer TData, infer TQueryKey>>
      ? Array<UseSuspenseQueryOptions<TQueryFnData, TError, TData, TQueryKey>>
      : Array<UseSuspenseQueryOptions>
  : ReadonlyArray<unknown> extends T
    ? T
    : T extends Array<UseQueryOptionsForUseQueries<infer TQueryFnData, infer TError, infer TData, infer TQueryKey>>
      ? Array<UseQueryOptionsForUseQueries<TQueryFnData, TError, TData, TQueryKey>>
      : Array<UseQueryOptionsForUseQueries>;

/** The options tuple, each element typed from its own inference. */
export type OptionsWalk<
  T extends Array<any>,
  K extends Kind,
  TResults extends Array<any> = [],
  TDepth extends ReadonlyArray<number> = [],
> = TDepth['length'] extends MAXIMUM_DEPTH
  ? Array<K extends 'suspense' ? UseSuspenseQueryOptions : UseQueryOptionsForUseQueries>
  : T extends []
    ? []
    : T extends [infer Head]
      ? [...TResults, OptionsOf<Head, K>]
      : T extends [infer Head, ...infer Tails]
        ? OptionsWalk<[...Tails], K, [...TResults, OptionsOf<Head, K>], [...TDepth, 1]>
        : HomogeneousOptions<T, K>;

/** The results tuple, parallel to the options. */
export type ResultsWalk<
  T extends Array<any>,
  K extends Kind,
  TResults extends Array<any> = [],
  TDepth extends ReadonlyArray<number> = [],
> = TDepth['length'] extends MAXIMUM_DEPTH
  ? Array<K extends 'suspense' ? UseSuspenseQueryResult : UseQueryResult>
  : T extends []
    ? []
    : T extends [infer Head]
      ? [...TResults, ResultOf<Head, K>]
      : T extends [infer Head, ...infer Tails]
        ? ResultsWalk<[...Tails], K, [...TResults, ResultOf<Head, K>], [...TDepth, 1]>
        : { [K2 in keyof T]: ResultOf<T[K2], K> };
