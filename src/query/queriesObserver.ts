/**
 * QueriesObserver: a list of QueryObservers behind one subscription (useQueries). Observers are
 * matched to the new options list by queryHash, so reordering keeps each query's observer. An optional
 * `combine` folds the list of results into one value, memoised and structurally shared.
 */
import { notifyManager } from './notifyManager';
import { QueryObserver } from './queryObserver';
import { Subscribable } from './subscribable';
import { replaceEqualDeep, shallowEqualObjects } from './utils';
import type { QueryClient } from './queryClient';
import type { DefaultedQueryObserverOptions, QueryObserverOptions, QueryObserverResult } from './types';

type QueriesObserverListener = (result: Array<QueryObserverResult>) => void;
type CombineFn<TCombinedResult> = (result: Array<QueryObserverResult>) => TCombinedResult;

export interface QueriesObserverOptions<TCombinedResult = Array<QueryObserverResult>> {
  combine?: CombineFn<TCombinedResult>;
}

type QueryObserverMatch = {
  defaultedQueryOptions: DefaultedQueryObserverOptions;
  observer: QueryObserver;
};

function without<T>(items: Array<T>, removed: Array<T>): Array<T> {
  const drop = new Set(removed);
  return items.filter((item) => !drop.has(item));
}

export class QueriesObserver<TCombinedResult = Array<QueryObserverResult>> extends Subscribable<QueriesObserverListener> {
  #client: QueryClient;
  #result: Array<QueryObserverResult> = [];
  #options?: QueriesObserverOptions<TCombinedResult>;
  #observers: Array<QueryObserver> = [];
  #combinedResult?: TCombinedResult;
  #lastCombine?: CombineFn<TCombinedResult>;
  #lastResult?: Array<QueryObserverResult>;
  #lastQueryHashes?: Array<string>;
  #observerMatches: Array<QueryObserverMatch> = [];

  constructor(client: QueryClient, queries: Array<QueryObserverOptions<any, any, any, any, any>>, options?: QueriesObserverOptions<TCombinedResult>) {
    super();
    this.#client = client;
    this.#options = options;
    this.setQueries(queries);
  }

  protected override onSubscribe(): void {
    if (this.listeners.size !== 1) return;
    for (const observer of this.#observers) this.#listenTo(observer);
  }

  protected override onUnsubscribe(): void {
    if (!this.listeners.size) this.destroy();
  }

  destroy(): void {
    this.listeners = new Set();
    for (const observer of this.#observers) observer.destroy();
  }

  setQueries(queries: Array<QueryObserverOptions>, options?: QueriesObserverOptions<TCombinedResult>): void {
    this.#options = options;
    if (process.env.NODE_ENV !== 'production') {
      const hashes = queries.map((query) => this.#client.defaultQueryOptions(query).queryHash);
      if (new Set(hashes).size !== hashes.length) {
        console.warn('[QueriesObserver]: Duplicate Queries found. This might result in unexpected behavior.');
      }
    }

    notifyManager.batch(() => {
      const prevObservers = this.#observers;
      const matches = this.#findMatchingObservers(queries);
      for (const match of matches) match.observer.setOptions(match.defaultedQueryOptions);
      const nextObservers = matches.map((match) => match.observer);
      const nextResult = nextObservers.map((observer) => observer.getCurrentResult());
      const structural = prevObservers.length !== nextObservers.length || nextObservers.some((observer, i) => observer !== prevObservers[i]);
      const resultChanged =
        structural ||
        nextResult.some((result, i) => {
          const prev = this.#result[i];
          return !prev || !shallowEqualObjects(result, prev);
        });
      if (!resultChanged) return;
      if (structural) {
        this.#observerMatches = matches;
        this.#observers = nextObservers;
      }
      this.#result = nextResult;
      if (!this.hasListeners()) return;
      if (structural) {
        for (const observer of without(prevObservers, nextObservers)) observer.destroy();
        for (const observer of without(nextObservers, prevObservers)) this.#listenTo(observer);
      }
      this.#notify();
    });
  }

  getCurrentResult(): Array<QueryObserverResult> {
    return this.#result;
  }

  getQueries() {
    return this.#observers.map((observer) => observer.getCurrentQuery());
  }

  getObservers() {
    return this.#observers;
  }

  getOptimisticResult(
    queries: Array<QueryObserverOptions>,
    combine: CombineFn<TCombinedResult> | undefined,
  ): [
    rawResult: Array<QueryObserverResult>,
    combineResult: (r?: Array<QueryObserverResult>) => TCombinedResult,
    trackResult: () => Array<QueryObserverResult>,
  ] {
    const matches = this.#findMatchingObservers(queries);
    const result = matches.map((match) => match.observer.getOptimisticResult(match.defaultedQueryOptions));
    const hashes = matches.map((match) => match.defaultedQueryOptions.queryHash);
    return [result, (r?: Array<QueryObserverResult>) => this.#combineResult(r ?? result, combine, hashes), () => this.#trackResult(result, matches)];
  }

  /** Tracking a prop on one result tracks it on all of them (they render together). */
  #trackResult(result: Array<QueryObserverResult>, matches: Array<QueryObserverMatch>): Array<QueryObserverResult> {
    const tracked = new Set<keyof QueryObserverResult>();
    return matches.map((match, index) => {
      const observerResult = result[index]!;
      if (match.defaultedQueryOptions.notifyOnChangeProps) return observerResult;
      return match.observer.trackResult(observerResult, (prop) => {
        if (tracked.has(prop)) return;
        tracked.add(prop);
        for (const m of matches) m.observer.trackProp(prop);
      });
    });
  }

  #combineResult(input: Array<QueryObserverResult>, combine: CombineFn<TCombinedResult> | undefined, queryHashes?: Array<string>): TCombinedResult {
    if (!combine) return input as unknown as TCombinedResult;
    const lastHashes = this.#lastQueryHashes;
    const hashesChanged =
      queryHashes !== undefined &&
      lastHashes !== undefined &&
      (lastHashes.length !== queryHashes.length || queryHashes.some((hash, i) => hash !== lastHashes[i]));
    if (this.#result !== this.#lastResult || hashesChanged || combine !== this.#lastCombine) {
      this.#lastCombine = combine;
      this.#lastResult = this.#result;
      if (queryHashes !== undefined) this.#lastQueryHashes = queryHashes;
      this.#combinedResult = replaceEqualDeep(this.#combinedResult, combine(input));
    }
    return this.#combinedResult as TCombinedResult;
  }

  /** No combine, or a suspense query still without data: listeners get the raw list. */
  #shouldSkipCombine(): boolean {
    return !this.#options?.combine || this.#observers.some((observer, i) => observer.options.suspense && this.#result[i]?.data === undefined);
  }

  #findMatchingObservers(queries: Array<QueryObserverOptions>): Array<QueryObserverMatch> {
    const previousByHash = new Map<string, Array<QueryObserver>>();
    for (const observer of this.#observers) {
      const hash = observer.options.queryHash;
      if (!hash) continue;
      const list = previousByHash.get(hash);
      if (list) list.push(observer);
      else previousByHash.set(hash, [observer]);
    }
    return queries.map((options) => {
      const defaulted = this.#client.defaultQueryOptions(options);
      const reused = previousByHash.get(defaulted.queryHash)?.shift();
      return { defaultedQueryOptions: defaulted, observer: reused ?? new QueryObserver(this.#client, defaulted) };
    });
  }

  #listenTo(observer: QueryObserver): void {
    observer.subscribe((result) => this.#onUpdate(observer, result));
  }

  #onUpdate(observer: QueryObserver, result: QueryObserverResult): void {
    const index = this.#observers.indexOf(observer);
    if (index === -1) return;
    this.#result = this.#result.slice();
    this.#result[index] = result;
    this.#notify();
  }

  #notify(): void {
    if (!this.hasListeners()) return;
    const skip = this.#shouldSkipCombine();
    const previous = this.#combinedResult;
    const next = skip ? previous : this.#combineResult(this.#trackResult(this.#result, this.#observerMatches), this.#options?.combine);
    if (skip || previous !== next) {
      notifyManager.batch(() => {
        for (const listener of this.listeners) listener(this.#result);
      });
    }
  }
}
