/**
 * The query library's option tables as data: for every option of useQuery / QueryObserver, useMutation and
 * useInfiniteQuery, its type, its default and a rule, in the order the pages list them. Default cells that
 * have a value are built from `QUERY_DEFAULTS` (src/query/defaults.ts), the constants the core itself reads,
 * and name them in `from`; query-options.test.ts checks that every constant is documented and every cell
 * shows its constant, and src/query/defaults.test.ts measures each constant against both libraries. The
 * prose lives here, not in the core bundle. Cells are inline markdown (code, links, emphasis), rendered by
 * QueryOptionsTable.astro with `inlineMarkdown`.
 */
import { QUERY_DEFAULTS as D } from 'roundtrip/query';

export type DefaultName = keyof typeof D;

export interface OptionDoc {
  /** The option's property name. */
  readonly name: string;
  /** What the first column shows, when it is more than the name (inline markdown). */
  readonly label?: string;
  readonly type: string;
  /** The default, as the reader should see it (inline markdown). */
  readonly default: string;
  /** The constants of QUERY_DEFAULTS the default cell is built from. */
  readonly from?: readonly DefaultName[];
  /** Where a commonly repeated claim states a different default: that claim (v5's behaviour wins). */
  readonly specSays?: string;
  readonly rule: string;
}

/** A value as code: strings quoted the way TypeScript source writes them. */
export function code(value: unknown): string {
  return '`' + (typeof value === 'string' ? `'${value}'` : String(value)) + '`';
}

/** Milliseconds as the reader thinks of them: "300,000 ms (5 minutes)". */
export function duration(ms: number): string {
  const minutes = ms / 60_000;
  const human = Number.isInteger(minutes) && minutes >= 1 ? ` (${minutes} minute${minutes === 1 ? '' : 's'})` : '';
  return `${ms.toLocaleString('en-US')} ms${human}`;
}

/** The default retryDelay, written out: the formula and its first steps up to the cap. */
export const DEFAULT_BACKOFF = (() => {
  const steps: string[] = [];
  for (let n = 0; ; n++) {
    const delay = Math.min(D.RETRY_DELAY_BASE * 2 ** n, D.RETRY_DELAY_MAX);
    if (delay === D.RETRY_DELAY_MAX || n === 3) break;
    steps.push(`${delay / 1000} s`);
  }
  return `\`min(${D.RETRY_DELAY_BASE} × 2^failureCount, ${D.RETRY_DELAY_MAX})\` ms: ` + `${steps.join(', ')}, ... up to ${D.RETRY_DELAY_MAX / 1000} s`;
})();

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The inline markdown the cells use, as HTML: `code`, [links](/path/), **strong** and *emphasis*. Code spans
 * are cut out first, so nothing inside them is read as markup; everything else is escaped before tags go in.
 */
export function inlineMarkdown(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part)
            .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
            .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
            .replace(/\*([^*]+)\*/g, '<em>$1</em>'),
    )
    .join('');
}

export type QueryOptionGroup = 'identity' | 'freshness' | 'triggers' | 'failures' | 'result';

/** useQuery / QueryObserver options, grouped as the Queries page teaches them. */
export const QUERY_OPTIONS: Readonly<Record<QueryOptionGroup, readonly OptionDoc[]>> = {
  identity: [
    {
      name: 'queryKey',
      type: '`unknown[]`',
      default: 'required',
      rule: 'Identifies the query; its hash is the cache key. When the key changes, the observer switches to the other cache entry and fetches it if needed. Put every variable the `queryFn` uses into the key.',
    },
    {
      name: 'queryFn',
      type: '`(context) => Promise<TData>`',
      default: 'required, unless set in defaults',
      rule: 'Loads the data. It must return a promise that resolves to something other than `undefined` (use `null` for "nothing"). The context holds `queryKey`, `signal` (an `AbortSignal` that aborts when the query is cancelled), `meta`, and `client`; for infinite queries also `pageParam` and `direction`.',
    },
    {
      name: 'enabled',
      type: '`boolean` or `(query) => boolean`',
      default: code(D.ENABLED),
      from: ['ENABLED'],
      rule: 'With `false`, nothing fetches automatically: not on mount, not on focus or reconnect, not on an interval, and the refetches that `invalidateQueries` and `refetchQueries` trigger skip the query too (invalidation still marks it stale). `refetch()` still works. Passing `skipToken` as the `queryFn` disables the query in the same way and keeps types narrow, with one difference: `refetch()` then fails with a "Missing queryFn" error, so use `enabled: false` when you need manual refetches.',
    },
    {
      name: 'networkMode',
      type: "`'online'`, `'always'` or `'offlineFirst'`",
      default: code(D.NETWORK_MODE),
      from: ['NETWORK_MODE'],
      rule: 'How the query behaves without a network; see [Network and focus](/query/network-and-focus/#network-modes).',
    },
    {
      name: 'queryKeyHashFn',
      type: '`(queryKey) => string`',
      default: 'stable JSON hash',
      rule: 'Replaces the function that turns a key into its cache hash.',
    },
    {
      name: 'meta',
      type: '`Record<string, unknown>`',
      default: 'none',
      rule: 'Free-form information stored on the query, readable in `queryFn` as `context.meta` and in cache callbacks.',
    },
    {
      name: 'queryClient',
      type: '`QueryClient`',
      default: 'nearest provider',
      rule: 'Uses this client instead of the one from context (hooks only).',
    },
  ],
  freshness: [
    {
      name: 'staleTime',
      type: "`number`, `Infinity`, `'static'` or `(query) => ...`",
      default: code(D.STALE_TIME),
      from: ['STALE_TIME'],
      rule: "How long (ms) fetched data counts as fresh. Fresh data is served from the cache without any refetch. Stale data is still shown, but refetched on the next trigger (mount, focus, reconnect). With `Infinity` data never goes stale by age, though `invalidateQueries` can still mark it stale; with `'static'` not even that.",
    },
    {
      name: 'gcTime',
      type: '`number` or `Infinity`',
      default: `${duration(D.GC_TIME)}; ${code(D.SERVER_GC_TIME)} on a server`,
      from: ['GC_TIME', 'SERVER_GC_TIME'],
      rule: 'How long (ms) a query without observers stays in the cache before it is removed. While it stays, a remounting component gets its data instantly.',
    },
  ],
  triggers: [
    {
      name: 'refetchOnMount',
      type: "`boolean`, `'always'` or `(query) => ...`",
      default: code(D.REFETCH_ON_MOUNT),
      from: ['REFETCH_ON_MOUNT'],
      rule: "When an observer mounts: `true` refetches if the data is stale, `'always'` refetches anyway, `false` never.",
    },
    {
      name: 'refetchOnWindowFocus',
      type: "`boolean`, `'always'` or `(query) => ...`",
      default: code(D.REFETCH_ON_WINDOW_FOCUS),
      from: ['REFETCH_ON_WINDOW_FOCUS'],
      rule: 'When the window regains focus (per the [focusManager](/query/network-and-focus/#focusmanager)), with the same three meanings.',
    },
    {
      name: 'refetchOnReconnect',
      type: "`boolean`, `'always'` or `(query) => ...`",
      default: `${code(D.REFETCH_ON_RECONNECT)} (but \`false\` with \`networkMode: 'always'\`)`,
      specSays: '`true`, unconditionally',
      from: ['REFETCH_ON_RECONNECT'],
      rule: 'When the [onlineManager](/query/network-and-focus/#onlinemanager) reports the network is back, with the same three meanings.',
    },
    {
      name: 'refetchInterval',
      type: '`number`, `false` or `(query) => number | false | undefined`',
      default: code(D.REFETCH_INTERVAL),
      specSays: '`false`: refetch immediately',
      from: ['REFETCH_INTERVAL'],
      rule: 'Polls: refetch every so many ms while an observer is subscribed. `false` (or `0`) turns polling off. A function is asked again after every fetch, so polling can stop itself.',
    },
    {
      name: 'refetchIntervalInBackground',
      type: '`boolean`',
      default: code(D.REFETCH_INTERVAL_IN_BACKGROUND),
      from: ['REFETCH_INTERVAL_IN_BACKGROUND'],
      rule: 'With `true`, polling continues while the tab is in the background; otherwise it skips unfocused intervals.',
    },
    {
      name: 'retryOnMount',
      type: '`boolean`',
      default: code(D.RETRY_ON_MOUNT),
      from: ['RETRY_ON_MOUNT'],
      rule: 'With `false`, a query that is in error is not fetched again when a new observer mounts.',
    },
  ],
  failures: [
    {
      name: 'retry',
      type: '`boolean`, `number` or `(failureCount, error) => boolean`',
      default: `${code(D.RETRY)} in a browser, ${code(D.SERVER_RETRY)} on a server`,
      from: ['RETRY', 'SERVER_RETRY'],
      rule: '`false`: no retries. `true`: retry forever. A number: retry up to that many times after the first failure. A function decides per failure.',
    },
    {
      name: 'retryDelay',
      type: '`number` or `(failureCount, error) => number`',
      default: DEFAULT_BACKOFF,
      from: ['RETRY_DELAY_BASE', 'RETRY_DELAY_MAX'],
      rule: 'Milliseconds before the next attempt. The default waits 1 s, 2 s, 4 s, ... (`min(1000 × 2^failureCount, 30000)`, with `failureCount` counting from 0). Other common choices: `attempt => Math.min(attempt > 1 ? 2 ** attempt * 1000 : 1000, 30_000)` or linear `attempt => attempt * 1000`.',
    },
    {
      name: 'throwOnError',
      type: '`boolean` or `(error, query) => boolean`',
      default: '`false`',
      rule: 'With `true` (or when the function returns `true`) an error is thrown to the nearest error boundary instead of being returned in the result. See [Errors](/query/errors/).',
    },
  ],
  result: [
    {
      name: 'select',
      type: '`(data) => TSelected`',
      default: 'none',
      rule: 'Derives what the observer returns from the cached data (a slice, a count, a sorted copy). The cache keeps the full data; each observer can select differently.',
    },
    {
      name: 'initialData',
      type: '`TData` or `() => TData`',
      default: 'none',
      rule: 'Seeds the cache when the query has no data yet. It *is* cached, counts as real data, and takes part in `staleTime`: with the default `staleTime: 0` it is immediately stale and refetched on mount.',
    },
    {
      name: 'initialDataUpdatedAt',
      type: '`number` or `() => number | undefined`',
      default: 'none',
      rule: 'When `initialData` was last fresh (ms timestamp), so `staleTime` can be measured from that moment instead of now.',
    },
    {
      name: 'placeholderData',
      type: '`TData` or `(previousData, previousQuery) => TData`',
      default: 'none',
      rule: "Shown while the query is pending, but never written to the cache. While it is shown, the result reports `status: 'success'` and `isPlaceholderData: true`. Ignored when the cache has data (including `initialData`). Passing `keepPreviousData` keeps the previous key's data on screen while a new key loads.",
    },
    {
      name: 'structuralSharing',
      type: '`boolean` or `(oldData, newData) => data`',
      default: code(D.STRUCTURAL_SHARING),
      from: ['STRUCTURAL_SHARING'],
      rule: 'Keeps object identity for unchanged parts of new data, so components that use them do not rerender. `false` turns it off (for very large or non-JSON data); a function does the merge itself.',
    },
    {
      name: 'notifyOnChangeProps',
      type: "`string[]`, `'all'` or `() => ...`",
      default: 'tracked',
      rule: "Which result fields cause a rerender when they change. By default the observer tracks which fields the component actually reads; `'all'` rerenders on any change.",
    },
    {
      name: 'suspense',
      type: '`boolean`',
      default: '`false`',
      rule: 'An observer-level flag that the suspense hooks set; `useQuery` itself does not accept it in v5. Use [the suspense hooks](/query/suspense/).',
    },
  ],
};

/** useMutation / MutationObserver options. */
export const MUTATION_OPTIONS: readonly OptionDoc[] = [
  {
    name: 'mutationFn',
    type: '`(variables, context) => Promise<TData>`',
    default: 'required, unless set in defaults',
    rule: 'Performs the change. `variables` is what was passed to `mutate`; `context` holds the `client`, `meta` and `mutationKey`.',
  },
  {
    name: 'mutationKey',
    type: '`unknown[]`',
    default: 'none',
    rule: 'Optional, unlike `queryKey`: it only serves to find the mutation later (filters, `useMutationState`) and to inherit defaults set with `setMutationDefaults`.',
  },
  {
    name: 'onMutate',
    type: '`(variables, context) => result | Promise<result>`',
    default: 'none',
    rule: 'Runs before `mutationFn`. Whatever it returns is passed to the other callbacks as `onMutateResult`: the place for optimistic updates and the snapshot to roll them back.',
  },
  {
    name: 'onSuccess',
    type: '`(data, variables, onMutateResult, context)`',
    default: 'none',
    rule: 'Runs after `mutationFn` resolved.',
  },
  {
    name: 'onError',
    type: '`(error, variables, onMutateResult | undefined, context)`',
    default: 'none',
    rule: 'Runs after `mutationFn` failed (after its retries).',
  },
  {
    name: 'onSettled',
    type: '`(data | undefined, error | null, variables, onMutateResult | undefined, context)`',
    default: 'none',
    rule: 'Runs after success or failure.',
  },
  {
    name: 'retry',
    type: '`boolean`, `number` or function',
    default: code(D.MUTATION_RETRY),
    from: ['MUTATION_RETRY'],
    rule: 'As for queries, but mutations do not retry by default: repeating a non-idempotent request is rarely safe.',
  },
  {
    name: 'retryDelay',
    type: '`number` or function',
    default: DEFAULT_BACKOFF,
    from: ['RETRY_DELAY_BASE', 'RETRY_DELAY_MAX'],
    rule: 'Delay before a retry.',
  },
  {
    name: 'networkMode',
    type: "`'online'`, `'always'` or `'offlineFirst'`",
    default: code(D.NETWORK_MODE),
    from: ['NETWORK_MODE'],
    rule: "As for queries: offline, an `'online'` mutation waits as paused.",
  },
  {
    name: 'gcTime',
    type: '`number` or `Infinity`',
    default: `${duration(D.GC_TIME)}; ${code(D.SERVER_GC_TIME)} on a server`,
    from: ['GC_TIME', 'SERVER_GC_TIME'],
    rule: 'How long a finished mutation with no observers stays in the mutation cache.',
  },
  {
    name: 'throwOnError',
    type: '`boolean` or `(error) => boolean`',
    default: '`false`',
    rule: 'Throw the error to the nearest error boundary.',
  },
  {
    name: 'scope',
    type: '`{ id: string }`',
    default: 'none',
    rule: 'Mutations with the same scope id run one after another, in call order, instead of in parallel.',
  },
  {
    name: 'meta',
    type: '`Record<string, unknown>`',
    default: 'none',
    rule: 'Stored on the mutation; readable in cache callbacks.',
  },
  {
    name: 'queryClient',
    type: '`QueryClient`',
    default: 'nearest provider',
    rule: 'Use this client (hooks only).',
  },
];

/** What useInfiniteQuery / InfiniteQueryObserver add to the query options. */
export const INFINITE_QUERY_OPTIONS: readonly OptionDoc[] = [
  {
    name: 'queryFn',
    label: '`queryFn` context',
    type: 'adds `pageParam` and `direction`',
    default: 'does not apply',
    // TanStack v5 query-core types.ts QueryFunctionContext: direction is @deprecated ("add it to the pageParam")
    rule: "`pageParam` is the parameter of the page being loaded; `direction` is `'forward'` or `'backward'`, but it is deprecated in v5: if the `queryFn` needs the direction, put it into the page parameter.",
  },
  {
    name: 'initialPageParam',
    type: '`TPageParam`',
    default: 'required',
    rule: 'The parameter of the first page.',
  },
  {
    name: 'getNextPageParam',
    type: '`(lastPage, allPages, lastPageParam, allPageParams) => TPageParam | undefined | null`',
    default: 'required',
    rule: 'Returns the parameter of the page after the last one, or `undefined`/`null` when there is none.',
  },
  {
    name: 'getPreviousPageParam',
    type: '`(firstPage, allPages, firstPageParam, allPageParams) => TPageParam | undefined | null`',
    default: 'none',
    rule: 'The same, before the first page; needed for `fetchPreviousPage`.',
  },
  {
    name: 'maxPages',
    type: '`number | undefined`',
    default: '`undefined`: no limit',
    rule: 'The most pages kept. When a new page would exceed it, the page at the opposite end is dropped: the first when fetching forward, the last when fetching backward. `undefined` or `0` means no limit.',
  },
];

export interface DefaultRow {
  /** What the default belongs to (inline markdown). */
  readonly item: string;
  readonly value: string;
  readonly from?: readonly DefaultName[];
  readonly specSays?: string;
}

/** Every default in one table, for the Defaults and limits page. */
export const DEFAULTS_TABLE: readonly DefaultRow[] = [
  { item: 'Query `retry`', value: `${code(D.RETRY)} in a browser, ${code(D.SERVER_RETRY)} on a server`, from: ['RETRY', 'SERVER_RETRY'] },
  { item: 'Mutation `retry`', value: code(D.MUTATION_RETRY), from: ['MUTATION_RETRY'] },
  { item: '`retryDelay` (queries and mutations)', value: DEFAULT_BACKOFF, from: ['RETRY_DELAY_BASE', 'RETRY_DELAY_MAX'] },
  {
    item: '`staleTime`',
    value: code(D.STALE_TIME) + (D.STALE_TIME === 0 ? ': data is stale as soon as it arrives' : ''),
    from: ['STALE_TIME'],
  },
  {
    item: '`gcTime` (queries and mutations)',
    value: `${duration(D.GC_TIME)} in a browser; ${code(D.SERVER_GC_TIME)} on a server`,
    from: ['GC_TIME', 'SERVER_GC_TIME'],
  },
  { item: '`networkMode` (queries and mutations)', value: code(D.NETWORK_MODE), from: ['NETWORK_MODE'] },
  { item: '`refetchOnMount`', value: code(D.REFETCH_ON_MOUNT), from: ['REFETCH_ON_MOUNT'] },
  { item: '`refetchOnWindowFocus`', value: code(D.REFETCH_ON_WINDOW_FOCUS), from: ['REFETCH_ON_WINDOW_FOCUS'] },
  {
    item: '`refetchOnReconnect`',
    value: `${code(D.REFETCH_ON_RECONNECT)}, or \`false\` when \`networkMode\` is \`'always'\``,
    from: ['REFETCH_ON_RECONNECT'],
    specSays: '`true`, unconditionally',
  },
  {
    item: '`refetchInterval`',
    value: `${code(D.REFETCH_INTERVAL)} (no polling)`,
    from: ['REFETCH_INTERVAL'],
    specSays: '`false` means "refetch immediately"',
  },
  { item: '`refetchIntervalInBackground`', value: code(D.REFETCH_INTERVAL_IN_BACKGROUND), from: ['REFETCH_INTERVAL_IN_BACKGROUND'] },
  { item: '`retryOnMount`', value: code(D.RETRY_ON_MOUNT), from: ['RETRY_ON_MOUNT'] },
  { item: '`enabled`', value: code(D.ENABLED), from: ['ENABLED'] },
  { item: '`structuralSharing`', value: code(D.STRUCTURAL_SHARING), from: ['STRUCTURAL_SHARING'] },
  { item: '`throwOnError`', value: '`false` (errors are thrown anyway by the suspense hooks when there is no data)' },
  { item: '`notifyOnChangeProps`', value: 'tracked: only the result fields the component reads' },
  { item: '`refetch` and `invalidateQueries` `cancelRefetch`', value: code(D.CANCEL_REFETCH), from: ['CANCEL_REFETCH'] },
  { item: '`invalidateQueries` `refetchType`', value: code(D.REFETCH_TYPE), from: ['REFETCH_TYPE'] },
  { item: 'Filter `type`', value: code(D.FILTER_TYPE), from: ['FILTER_TYPE'] },
  { item: '`maxPages` (infinite queries)', value: '`undefined` or `0`: no limit' },
  {
    item: '`retry` of `fetchQuery`, `prefetchQuery`, `ensureQueryData`',
    value: `${code(D.FETCH_QUERY_RETRY)}, unless \`retry\` is set in the call or in defaults`,
    from: ['FETCH_QUERY_RETRY'],
  },
];
