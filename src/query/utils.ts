/**
 * Small pure helpers shared by the whole library: key hashing and matching, filters, structural
 * sharing, and a few option resolvers. No state lives here; "now" comes from timeoutManager.
 */
import { FILTER_TYPE, STRUCTURAL_SHARING } from './defaults';
import { isServer } from './environmentManager';
import { now, timeoutManager } from './timeoutManager';
import type { Mutation } from './mutation';
import type { FetchOptions, Query } from './query';
import type { DefaultError, FetchStatus, MutationKey, MutationStatus, QueryFunction, QueryKey, QueryOptions } from './types';

export { isServer };

// ---------------------------------------------------------------- filters

type DropLast<T extends ReadonlyArray<unknown>> = T extends readonly [...infer Head, unknown] ? readonly [...Head] : never;

/** Every prefix of a tuple key, so filters on `['todos', 1]` accept `['todos']` and `[]`. */
type TuplePrefixes<T extends ReadonlyArray<unknown>> = T extends readonly [] ? readonly [] : TuplePrefixes<DropLast<T>> | T;

export type QueryTypeFilter = 'all' | 'active' | 'inactive';

export interface QueryFilters<TQueryKey extends QueryKey = QueryKey> {
  /** 'active': has an enabled observer; 'inactive': has none. Default 'all'. */
  type?: QueryTypeFilter;
  /** Match the whole key rather than a prefix. */
  exact?: boolean;
  /** Last word: called for every query that passed the other filters. */
  predicate?: (query: Query) => boolean;
  queryKey?: TQueryKey | TuplePrefixes<TQueryKey>;
  stale?: boolean;
  fetchStatus?: FetchStatus;
}

export interface MutationFilters<TData = unknown, TError = DefaultError, TVariables = unknown, TOnMutateResult = unknown> {
  exact?: boolean;
  predicate?: (mutation: Mutation<TData, TError, TVariables, TOnMutateResult>) => boolean;
  mutationKey?: TuplePrefixes<MutationKey>;
  status?: MutationStatus;
}

export type Updater<TInput, TOutput> = TOutput | ((input: TInput) => TOutput);

export function noop(): void;
export function noop(): undefined;
export function noop(): void {}

/** A delay a timer can actually be set for: finite and not negative. */
export function isValidTimeout(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value !== Infinity;
}

export function timeUntilStale(updatedAt: number, staleTime?: number): number {
  return Math.max(updatedAt + (staleTime || 0) - now(), 0);
}

/** Options such as `enabled` or `staleTime` may be a value or a function of the query. */
export function resolveQueryValue<TValue, TQuery>(value: undefined | TValue | ((query: TQuery) => TValue), query: TQuery): TValue | undefined {
  return typeof value === 'function' ? (value as (query: TQuery) => TValue)(query) : value;
}

/**
 * One step of a state machine kept as a table (queryState.ts, mutation.ts; ARCHITECTURE.md, 'State machines
 * are data'): apply the table's transition for the action's type. An action the table does not know is an error.
 */
export function transition<TState>(
  table: { readonly [type: string]: (state: TState, action: never, context: never) => TState },
  machine: 'query' | 'mutation',
  state: TState,
  action: { type: string },
  context?: unknown,
): TState {
  const step = table[action.type];
  if (!step) throw new Error(`Unknown ${machine} action '${action.type}'`);
  return step(state, action as never, context as never);
}

/** `setQueryData`'s updater: a value, or a function of the previous data (the same rule as above). */
export const functionalUpdate = resolveQueryValue as <TInput, TOutput>(updater: Updater<TInput, TOutput>, input: TInput) => TOutput;

export function matchQuery(filters: QueryFilters, query: Query<any, any, any, any>): boolean {
  const { type = FILTER_TYPE, exact, fetchStatus, predicate, queryKey, stale } = filters;
  if (queryKey) {
    if (exact) {
      if (query.queryHash !== hashQueryKeyByOptions(queryKey, query.options)) return false;
    } else if (!partialMatchKey(query.queryKey, queryKey)) {
      return false;
    }
  }
  if (type !== 'all') {
    const active = query.isActive();
    if (active !== (type === 'active')) return false;
  }
  if (typeof stale === 'boolean' && query.isStale() !== stale) return false;
  if (fetchStatus && fetchStatus !== query.state.fetchStatus) return false;
  return !predicate || predicate(query);
}

export function matchMutation(filters: MutationFilters, mutation: Mutation<any, any>): boolean {
  const { exact, status, predicate, mutationKey } = filters;
  if (mutationKey) {
    const own = mutation.options.mutationKey;
    if (!own) return false;
    if (exact ? hashKey(own) !== hashKey(mutationKey) : !partialMatchKey(own, mutationKey)) return false;
  }
  if (status && mutation.state.status !== status) return false;
  return !predicate || predicate(mutation);
}

// ---------------------------------------------------------------- keys

export function hashQueryKeyByOptions<TQueryKey extends QueryKey = QueryKey>(
  queryKey: TQueryKey,
  options?: Pick<QueryOptions<any, any, any, any>, 'queryKeyHashFn'>,
): string {
  return (options?.queryKeyHashFn || hashKey)(queryKey);
}

/**
 * A key's hash is its JSON with plain-object keys sorted, so `{a, b}` and `{b, a}` hash alike.
 * Deliberately just the replacer: a fast path that pre-sorted plain keys and skipped it hashed twice as
 * fast, but made setQueryData on 10,000 keys only about 10% faster (see query.bench.ts) for 750 bytes.
 */
export function hashKey(queryKey: QueryKey | MutationKey): string {
  return JSON.stringify(queryKey, sortPlainObjectKeys);
}

function sortPlainObjectKeys(_key: string, value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = value[key];
  return sorted;
}

/** Does key `a` start with (or, for objects, contain) everything in `b`? */
export function partialMatchKey(a: QueryKey, b: QueryKey): boolean;
export function partialMatchKey(a: any, b: any): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || !a || !b || typeof a !== 'object') return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (b.length > a.length) return false;
    for (let i = 0; i < b.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x !== y && !partialMatchKey(x, y)) return false;
    }
    return true;
  }
  for (const key of Object.keys(b)) {
    if (!partialMatchKey(a[key], b[key])) return false;
  }
  return true;
}

// ---------------------------------------------------------------- structural sharing

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Returns `b`, but reusing every part of `a` that is deeply equal, so unchanged branches keep their
 * identity (cheap `===` checks downstream). Only plain arrays and plain objects are walked.
 * The depth cap guards against cyclic data: past it `b` is returned as is.
 */
export function replaceEqualDeep<T>(a: unknown, b: T, depth?: number): T;
export function replaceEqualDeep(a: any, b: any, depth = 0): any {
  if (a === b) return a;
  // Arrays: Array.isArray only. JSON never yields holes or extra properties, and checking for them
  // (Object.keys on every array) would dominate the cost on large payloads.
  const array = Array.isArray(a);
  if (depth > 500 || (array ? !Array.isArray(b) : !(isPlainObject(a) && isPlainObject(b)))) return b;
  const keys: Array<any> = array ? b : Object.keys(b);
  const size = keys.length;
  // Copy lazily: most refetches return data equal to what is cached, and then `a` is the answer.
  let copy: any = (array ? a : Object.keys(a)).length === size ? undefined : array ? [] : {};
  for (let i = 0; i < size; i++) {
    const key = array ? i : keys[i];
    const x = a[key];
    const y = b[key];
    const value = x === y || typeof x !== 'object' || typeof y !== 'object' ? y : replaceEqualDeep(x, y, depth + 1);
    if (copy) copy[key] = value;
    else if (value !== x || (!array && !hasOwn.call(a, key))) {
      copy = array ? [] : {};
      for (let j = 0; j < i; j++) copy[array ? j : keys[j]] = a[array ? j : keys[j]];
      copy[key] = value;
    }
  }
  return copy ?? a;
}

export function shallowEqualObjects<T extends Record<string, any>>(a: T, b: T | undefined): boolean {
  if (!b) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (a[key] !== b[key] || !hasOwn.call(b, key)) return false;
  }
  return true;
}

/** Created by `{}` literal, `Object.create(null)` or `new Object()`: not a class instance. */
export function isPlainObject(o: any): o is Record<PropertyKey, unknown> {
  const proto = o !== null && typeof o === 'object' && Object.getPrototypeOf(o);
  // toString sees through a Symbol.toStringTag that makes a literal pose as something else, as the reference does
  return (proto === null || proto === Object.prototype) && Object.prototype.toString.call(o) === '[object Object]';
}

export function sleep(timeout: number): Promise<void> {
  return new Promise((resolve) => {
    timeoutManager.setTimeout(resolve, timeout);
  });
}

export function replaceData<TData, TOptions extends QueryOptions<any, any, any, any>>(prevData: TData | undefined, data: TData, options: TOptions): TData {
  const sharing = options.structuralSharing ?? STRUCTURAL_SHARING;
  if (typeof sharing === 'function') return sharing(prevData, data) as TData;
  if (sharing === false) return data;
  try {
    return replaceEqualDeep(prevData, data);
  } catch (error) {
    // A development hint, like TanStack's: production bundles drop it (bundlers replace NODE_ENV). Checked
    // here, not around the call: in Node every process.env read is a slow lookup, and this runs per fetch.
    if (process.env.NODE_ENV !== 'production') {
      console.error(
        `Structural sharing needs JSON-like data (plain objects and arrays). Return such data from the queryFn, ` +
          `or set structuralSharing: false for this query. [${options.queryHash}]: ${error}`,
      );
    }
    throw error;
  }
}

/** `placeholderData: keepPreviousData` shows the last key's data while the new key loads. */
export function keepPreviousData<T>(previousData: T | undefined): T | undefined {
  return previousData;
}

export function addToEnd<T>(items: Array<T>, item: T, max = 0): Array<T> {
  const next = [...items, item];
  return max && next.length > max ? next.slice(-max) : next;
}

export function addToStart<T>(items: Array<T>, item: T, max = 0): Array<T> {
  const next = [item, ...items];
  return max && next.length > max ? next.slice(0, max) : next;
}

/** Pass as `queryFn` to disable a query in a type-safe way (the query never runs). */
export const skipToken: unique symbol = Symbol();
export type SkipToken = typeof skipToken;

export function ensureQueryFn<TQueryFnData = unknown, TQueryKey extends QueryKey = QueryKey>(
  options: { queryFn?: QueryFunction<TQueryFnData, TQueryKey> | SkipToken; queryHash?: string },
  fetchOptions?: FetchOptions<TQueryFnData>,
): QueryFunction<TQueryFnData, TQueryKey> {
  if (process.env.NODE_ENV !== 'production' && options.queryFn === skipToken) {
    console.error(`Attempted to invoke queryFn when set to skipToken. This is likely a configuration error. Query hash: '${options.queryHash}'`);
  }
  if (!options.queryFn && fetchOptions?.initialPromise) return () => fetchOptions.initialPromise!;
  if (!options.queryFn || options.queryFn === skipToken) {
    return () => Promise.reject(new Error(`Missing queryFn: '${options.queryHash}'`));
  }
  return options.queryFn;
}

export function shouldThrowError<T extends (...args: Array<any>) => boolean>(throwOnError: boolean | T | undefined, params: Parameters<T>): boolean {
  return typeof throwOnError === 'function' ? throwOnError(...params) : !!throwOnError;
}

/** Hidden slot carrying the fetch's own AbortSignal without marking it as consumed. */
export const fetchSignal: unique symbol = Symbol();

export type FetchSignalContext = { readonly [fetchSignal]?: AbortSignal };

/**
 * Defines a lazy `signal` getter on `object`. Reading it the first time wires `onCancelled` to the abort.
 */
export function addConsumeAwareSignal<T extends object>(
  object: T,
  getSignal: () => AbortSignal,
  onCancelled: () => void,
  internalSignal?: AbortSignal,
): T & { signal: AbortSignal } {
  let signal: AbortSignal | undefined;
  let consumed = false;
  Object.defineProperties(object, {
    [fetchSignal]: { value: internalSignal },
    signal: {
      enumerable: true,
      get: () => {
        signal ??= getSignal();
        if (!consumed) {
          consumed = true;
          if (signal.aborted) onCancelled();
          else signal.addEventListener('abort', onCancelled, { once: true });
        }
        return signal;
      },
    },
  });
  return object as T & { signal: AbortSignal };
}
