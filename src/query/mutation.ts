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
  state: MutationState<TData, TError, TVariables, TOnMutateResult>;
  options!: MutationOptions<TData, TError, TVariables, TOnMutateResult>;
  readonly mutationId: number;

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
    this.updateGcTime(this.options.gcTime);
  }

  get meta(): MutationMeta | undefined {
    return this.options.meta;
  }

  addObserver(observer: MutationObserver<any, any, any, any>): void {
    if (this.#observers.includes(observer)) return;
    this.#observers.push(observer);
    this.clearGcTimeout();
    this.#emitObserverCount('observerAdded');
    this.#mutationCache.notify({ type: 'observerAdded', mutation: this, observer });
  }

  removeObserver(observer: MutationObserver<any, any, any, any>): void {
    this.#observers = this.#observers.filter((x) => x !== observer);
    this.scheduleGc();
    this.#emitObserverCount('observerRemoved');
    this.#mutationCache.notify({ type: 'observerRemoved', mutation: this, observer });
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
    return (
      this.#retryer?.continue() ??
      (this.state.status === 'pending' ? this.execute(this.state.variables!) : Promise.resolve())
    );
  }

  async execute(variables: TVariables): Promise<TData> {
    const onContinue = () => this.#dispatch({ type: 'continue' });
    const context: MutationFunctionContext = {
      client: this.#client,
      meta: this.options.meta,
      mutationKey: this.options.mutationKey,
    };
    const retryer = this.#createRetryer(variables, context, onContinue);
    this.#retryer = retryer;
    const cacheConfig = this.#mutationCache.config;
    const self = this as Mutation<unknown, unknown, unknown, unknown>;
    const restored = this.state.status === 'pending';
    const isPaused = !retryer.canStart();

    try {
      if (restored) {
        onContinue();
      } else {
        this.#dispatch({ type: 'pending', variables, isPaused });
        if (cacheConfig.onMutate) await cacheConfig.onMutate(variables, self, context);
        const onMutateResult = await this.options.onMutate?.(variables, context);
        if (onMutateResult !== this.state.context) {
          this.#dispatch({ type: 'pending', context: onMutateResult, variables, isPaused });
        }
      }
      if (this.state.isPaused && retryer.canStart()) onContinue();
      const data = await retryer.start();
      await cacheConfig.onSuccess?.(data, variables, this.state.context, self, context);
      await this.options.onSuccess?.(data, variables, this.state.context!, context);
      await cacheConfig.onSettled?.(data, null, this.state.variables, this.state.context, self, context);
      await this.options.onSettled?.(data, null, variables, this.state.context, context);
      this.#dispatch({ type: 'success', data });
      return data;
    } catch (error) {
      // each callback runs (and is awaited) even if an earlier one threw; context is read as each starts
      const callbacks = [
        () => cacheConfig.onError?.(error as any, variables, this.state.context, self, context),
        () => this.options.onError?.(error as TError, variables, this.state.context, context),
        () => cacheConfig.onSettled?.(undefined, error as any, this.state.variables, this.state.context, self, context),
        () => this.options.onSettled?.(undefined, error as TError, variables, this.state.context, context),
      ];
      for (const callback of callbacks) {
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

  #createRetryer(variables: TVariables, context: MutationFunctionContext, onContinue: () => void): Retryer<TData> {
    return createRetryer<TData, TError>({
      fn: () =>
        this.options.mutationFn
          ? this.options.mutationFn(variables, context)
          : Promise.reject(new Error('No mutationFn found')),
      onFail: (failureCount, error) => this.#dispatch({ type: 'failed', failureCount, error }),
      onPause: () => this.#dispatch({ type: 'pause' }),
      onContinue,
      client: this.#client,
      owner: this,
      retry: this.options.retry ?? MUTATION_RETRY,
      retryDelay: this.options.retryDelay,
      networkMode: this.options.networkMode,
      canRun: () => this.#mutationCache.canRun(this),
    });
  }

  #emitObserverCount(type: 'observerAdded' | 'observerRemoved'): void {
    trace(this.#client, type, this, this.#observers.length);
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

export function getDefaultState<TData, TError, TVariables, TOnMutateResult>(): MutationState<
  TData,
  TError,
  TVariables,
  TOnMutateResult
> {
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
