/**
 * MutationObserver: what a component holds for `useMutation`. It starts a new Mutation per `mutate`
 * call, mirrors its state as a result, and runs the per-call callbacks given to `mutate` (only while
 * subscribed, after the mutation's own callbacks).
 */
import { getDefaultState } from './mutation';
import { notifyManager } from './notifyManager';
import { Subscribable } from './subscribable';
import { hashKey, shallowEqualObjects } from './utils';
import type { Action, Mutation } from './mutation';
import type { MutateOptions, MutationFunctionContext, MutationObserverOptions, MutationObserverResult } from './mutationTypes';
import type { QueryClient } from './queryClient';
import type { DefaultError } from './types';

type MutationObserverListener<TData, TError, TVariables, TOnMutateResult> = (
  result: MutationObserverResult<TData, TError, TVariables, TOnMutateResult>,
) => void;

/** A per-call callback that throws must not stop the next one; its error still surfaces (unhandled rejection). */
function callSafely<TArgs extends Array<unknown>>(callback: ((...args: TArgs) => unknown) | undefined, ...args: TArgs): void {
  try {
    callback?.(...args);
  } catch (error) {
    void Promise.reject(error);
  }
}

export class MutationObserver<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown> extends Subscribable<
  MutationObserverListener<TData, TError, TVariables, TOnMutateResult>
> {
  options!: MutationObserverOptions<TData, TError, TVariables, TOnMutateResult>;
  #client: QueryClient;
  #currentResult: MutationObserverResult<TData, TError, TVariables, TOnMutateResult> = undefined!;
  #currentMutation?: Mutation<TData, TError, TVariables, TOnMutateResult>;
  #mutateOptions?: MutateOptions<TData, TError, TVariables, TOnMutateResult>;

  constructor(client: QueryClient, options: MutationObserverOptions<TData, TError, TVariables, TOnMutateResult>) {
    super();
    this.#client = client;
    this.setOptions(options);
    this.bindMethods();
    this.#updateResult();
  }

  protected bindMethods(): void {
    this.mutate = this.mutate.bind(this);
    this.reset = this.reset.bind(this);
  }

  setOptions(options: MutationObserverOptions<TData, TError, TVariables, TOnMutateResult>): void {
    const prevOptions = this.options as MutationObserverOptions<TData, TError, TVariables, TOnMutateResult> | undefined;
    this.options = this.#client.defaultMutationOptions(options);
    if (!shallowEqualObjects(this.options, prevOptions)) {
      this.#client.getMutationCache().notify({ type: 'observerOptionsUpdated', mutation: this.#currentMutation, observer: this });
    }
    if (prevOptions?.mutationKey && this.options.mutationKey && hashKey(prevOptions.mutationKey) !== hashKey(this.options.mutationKey)) {
      // a different mutation altogether: forget the old one's state
      this.reset();
    } else if (this.#currentMutation?.state.status === 'pending') {
      this.#currentMutation.setOptions(this.options);
    }
  }

  protected override onSubscribe(): void {
    if (this.listeners.size === 1 && this.#currentMutation) {
      this.#currentMutation.addObserver(this);
      this.#updateResult();
    }
  }

  protected override onUnsubscribe(): void {
    if (!this.hasListeners()) this.#currentMutation?.removeObserver(this);
  }

  onMutationUpdate(action: Action<TData, TError, TVariables, TOnMutateResult>): void {
    this.#updateResult();
    this.#notify(action);
  }

  getCurrentResult(): MutationObserverResult<TData, TError, TVariables, TOnMutateResult> {
    return this.#currentResult;
  }

  reset(): void {
    this.#currentMutation?.removeObserver(this);
    this.#currentMutation = undefined;
    this.#updateResult();
    this.#notify();
  }

  mutate(variables: TVariables, options?: MutateOptions<TData, TError, TVariables, TOnMutateResult>): Promise<TData> {
    this.#mutateOptions = options;
    this.#currentMutation?.removeObserver(this);
    this.#currentMutation = this.#client.getMutationCache().build(this.#client, this.options);
    this.#currentMutation.addObserver(this);
    return this.#currentMutation.execute(variables);
  }

  #updateResult(): void {
    const state = this.#currentMutation?.state ?? getDefaultState<TData, TError, TVariables, TOnMutateResult>();
    this.#currentResult = {
      ...state,
      isPending: state.status === 'pending',
      isSuccess: state.status === 'success',
      isError: state.status === 'error',
      isIdle: state.status === 'idle',
      mutate: this.mutate,
      reset: this.reset,
    } as MutationObserverResult<TData, TError, TVariables, TOnMutateResult>;
  }

  #notify(action?: Action<TData, TError, TVariables, TOnMutateResult>): void {
    notifyManager.batch(() => {
      const callbacks = this.#mutateOptions;
      if (callbacks && this.hasListeners() && (action?.type === 'success' || action?.type === 'error')) {
        const { variables, context: onMutateResult } = this.#currentResult;
        const context: MutationFunctionContext = {
          client: this.#client,
          meta: this.options.meta,
          mutationKey: this.options.mutationKey,
        };
        const vars = variables as TVariables;
        if (action.type === 'success') {
          callSafely(callbacks.onSuccess, action.data, vars, onMutateResult, context);
          callSafely(callbacks.onSettled, action.data, null, vars, onMutateResult, context);
        } else {
          callSafely(callbacks.onError, action.error, vars, onMutateResult, context);
          callSafely(callbacks.onSettled, undefined, action.error, vars, onMutateResult, context);
        }
      }
      for (const listener of this.listeners) listener(this.#currentResult);
    });
  }
}
