/**
 * Mutation: one run of a mutationFn (one `mutate` call), with its state machine and callbacks.
 *
 *   action     status    also
 *   pending    pending   variables, context, submittedAt; isPaused if it cannot start yet
 *   pause      -         isPaused = true      (offline, unfocused, or waiting for its scope)
 *   continue   -         isPaused = false
 *   failed     -         failureCount/reason of the last attempt
 *   success    success   data
 *   error      error     error
 *
 * Callback order: cache onMutate, options onMutate, mutationFn (with retries), cache onSuccess|onError,
 * options onSuccess|onError, cache onSettled, options onSettled, then the state change (which triggers
 * the `mutate(…, callbacks)` of the observer). Each awaited, so returned promises delay what follows.
 */
import { MUTATION_RETRY } from './defaults';
import { trace } from './trace';
import { notifyManager } from './notifyManager';
import { Removable } from './removable';
import { createRetryer } from './retryer';
import { now } from './timeoutManager';
import { transition } from './utils';
import type { MutationCache } from './mutationCache';
import type { MutationObserver } from './mutationObserver';
import type { QueryClient } from './queryClient';
import type { Retryer } from './retryer';
import type { MutationFunctionContext, MutationMeta, MutationOptions, MutationStatus } from './mutationTypes';
import type { DefaultError } from './types';

interface MutationConfig<TData, TError, TVariables, TOnMutateResult> {
  client: QueryClient;
  mutationId: number;
  mutationCache: MutationCache;
  options: MutationOptions<TData, TError, TVariables, TOnMutateResult>;
  state?: MutationState<TData, TError, TVariables, TOnMutateResult>;
}

export interface MutationState<TData = unknown, TError = DefaultError, TVariables = unknown, TOnMutateResult = unknown> {
  context: TOnMutateResult | undefined;
  data: TData | undefined;
  error: TError | null;
  failureCount: number;
  failureReason: TError | null;
  isPaused: boolean;
  status: MutationStatus;
  variables: TVariables | undefined;
  submittedAt: number;
}

export type Action<TData, TError, TVariables, TOnMutateResult> =
  | { type: 'continue' }
  | { type: 'error'; error: TError }
  | { type: 'failed'; failureCount: number; error: TError | null }
  | { type: 'pending'; isPaused: boolean; variables?: TVariables; context?: TOnMutateResult }
  | { type: 'pause' }
  | { type: 'success'; data: TData };

type AnyState = MutationState<any, any, any, any>;
type AnyAction = Action<any, any, any, any>;

const transitions: { [T in AnyAction['type']]: (state: AnyState, action: Extract<AnyAction, { type: T }>) => AnyState } = {
  failed: (state, action) => ({ ...state, failureCount: action.failureCount, failureReason: action.error }),
  pause: (state) => ({ ...state, isPaused: true }),
  continue: (state) => ({ ...state, isPaused: false }),
  pending: (state, action) => ({
    ...state,
    context: action.context,
    data: undefined,
    failureCount: 0,
    failureReason: null,
    error: null,
    isPaused: action.isPaused,
    status: 'pending',
    variables: action.variables,
    submittedAt: now(),
  }),
  success: (state, action) => ({
    ...state,
    data: action.data,
    failureCount: 0,
    failureReason: null,
    error: null,
    status: 'success',
    isPaused: false,
  }),
  error: (state, action) => ({
    ...state,
    data: undefined,
    error: action.error,
    failureCount: state.failureCount + 1,
    failureReason: action.error,
    isPaused: false,
    status: 'error',
  }),
};

export function mutationReducer<S extends AnyState>(state: S, action: AnyAction): S {
  return transition<AnyState>(transitions, 'mutation', state, action) as S;
}

/** Surface an error thrown by a user callback without breaking the mutation's own flow. */
const reportAsync = (error: unknown) => void Promise.reject(error);

export class Mutation<TData = unknown, TError = DefaultError, TVariables = unknown, TOnMutateResult = unknown> extends Removable {
  // `declare`: assigned in the constructor, so no separate field initializer is emitted
  declare state: MutationState<TData, TError, TVariables, TOnMutateResult>;
  declare options: MutationOptions<TData, TError, TVariables, TOnMutateResult>;
  declare readonly mutationId: number;

  #client: QueryClient;
  #observers: Array<MutationObserver<TData, TError, TVariables, TOnMutateResult>> = [];
  #mutationCache: MutationCache;
  #retryer?: Retryer<TData>;

  constructor(config: MutationConfig<TData, TError, TVariables, TOnMutateResult>) {
    super(config.client);
    this.#client = config.client;
    this.mutationId = config.mutationId;
    this.#mutationCache = config.mutationCache;
    this.state = config.state || getDefaultState();
    this.setOptions(config.options);
    this.scheduleGc();
  }

  setOptions(options: MutationOptions<TData, TError, TVariables, TOnMutateResult>): void {
    this.options = options;
    this.updateGcTime(options.gcTime);
  }

  get meta(): MutationMeta | undefined {
    return this.options.meta;
  }

  addObserver(observer: MutationObserver<any, any, any, any>): void {
    if (this.#observers.includes(observer)) return;
    this.#observers.push(observer);
    this.clearGcTimeout();
    this.#observerEvent('observerAdded', observer);
  }

  removeObserver(observer: MutationObserver<any, any, any, any>): void {
    this.#observers = this.#observers.filter((x) => x !== observer);
    this.scheduleGc();
    this.#observerEvent('observerRemoved', observer);
  }

  protected override optionalRemove(): boolean {
    if (this.#observers.length) return false;
    // a running mutation is never collected; check again later
    if (this.state.status === 'pending') {
      this.scheduleGc();
      return false;
    }
    this.#mutationCache.remove(this);
    return true;
  }

  /** Resume a paused mutation, or re-run a pending one restored from dehydrated state. */
  continue(): Promise<unknown> {
    return this.#retryer?.continue() ?? (this.state.status === 'pending' ? this.execute(this.state.variables!) : Promise.resolve());
  }

  async execute(variables: TVariables): Promise<TData> {
    const resume = () => this.#dispatch({ type: 'continue' });
    const context: MutationFunctionContext = {
      client: this.#client,
      meta: this.options.meta,
      mutationKey: this.options.mutationKey,
    };
    const retryer = this.#createRetryer(variables, context);
    this.#retryer = retryer;
    const cacheConfig = this.#mutationCache.config;
    const self = this as Mutation<unknown, unknown, unknown, unknown>;
    const restored = this.state.status === 'pending';
    const isPaused = !retryer.canStart();
    /**
     * The outcome callbacks in order (cache, then options; onSuccess or onError, then onSettled), each
     * reading the context as it starts. Success and failure share the order and the arguments.
     */
    const outcomeCallbacks = (failed: boolean, data: TData | undefined, error: TError | null) => [
      () =>
        failed
          ? cacheConfig.onError?.(error as any, variables, this.state.context, self, context)
          : cacheConfig.onSuccess?.(data, variables, this.state.context, self, context),
      () =>
        failed
          ? this.options.onError?.(error as TError, variables, this.state.context, context)
          : this.options.onSuccess?.(data as TData, variables, this.state.context!, context),
      () => cacheConfig.onSettled?.(data, error as any, this.state.variables, this.state.context, self, context),
      () => this.options.onSettled?.(data, error, variables, this.state.context, context),
    ];

    try {
      if (restored) {
        resume();
      } else {
        this.#dispatch({ type: 'pending', variables, isPaused });
        if (cacheConfig.onMutate) await cacheConfig.onMutate(variables, self, context);
        const onMutateResult = await this.options.onMutate?.(variables, context);
        if (onMutateResult !== this.state.context) {
          this.#dispatch({ type: 'pending', context: onMutateResult, variables, isPaused });
        }
      }
      if (this.state.isPaused && retryer.canStart()) resume();
      const data = await retryer.start();
      // a throwing callback here turns the outcome into a failure (the catch below)
      for (const callback of outcomeCallbacks(false, data, null)) await callback();
      this.#dispatch({ type: 'success', data });
      return data;
    } catch (error) {
      // each callback runs (and is awaited) even if an earlier one threw
      for (const callback of outcomeCallbacks(true, undefined, error as TError)) {
        try {
          await callback();
        } catch (e) {
          reportAsync(e);
        }
      }
      this.#dispatch({ type: 'error', error: error as TError });
      throw error;
    } finally {
      if (this.#retryer === retryer) this.#retryer = undefined;
      this.#mutationCache.runNext(this);
    }
  }

  #createRetryer(variables: TVariables, context: MutationFunctionContext): Retryer<TData> {
    return createRetryer<TData, TError>({
      fn: () => (this.options.mutationFn ? this.options.mutationFn(variables, context) : Promise.reject(new Error('No mutationFn found'))),
      dispatch: (action) => this.#dispatch(action),
      client: this.#client,
      owner: this,
      retry: this.options.retry ?? MUTATION_RETRY,
      retryDelay: this.options.retryDelay,
      networkMode: this.options.networkMode,
      canRun: () => this.#mutationCache.canRun(this),
    });
  }

  /** Instrumentation hears the new observer count, cache listeners which observer came or went. */
  #observerEvent(type: 'observerAdded' | 'observerRemoved', observer: MutationObserver<any, any, any, any>): void {
    trace(this.#client, type, this, this.#observers.length);
    this.#mutationCache.notify({ type, mutation: this, observer });
  }

  #dispatch(action: Action<TData, TError, TVariables, TOnMutateResult>): void {
    this.state = mutationReducer(this.state, action);
    trace(this.#client, 'dispatch', this, action);
    notifyManager.batch(() => {
      for (const observer of this.#observers) observer.onMutationUpdate(action);
      this.#mutationCache.notify({ mutation: this, type: 'updated', action });
    });
  }
}

export function getDefaultState<TData, TError, TVariables, TOnMutateResult>(): MutationState<TData, TError, TVariables, TOnMutateResult> {
  return {
    context: undefined,
    data: undefined,
    error: null,
    failureCount: 0,
    failureReason: null,
    isPaused: false,
    status: 'idle',
    variables: undefined,
    submittedAt: 0,
  };
}
