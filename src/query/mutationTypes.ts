/**
 * Public types, part 3: mutations (keys, options, mutate callbacks, observer results).
 */
import type { MutationState } from './mutation';
import type { QueryClient } from './queryClient';
import type { RetryDelayValue, RetryValue } from './retryer';
import type { DefaultError, NetworkMode, Register } from './types';

export type MutationKey = Register extends { mutationKey: infer TMutationKey }
  ? TMutationKey extends ReadonlyArray<unknown>
    ? TMutationKey
    : TMutationKey extends Array<unknown>
      ? TMutationKey
      : ReadonlyArray<unknown>
  : ReadonlyArray<unknown>;

export type MutationStatus = 'idle' | 'pending' | 'success' | 'error';

/** Mutations sharing a scope id run one after another, in the order they were started. */
export type MutationScope = { id: string };

export type MutationMeta = Register extends { mutationMeta: infer TMutationMeta }
  ? TMutationMeta extends Record<string, unknown>
    ? TMutationMeta
    : Record<string, unknown>
  : Record<string, unknown>;

export type MutationFunctionContext = {
  client: QueryClient;
  meta: MutationMeta | undefined;
  mutationKey?: MutationKey;
};

export type MutationFunction<TData = unknown, TVariables = unknown> = (variables: TVariables, context: MutationFunctionContext) => Promise<TData>;

export interface MutationOptions<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> {
  mutationFn?: MutationFunction<TData, TVariables>;
  mutationKey?: MutationKey;
  /** Runs before mutationFn; its result is handed to the other callbacks (e.g. a rollback snapshot). */
  onMutate?: (variables: TVariables, context: MutationFunctionContext) => Promise<TOnMutateResult> | TOnMutateResult;
  onSuccess?: (data: TData, variables: TVariables, onMutateResult: TOnMutateResult, context: MutationFunctionContext) => Promise<unknown> | unknown;
  onError?: (error: TError, variables: TVariables, onMutateResult: TOnMutateResult | undefined, context: MutationFunctionContext) => Promise<unknown> | unknown;
  onSettled?: (
    data: TData | undefined,
    error: TError | null,
    variables: TVariables,
    onMutateResult: TOnMutateResult | undefined,
    context: MutationFunctionContext,
  ) => Promise<unknown> | unknown;
  /** Default 0: mutations are not retried unless asked. */
  retry?: RetryValue<TError>;
  retryDelay?: RetryDelayValue<TError>;
  networkMode?: NetworkMode;
  gcTime?: number;
  _defaulted?: boolean;
  meta?: MutationMeta;
  scope?: MutationScope;
}

export interface MutationObserverOptions<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>
  extends MutationOptions<TData, TError, TVariables, TOnMutateResult> {
  throwOnError?: boolean | ((error: TError) => boolean);
}

/** Per-call callbacks given to `mutate`; they only run while the observer is subscribed. */
export interface MutateOptions<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> {
  onSuccess?: (data: TData, variables: TVariables, onMutateResult: TOnMutateResult | undefined, context: MutationFunctionContext) => void;
  onError?: (error: TError, variables: TVariables, onMutateResult: TOnMutateResult | undefined, context: MutationFunctionContext) => void;
  onSettled?: (
    data: TData | undefined,
    error: TError | null,
    variables: TVariables,
    onMutateResult: TOnMutateResult | undefined,
    context: MutationFunctionContext,
  ) => void;
}

/** `mutate()` may omit the variables only when undefined is an acceptable value for them. */
export type MutateFunctionRest<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = undefined extends TVariables
  ? [variables?: TVariables, options?: MutateOptions<TData, TError, TVariables, TOnMutateResult>]
  : [variables: TVariables, options?: MutateOptions<TData, TError, TVariables, TOnMutateResult>];

export type MutateFunction<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = (
  ...rest: MutateFunctionRest<TData, TError, TVariables, TOnMutateResult>
) => Promise<TData>;

export interface MutationObserverBaseResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>
  extends MutationState<TData, TError, TVariables, TOnMutateResult> {
  data: TData | undefined;
  variables: TVariables | undefined;
  error: TError | null;
  isError: boolean;
  isIdle: boolean;
  isPending: boolean;
  isSuccess: boolean;
  status: MutationStatus;
  mutate: MutateFunction<TData, TError, TVariables, TOnMutateResult>;
  reset: () => void;
}

type MutationShape<TStatus extends MutationStatus, TData, TError, TVariables> = {
  status: TStatus;
  data: TData;
  error: TError;
  variables: TVariables;
  isIdle: TStatus extends 'idle' ? true : false;
  isPending: TStatus extends 'pending' ? true : false;
  isSuccess: TStatus extends 'success' ? true : false;
  isError: TStatus extends 'error' ? true : false;
};

type Base<TData, TError, TVariables, TOnMutateResult> = MutationObserverBaseResult<TData, TError, TVariables, TOnMutateResult>;

export type MutationObserverIdleResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = Base<
  TData,
  TError,
  TVariables,
  TOnMutateResult
> &
  MutationShape<'idle', undefined, null, undefined>;

export type MutationObserverLoadingResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = Base<
  TData,
  TError,
  TVariables,
  TOnMutateResult
> &
  MutationShape<'pending', undefined, null, TVariables>;

export type MutationObserverErrorResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = Base<
  TData,
  TError,
  TVariables,
  TOnMutateResult
> &
  MutationShape<'error', undefined, TError, TVariables>;

export type MutationObserverSuccessResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> = Base<
  TData,
  TError,
  TVariables,
  TOnMutateResult
> &
  MutationShape<'success', TData, null, TVariables>;

export type MutationObserverResult<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> =
  | MutationObserverIdleResult<TData, TError, TVariables, TOnMutateResult>
  | MutationObserverLoadingResult<TData, TError, TVariables, TOnMutateResult>
  | MutationObserverErrorResult<TData, TError, TVariables, TOnMutateResult>
  | MutationObserverSuccessResult<TData, TError, TVariables, TOnMutateResult>;
