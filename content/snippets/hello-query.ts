import { QUERY_VERSION, QueryClient, QueryObserver, type QueryObserverResult } from 'roundtrip/query';
import { createServer, createSimulation, http } from 'roundtrip/wire';

// One query from its first state to its last. The queryFn calls the simulated network, so each request
// appears in the Sequence view while the query's states move along the Event timeline.
let visits = 0;
const server = createServer({ routes: [http.get('/greeting', () => Response.json({ hello: 'query', visits: ++visits }), { latency: 200 })] });
const sim = createSimulation({ server });

const client = new QueryClient();
client.mount();
const observer = new QueryObserver(client, {
  queryKey: ['greeting'],
  queryFn: async ({ signal }) => (await sim.fetch('/greeting', { signal })).json(),
});

// `status` says whether there is data, `fetchStatus` whether a request is running: they move separately.
const stop = observer.subscribe(({ status, fetchStatus, data }) => console.log(status.padEnd(7), fetchStatus.padEnd(8), JSON.stringify(data)));
const until = (done: (r: QueryObserverResult) => boolean) =>
  new Promise<void>((resolve) => {
    const off = observer.subscribe((r) => done(r) && (off(), resolve()));
  });

await until((r) => r.status === 'success' && r.fetchStatus === 'idle'); // pending -> fetching -> success
await new Promise((resolve) => setTimeout(resolve, 1000));
await client.invalidateQueries({ queryKey: ['greeting'] }); // stale now: refetched, the old data stays on screen meanwhile

stop();
client.unmount();
console.log(`roundtrip/query ${QUERY_VERSION}: ${sim.trace.ofType('request-started').length} requests`);
