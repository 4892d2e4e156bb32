/**
 * MutationCache: every mutation that ran, plus scope queues. Mutations with the same `scope.id` run
 * one at a time in start order: a later one stays paused until `runNext` wakes it.
 */
import { Mutation } from './mutation';
import { notifyManager } from './notifyManager';
import { Subscribable } from './subscribable';
import { matchMutation, noop } from './utils';
import type { Action, MutationState } from './mutation';
import type { MutationObserver } from './mutationObserver';
import type { MutationFunctionContext, MutationOptions } from './mutationTypes';
import type { QueryClient } from './queryClient';
import type { DefaultError, NotifyEvent } from './types';
import type { MutationFilters } from './utils';

type AnyMutation = Mutation<any, any, any, any>;

export interface MutationCacheConfig {
  onError?: (
    error: DefaultError,
    variables: unknown,
    onMutateResult: unknown,
    mutation: Mutation<unknown, unknown, unknown>,
    context: MutationFunctionContext,
  ) => Promise<unknown> | unknown;
  onSuccess?: (
    data: unknown,
    variables: unknown,
    onMutateResult: unknown,
    mutation: Mutation<unknown, unknown, unknown>,
    context: MutationFunctionContext,
  ) => Promise<unknown> | unknown;
  /** Its return value is awaited but not used as context. */
  onMutate?: (variables: unknown, mutation: Mutation<unknown, unknown, unknown>, context: MutationFunctionContext) => Promise<unknown> | unknown;
  onSettled?: (
    data: unknown | undefined,
    error: DefaultError | null,
    variables: unknown,
    onMutateResult: unknown,
    mutation: Mutation<unknown, unknown, unknown>,
    context: MutationFunctionContext,
  ) => Promise<unknown> | unknown;
}

interface NotifyEventMutationAdded extends NotifyEvent {
  type: 'added';
  mutation: AnyMutation;
}
interface NotifyEventMutationRemoved extends NotifyEvent {
  type: 'removed';
  mutation: AnyMutation;
}
interface NotifyEventMutationObserverAdded extends NotifyEvent {
  type: 'observerAdded';
  mutation: AnyMutation;
  observer: MutationObserver<any, any, any>;
}
interface NotifyEventMutationObserverRemoved extends NotifyEvent {
  type: 'observerRemoved';
  mutation: AnyMutation;
  observer: MutationObserver<any, any, any>;
}
interface NotifyEventMutationObserverOptionsUpdated extends NotifyEvent {
  type: 'observerOptionsUpdated';
  mutation?: AnyMutation;
  observer: MutationObserver<any, any, any, any>;
}
interface NotifyEventMutationUpdated extends NotifyEvent {
  type: 'updated';
  mutation: AnyMutation;
  action: Action<any, any, any, any>;
}

export type MutationCacheNotifyEvent =
  | NotifyEventMutationAdded
  | NotifyEventMutationRemoved
  | NotifyEventMutationObserverAdded
  | NotifyEventMutationObserverRemoved
  | NotifyEventMutationObserverOptionsUpdated
  | NotifyEventMutationUpdated;

type MutationCacheListener = (event: MutationCacheNotifyEvent) => void;

const scopeOf = (mutation: AnyMutation): string | undefined => mutation.options.scope?.id;

export class MutationCache extends Subscribable<MutationCacheListener> {
  #mutations = new Set<AnyMutation>();
  #scopes = new Map<string, Array<AnyMutation>>();
  #mutationId = 0;

  constructor(public config: MutationCacheConfig = {}) {
    super();
  }

  build<TData, TError, TVariables, TOnMutateResult>(
    client: QueryClient,
    options: MutationOptions<TData, TError, TVariables, TOnMutateResult>,
    state?: MutationState<TData, TError, TVariables, TOnMutateResult>,
  ): Mutation<TData, TError, TVariables, TOnMutateResult> {
    const mutation = new Mutation({
      client,
      mutationCache: this,
      mutationId: ++this.#mutationId,
      options: client.defaultMutationOptions(options),
      state,
    });
    this.add(mutation);
    return mutation;
  }

  add(mutation: AnyMutation): void {
    this.#mutations.add(mutation);
    const scope = scopeOf(mutation);
    if (typeof scope === 'string') {
      const queue = this.#scopes.get(scope);
      if (queue) queue.push(mutation);
      else this.#scopes.set(scope, [mutation]);
    }
    this.notify({ type: 'added', mutation });
  }

  remove(mutation: AnyMutation): void {
    if (this.#mutations.delete(mutation)) {
      const queue = this.#queueOf(mutation) ?? [];
      const index = queue.indexOf(mutation);
      if (index !== -1) {
        queue.splice(index, 1);
        if (queue.length === 0) this.#scopes.delete(scopeOf(mutation)!);
      }
    }
    this.notify({ type: 'removed', mutation });
  }

  /** The start-ordered queue of the mutation's scope; none for unscoped mutations (they never wait). */
  #queueOf(mutation: AnyMutation): Array<AnyMutation> | undefined {
    const scope = scopeOf(mutation);
    return typeof scope === 'string' ? this.#scopes.get(scope) : undefined;
  }

  /** Unscoped mutations always run; scoped ones only when first among their scope's pending ones. */
  canRun(mutation: AnyMutation): boolean {
    const firstPending = this.#queueOf(mutation)?.find((m) => m.state.status === 'pending');
    return !firstPending || firstPending === mutation;
  }

  runNext(mutation: AnyMutation): Promise<unknown> {
    const next = this.#queueOf(mutation)?.find((m) => m !== mutation && m.state.isPaused);
    return next?.continue() ?? Promise.resolve();
  }

  clear(): void {
    notifyManager.batch(() => {
      const all = this.getAll();
      this.#mutations.clear();
      this.#scopes.clear();
      for (const mutation of all) this.notify({ type: 'removed', mutation });
    });
  }

  getAll(): Array<Mutation> {
    return Array.from(this.#mutations);
  }

  find<TData = unknown, TError = DefaultError, TVariables = any, TOnMutateResult = unknown>(
    filters: MutationFilters,
  ): Mutation<TData, TError, TVariables, TOnMutateResult> | undefined {
    const defaulted = { exact: true, ...filters };
    return this.getAll().find((mutation) => matchMutation(defaulted, mutation)) as Mutation<TData, TError, TVariables, TOnMutateResult> | undefined;
  }

  findAll(filters: MutationFilters = {}): Array<Mutation> {
    return this.getAll().filter((mutation) => matchMutation(filters, mutation));
  }

  notify(event: MutationCacheNotifyEvent): void {
    if (this.listeners.size === 0) return;
    notifyManager.batch(() => {
      for (const listener of this.listeners) listener(event);
    });
  }

  resumePausedMutations(): Promise<unknown> {
    const paused = this.getAll().filter((mutation) => mutation.state.isPaused);
    return notifyManager.batch(() => Promise.all(paused.map((mutation) => mutation.continue().catch(noop))));
  }
}
