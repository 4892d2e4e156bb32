/**
 * Every challenge on the site, grouped by page in the order of the docs. Each one's starting snippet and
 * reference solution live in content/challenges/<id>.start.ts and <id>.solution.ts (.tsx for React), read
 * here as text at build time.
 */
import type { Challenge, CheckResult } from './types';
import {
  connectionsOpened,
  finishedRequests,
  framesSent,
  loadTime,
  ms,
  parsedMessages,
  queryEvents,
  queryFetches,
  retryDelays,
  wireEvents,
} from './recording-queries';

const files = import.meta.glob<string>('../../../content/challenges/*', { query: '?raw', import: 'default', eager: true });

function code(id: string, part: 'start' | 'solution'): string {
  const found = Object.entries(files).find(([path]) => path.endsWith(`/${id}.${part}.ts`) || path.endsWith(`/${id}.${part}.tsx`));
  if (!found) throw new Error(`challenge ${id}: content/challenges/${id}.${part}.ts is missing`);
  return found[1];
}

const result = (passed: boolean, message: string, details: readonly string[] = []): CheckResult => ({ passed, message, details });
const list = (values: readonly string[]) => (values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`);
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

type Definition = Omit<Challenge, 'starter' | 'solution'>;

const DEFINITIONS: readonly Definition[] = [
  // --- HTTP ----------------------------------------------------------------------------------------
  {
    id: 'http-seven-under-600',
    view: 'waterfall',
    page: '/http/connections/',
    title: 'Seven requests in under 600 ms',
    goal: 'Load all seven resources over HTTP/1.1 at 100 ms RTT in under 600 ms, without changing the server.',
    hints: [
      'Open the Waterfall view: how long does each request wait before it is sent, and why?',
      'One HTTP/1.1 connection carries one request at a time. Browsers open up to six per origin.',
      'Raise maxConnectionsPerOrigin and start the six subresources together (Promise.all) once the page has arrived.',
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const ok = requests.filter((r) => r.status === 200);
      const paths = new Set(ok.map((r) => r.path));
      const took = loadTime(ok);
      const waited = requests.filter((r) => r.blocked > 0).length;
      const details = [
        `${requests.length} requests finished over ${list([...new Set(requests.map((r) => r.httpVersion))])} on ${connectionsOpened(recording)} connection(s)`,
        ...(waited > 0 ? [`${waited} of ${requests.length} requests waited for a free connection`] : []),
      ];
      if (requests.some((r) => r.httpVersion !== 'HTTP/1.1')) return result(false, 'Every request must go over HTTP/1.1.', details);
      if (paths.size < 7) return result(false, `${paths.size} of the 7 resources loaded; goal: all 7 under 600 ms.`, details);
      return took < 600
        ? result(true, `All 7 resources loaded in ${ms(took)}; goal: under 600 ms.`, details)
        : result(false, `The page loaded in ${ms(took)}; goal: under 600 ms.`, details);
    },
  },
  {
    id: 'proxy-remove-hop',
    view: 'messages',
    page: '/http/proxies/',
    title: 'A header for the proxy only',
    goal: 'Make the proxy remove X-Session before it forwards the request, while X-Trace still reaches the origin.',
    hints: [
      'A proxy removes hop-by-hop fields: the fixed ones (Keep-Alive, TE, Upgrade...) and any the sender names.',
      'Where does a sender name the fields meant only for the next hop? (RFC 9110 §7.6.1)',
      "Add Connection: X-Session to the request's headers.",
    ],
    check(recording) {
      const requests = parsedMessages(recording, 'request');
      const has = (by: 'proxy' | 'server', name: string) =>
        requests.some((m) => m.by === by && m.headers.some((h) => h.name.toLowerCase() === name.toLowerCase()));
      const details = requests.map((m) => `${m.by} received ${m.startLine} with ${m.headers.map((h) => h.name).join(', ')}`);
      if (!requests.some((m) => m.by === 'proxy')) return result(false, 'No request went through the proxy.', details);
      if (!has('proxy', 'x-session')) return result(false, 'The proxy never received X-Session: send it from the client.', details);
      const origin = requests.find((m) => m.by === 'server');
      if (has('server', 'x-session'))
        return result(false, `The origin received ${origin?.headers.length ?? 0} fields, X-Session among them: the proxy forwarded it.`, details);
      if (!has('server', 'x-trace')) return result(false, 'X-Trace did not reach the origin: it is end-to-end and should.', details);
      return result(true, `The proxy removed X-Session; the origin received ${origin?.headers.length ?? 0} fields, X-Trace among them.`, details);
    },
  },
  {
    id: 'hpack-small-second',
    view: 'hpack',
    page: '/http/hpack/',
    title: 'A 10-byte header block',
    goal: "Make the second request's HPACK header block at most 10 bytes on the same HTTP/2 connection.",
    hints: [
      'Open the HPACK view and step through the second block: which fields are one byte, and which are literals?',
      "A field the dynamic table already holds costs one byte. A value that changes on every request can't be in it.",
      'Leave out the x-request-id that changes on every request: it is sent as a literal each time.',
    ],
    check(recording) {
      const blocks = framesSent(recording, { type: 'HEADERS', by: 'client' });
      if (blocks.length < 2) return result(false, `The client sent ${blocks.length} HEADERS frame(s); goal: two requests on one connection.`);
      const [first, second] = blocks;
      const details = blocks.map((f) => `stream ${f.streamId}: a ${f.length}-byte block`);
      if (first!.connectionId !== second!.connectionId)
        return result(false, 'The two requests went over different connections, with separate HPACK tables.', details);
      return second!.length <= 10
        ? result(true, `The second header block is ${second!.length} bytes (the first was ${first!.length}); goal: at most 10.`, details)
        : result(false, `The second header block is ${second!.length} bytes; goal: at most 10.`, details);
    },
  },
  // --- query ---------------------------------------------------------------------------------------
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
      'retry: 2 and retryDelay: (failures) => 200 * 2 ** failures.',
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
];

export const CHALLENGES: readonly Challenge[] = DEFINITIONS.map((d) => ({ ...d, starter: code(d.id, 'start'), solution: code(d.id, 'solution') }));

export function challengeById(id: string): Challenge | undefined {
  return CHALLENGES.find((c) => c.id === id);
}
