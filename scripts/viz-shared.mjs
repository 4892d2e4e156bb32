// @ts-check
/**
 * What scripts/viz-scrub.mjs and scripts/run-latency.mjs share: a Chromium from @playwright/test (the system one
 * when there is one), and share links that put a snippet into a docs page's playground.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const BASE = process.env.RT_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 4329}`;

export async function launch() {
  const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
  return chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * `#pg=<id>&s=<state>` for `code`, in the share format of src/playground/share/codec.ts (version 1: JSON,
 * deflate-raw, base64url). Written out here because scripts run as plain Node modules.
 * @param {string} id @param {string} code
 */
export async function shareHash(id, code) {
  const json = new TextEncoder().encode(JSON.stringify({ code }));
  const packed = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  return `#pg=${encodeURIComponent(id)}&s=1.${Buffer.from(packed).toString('base64url')}`;
}

/** @param {number[]} values @param {number} p 0-100 */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A docs page with a simulation playground, and a snippet for it that records well over 1,000 trace events. */
export const PAGE = '/http/overview/';
export const PLAYGROUND_ID = 'hello-wire';
export const BIG_TRACE_SNIPPET = `import { createServer, createSimulation, http } from 'roundtrip/wire';

// Thirty-two requests multiplexed over one HTTP/2 connection with 2% segment loss.
const server = createServer({ routes: [http.get('/item/:id', (_r, { params }) => Response.json({ id: params.id, pad: 'x'.repeat(6000) }))] });
const sim = createSimulation({ server, httpVersion: '2', tls: '1.3', rtt: 60, loss: 0.02, seed: 7 });
await Promise.all(Array.from({ length: 32 }, (_, i) => sim.fetch(\`/item/\${i}\`)));
console.log(\`\${sim.trace.events.length} trace events\`);
`;

/**
 * A query docs page's playground, and a snippet for it that records well over 1,000 query events: twenty
 * observed queries, invalidated four times, with failures that retry. Real timers (the sandbox does not fake
 * them), kept short so the run takes about a second.
 */
export const QUERY_PAGE = '/query/overview/';
export const QUERY_PLAYGROUND_ID = 'hello-query';
export const BIG_QUERY_SNIPPET = `import { QueryClient, QueryObserver } from 'roundtrip/query';

// Twenty queries observed at once, invalidated four times; every 13th fetch fails once and is retried.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const client = new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 5, staleTime: 50 } } });
let fetches = 0;
const observers = Array.from({ length: 20 }, (_, i) =>
  new QueryObserver(client, {
    queryKey: ['item', i],
    queryFn: async () => {
      fetches += 1;
      const n = fetches;
      await sleep(5 + (i % 7));
      if (n % 13 === 0) throw new Error(\`flaky fetch \${n}\`);
      return { id: i, fetch: n };
    },
  }),
);
const stops = observers.map((o) => o.subscribe(() => {}));
for (let round = 0; round < 4; round++) {
  await sleep(60);
  await client.invalidateQueries({ queryKey: ['item'] });
}
await sleep(60);
stops.forEach((stop) => stop());
console.log(\`\${fetches} fetches\`);
`;
