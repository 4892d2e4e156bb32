/** The query-library challenges, in the order of the docs' query pages. */
import { type Definition, result, list, times } from './check-words';
import {
  dataHistory,
  environmentChanges,
  finishedRequests,
  mounts,
  ms,
  mutationSummaries,
  queryEvents,
  queryFetches,
  querySummaries,
  retryDelays,
  wireEvents,
} from './recording-queries';

export const QUERY_CHALLENGES: readonly Definition[] = [
  {
    id: 'query-dedup-three',
    view: 'devtools',
    page: '/query/overview/',
    title: 'Three components, one request',
    goal: 'Three components show the same list. Make the server see one request, not three.',
    hints: [
      'Open Devtools: how many queries are in the cache?',
      'A query is identified by its key. Observers of one key share one fetch while it runs.',
      "Give the three components the same query key: ['todos'].",
    ],
    check(recording) {
      const requests = wireEvents(recording, 'request-started').length;
      const subscribed = queryEvents(recording).filter((e) => e.type === 'observerAdded').length;
      const queries = new Set(queryEvents(recording).map((e) => (e.subject.kind === 'query' ? e.subject.queryHash : ''))).size;
      const details = [`${subscribed} observers subscribed to ${queries} ${queries === 1 ? 'query' : 'queries'}`];
      if (subscribed < 3) return result(false, `${subscribed} components subscribed; keep all three.`, details);
      return requests === 1
        ? result(true, `Three components, one request: the server saw ${requests}.`, details)
        : result(false, `The server saw ${requests} requests; goal: 1.`, details);
    },
  },
  {
    id: 'query-retry-twice',
    view: 'events',
    page: '/query/errors/',
    title: 'Retry twice: after 200 ms, then 400 ms',
    goal: 'Make the query retry exactly twice, waiting 200 ms before the first retry and 400 ms before the second.',
    hints: [
      'Open the Event timeline: how many retries are there, and how long is each wait?',
      'retry sets how many times a failed query is tried again; retryDelay how long each wait is.',
      'retry: 2 and retryDelay: (failureCount) => 200 * 2 ** failureCount: TanStack passes 0 before the first retry, 1 before the second.',
    ],
    check(recording) {
      const delays = retryDelays(recording);
      const shown = delays.map((d) => ms(d));
      const details = [`${queryFetches(recording)} fetch(es), ${delays.length} retr${delays.length === 1 ? 'y' : 'ies'}`];
      if (delays.length === 2 && delays[0] === 200 && delays[1] === 400) return result(true, 'The query retried twice, after 200 ms and 400 ms.', details);
      if (delays.length === 0) return result(false, 'The query never retried; goal: twice, after 200 ms and 400 ms.', details);
      return result(false, `The query retried ${times(delays.length)}, after ${list(shown)}; goal: twice, after 200 ms and 400 ms.`, details);
    },
  },
  {
    id: 'query-fresh-remount',
    view: 'events',
    page: '/query/queries/',
    title: 'No refetch on remount',
    goal: 'Keep the profile fresh for 5 seconds, so that the remount 2 s later shows it without fetching again.',
    hints: [
      'Open the Event timeline: what happens when the second observer is added?',
      'A mounting observer refetches a query that is stale (refetchOnMount). Data is stale at once by default.',
      'Set staleTime: 5_000 in the query options.',
    ],
    check(recording) {
      const fetches = queryFetches(recording, ['profile']);
      const mounts = queryEvents(recording, ['profile']).filter((e) => e.type === 'observerAdded').length;
      const details = [`${mounts} mount(s), ${fetches} fetch(es)`];
      if (mounts < 2) return result(false, `The profile was mounted ${times(mounts)}; keep the remount.`, details);
      return fetches === 1
        ? result(true, 'The remount read the cache: one fetch for two mounts.', details)
        : result(false, `The profile was fetched ${times(fetches)} for ${mounts} mounts; goal: once.`, details);
    },
  },
  {
    id: 'caches-gc-away',
    view: 'timers',
    page: '/query/caches/',
    title: 'Still cached after 8 s away',
    goal: 'The reader leaves for 8 s and comes back. Keep the todos in the cache for that long after the last observer leaves.',
    hints: [
      'Open the Timers view: what starts when the last observer unsubscribes?',
      'An inactive query is removed once gcTime has passed without an observer.',
      'Set gcTime above 8,000 ms, for example 10_000.',
    ],
    check(recording) {
      const events = queryEvents(recording, ['todos']);
      const scheduled = events.flatMap((e) => (e.type === 'gcScheduled' ? [e.delay] : []));
      const removed = events.filter((e) => e.type === 'gcFired' && e.removed).length;
      const returned = mounts(recording, ['todos']).length >= 2;
      const details = [`gc timer: ${[...new Set(scheduled)].map((d) => ms(d)).join(', ') || 'never set'} (set ${times(scheduled.length)})`];
      if (!returned) return result(false, 'The reader never came back: keep the second visit.', details);
      return removed === 0
        ? result(true, 'The todos stayed cached while the reader was away.', details)
        : result(false, `gc removed the todos ${ms(scheduled[0] ?? 0)} after the last observer left, before the reader came back 8,000 ms later.`, details);
    },
  },
  {
    id: 'filters-lists-only',
    view: 'devtools',
    page: '/query/filters/',
    title: 'Invalidate the lists, not the details',
    goal: 'A new todo makes both lists out of date but not the details. Invalidate both lists and neither detail query.',
    hints: [
      "Which queries does the filter { queryKey: ['todos'] } match?",
      'A queryKey filter matches every key that starts with it (objects in it match by the properties the filter names), unless exact: true.',
      "Use { queryKey: ['todos', 'list'] }.",
    ],
    check(recording) {
      const invalidated = new Set(
        queryEvents(recording, ['todos']).flatMap((e) => (e.type === 'invalidate' && e.subject.kind === 'query' ? [JSON.stringify(e.subject.queryKey)] : [])),
      );
      const lists = [...invalidated].filter((k) => k.startsWith('["todos","list"'));
      const details = [...invalidated].filter((k) => k.startsWith('["todos","detail"'));
      const facts = [`invalidated: ${[...invalidated].join(' ') || 'nothing'}`];
      if (lists.length < 2) return result(false, `${lists.length} of the 2 lists were invalidated; goal: both.`, facts);
      return details.length === 0
        ? result(true, 'Both lists were invalidated and no detail query was.', facts)
        : result(false, `${details.length} detail ${details.length === 1 ? 'query was' : 'queries were'} invalidated too; goal: none.`, facts);
    },
  },
  {
    id: 'infinite-third-page',
    view: 'devtools',
    page: '/query/infinite-queries/',
    title: 'Straight to the third page',
    goal: 'A link opens the feed at its third page (items 6, 7 and 8). Show that page with one request.',
    hints: [
      'Open the Waterfall: which cursor does each request ask for?',
      'The first page fetched is the one at initialPageParam.',
      'Set initialPageParam: 6 and fetch once.',
    ],
    check(recording) {
      const requests = finishedRequests(recording, '/feed');
      const [summary] = querySummaries(recording, ['feed']);
      const shown = summary?.data?.text.replace(/\s+/g, '') ?? '';
      const onThird = shown.includes('"items":[6,7,8]');
      const details = requests.map((r) => `GET ${r.path} -> ${r.status}`);
      if (!onThird) return result(false, `The feed does not hold the third page (items 6, 7, 8) after ${requests.length} request(s).`, details);
      return requests.length === 1
        ? result(true, 'The third page arrived with 1 request.', details)
        : result(false, `The third page took ${requests.length} requests; goal: 1.`, details);
    },
  },
  {
    id: 'focus-no-refetch',
    view: 'events',
    page: '/query/network-and-focus/',
    title: 'No refetch on focus',
    goal: 'The daily report changes once a day. Switching tabs and back must not fetch it again.',
    hints: [
      'Open the Event timeline: what happens when the window regains focus?',
      'On focus, TanStack Query refetches each stale query that has an enabled observer, and data is stale at once by default (staleTime 0).',
      'Give the report a staleTime of a day (or set refetchOnWindowFocus: false).',
    ],
    check(recording) {
      const fetches = queryFetches(recording, ['daily-report']);
      const changes = environmentChanges(recording);
      const regained = changes.some((c, i) => c.focused && i > 0 && !changes[i - 1]!.focused);
      const details = [`${fetches} fetch(es); focus changes: ${changes.map((c) => (c.focused ? 'focused' : 'blurred')).join(', ') || 'none'}`];
      if (!regained) return result(false, 'The window never lost and regained focus: keep the tab switch.', details);
      return fetches === 1
        ? result(true, 'Focus came back and the report was fetched once in all.', details)
        : result(false, `The report was fetched ${fetches} times; goal: once, even after focus comes back.`, details);
    },
  },
  {
    id: 'hydrate-no-refetch',
    view: 'devtools',
    page: '/query/ssr-and-hydration/',
    title: 'Hydrated, not fetched twice',
    goal: "After hydration, the browser shows the server's todos without asking the server again.",
    hints: [
      'Count the requests in the Sequence view: who sends the second one?',
      'Hydrated data is as old as when the server fetched it; with staleTime 0 a mounting observer refetches it.',
      "Give the browser's client a staleTime (for example 60_000) in its defaultOptions.",
    ],
    check(recording) {
      const requests = finishedRequests(recording, '/todos').length;
      const browser = recording.sources.filter((s) => s.kind === 'query')[1];
      const browserFetches = browser ? browser.events.filter((e) => e.kind === 'instrumentation' && e.event.type === 'fetchStart').length : 0;
      const details = [`the server saw ${requests} request(s); the browser's client started ${browserFetches} fetch(es)`];
      if (!browser) return result(false, 'There is no second QueryClient for the browser: keep the hydration.', details);
      return browserFetches === 0 && requests === 1
        ? result(true, "The browser showed the server's data: 1 request in all.", details)
        : result(false, `The server saw ${requests} requests: the browser fetched again; goal: 1 in all.`, details);
    },
  },
  {
    id: 'mutations-rollback',
    view: 'events',
    page: '/query/mutations/',
    title: 'Roll back a failed optimistic update',
    goal: 'Saving the new todo fails after the list already shows it. Put the list back exactly as it was before.',
    hints: [
      'Open the Event timeline: what does the list hold after the mutation fails?',
      'What onMutate returns (what the list was) reaches onError as its third argument, onMutateResult.',
      "Save getQueryData(['todos']) in onMutate, return it, and setQueryData it back in onError.",
    ],
    check(recording) {
      const history = dataHistory(recording, ['todos']).filter((t) => t !== '(no data)');
      const mutations = mutationSummaries(recording);
      const failed = mutations.some((m) => m.status === 'error');
      const before = history[0];
      const after = history.at(-1);
      const details = [`the list took ${history.length} value(s)`, `mutations: ${mutations.map((m) => m.status).join(', ') || 'none'}`];
      if (!failed) return result(false, 'No mutation failed; keep the failing save.', details);
      if (history.length < 2) return result(false, 'The list never showed the new todo: keep the optimistic update.', details);
      return after === before
        ? result(true, `The list showed the new todo, then went back to what it was (${history.length} values in all).`, details)
        : result(
            false,
            `After the failure the list still differs from before (${history.length} values, the last not the first); goal: back as it was.`,
            details,
          );
    },
  },
  {
    id: 'client-prefetch',
    view: 'events',
    page: '/query/query-client/',
    title: 'Loaded before the click',
    goal: 'The reader hovers the link for 500 ms before clicking. Use that time so the profile screen mounts with the user already there.',
    hints: [
      'Open the Event timeline: when does the fetch start, and what does the observer find on mount?',
      'QueryClient can fill the cache ahead of time: query(options), with its errors swallowed by .catch(noop), as the deprecated prefetchQuery does.',
      'Call void client.query(user).catch(noop) (noop from roundtrip/query) where the hover begins.',
    ],
    check(recording) {
      const [first] = mounts(recording, ['user']);
      const fetchStart = queryEvents(recording, ['user']).find((e) => e.type === 'fetchStart');
      const details = [
        `the fetch started at ${fetchStart ? ms(fetchStart.at - (recording.sources.find((s) => s.kind === 'query')?.events[0]?.at ?? 0)) : 'no time'}`,
      ];
      if (!first) return result(false, 'The profile screen never mounted; keep the click.', details);
      return first.status === 'success'
        ? result(true, 'The screen mounted with the user already cached: no loading state.', details)
        : result(false, `The screen mounted with the query ${first.status} (1 loading state); goal: success on mount.`, details);
    },
  },
  {
    id: 'results-refetch-error',
    view: 'devtools',
    page: '/query/query-results/',
    title: 'Data and an error at once',
    goal: "End with a result that holds data and an error together (status 'error' with the last good data kept), changing only the server's answers.",
    hints: [
      'Which status and data does a failed first load leave, and which does a failed refetch leave?',
      'A failed refetch keeps the data it had and adds the error: isRefetchError.',
      "Make the first answer 'ok' and the second 'fail'.",
    ],
    check(recording) {
      const [summary] = querySummaries(recording, ['report']);
      const details = summary ? [`last: status ${summary.status}, data ${summary.data?.text ?? 'none'}, error ${summary.error?.text ?? 'none'}`] : [];
      if (!summary) return result(false, 'The report query never ran.', details);
      return summary.status === 'error' && summary.data !== null
        ? result(true, `The result holds data (${summary.data.text}) and an error together: a refetch error.`, details)
        : result(
            false,
            `After ${queryFetches(recording, ['report'])} fetches the result is status ${summary.status} with ${summary.data ? 'data' : 'no data'}; goal: status error with data kept.`,
            details,
          );
    },
  },
  {
    id: 'suspense-parallel',
    view: 'waterfall',
    page: '/query/suspense/',
    title: 'No waterfall behind the fallback',
    goal: 'The profile suspends on two queries, loaded one after the other. Make them load at the same time.',
    react: true,
    hints: [
      'Open the Waterfall: when does /posts start, compared with /user?',
      'A component that suspends stops rendering at that hook: the next useSuspenseQuery is not reached until the first has data.',
      'Ask for both in one hook: useSuspenseQueries({ queries: [user, posts] }).',
    ],
    check(recording) {
      const user = finishedRequests(recording, '/user')[0];
      const posts = finishedRequests(recording, '/posts')[0];
      const details = [user, posts].flatMap((r) => (r ? [`${r.path}: ${ms(r.startedAt)} to ${ms(r.endedAt)}`] : []));
      if (!user || !posts) return result(false, `${details.length} of the 2 requests (/user, /posts) finished; keep both.`, details);
      const overlap = Math.min(user.endedAt, posts.endedAt) - Math.max(user.startedAt, posts.startedAt);
      return overlap > 0
        ? result(true, `/user and /posts were in flight together (${ms(overlap)} overlap): one round of requests behind the fallback.`, details)
        : result(false, `/posts started ${ms(posts.startedAt - user.endedAt)} after /user ended: a waterfall; goal: both in flight at once.`, details);
    },
  },
  {
    id: 'migrate-keep-previous',
    view: 'events',
    page: '/query/migrating-from-v4/',
    title: "v4's keepPreviousData, in v5",
    goal: 'On a page change, keep showing page 1 (as placeholder data) until page 2 arrives, instead of a loading state, the v5 way.',
    hints: [
      'Read the console: what does the observer show between the click and page 2?',
      'v5 removed the keepPreviousData option (and isPreviousData); its job moved to an option whose value can be the keepPreviousData function v5 exports.',
      'Add placeholderData: keepPreviousData (imported from roundtrip/query).',
    ],
    check(_recording, console) {
      // Each printed result line: its status and whether it holds placeholder data (the snippet prints both).
      const shown = console.filter((line) => /status (pending|success|error)/.test(line));
      const firstSuccess = shown.findIndex((line) => line.includes('status success'));
      const after = firstSuccess < 0 ? [] : shown.slice(firstSuccess + 1);
      const pending = after.filter((line) => line.includes('status pending')).length;
      const placeholder = after.filter((line) => line.includes('isPlaceholderData true')).length;
      const details = [`${shown.length} results printed; after page 1: ${pending} pending, ${placeholder} with placeholder data`];
      if (shown.length === 0) return result(false, 'No result was printed; keep the console.log of each result.', details);
      if (firstSuccess < 0) return result(false, 'Page 1 never loaded.', details);
      return pending === 0 && placeholder > 0
        ? result(true, `Between the click and page 2, the observer showed page 1 as placeholder data (${placeholder} result(s)).`, details)
        : result(false, `After page 1, ${pending} result(s) went back to pending; goal: 0, page 1 shown as placeholder data.`, details);
    },
  },
];
