/**
 * Side-by-side transport numbers from the simulator (issue #23, "Fair transport models"):
 *
 * 1. One 1 MiB download over HTTP/1.1, HTTP/2 and HTTP/3 (TLS 1.3, RTT 100 ms, 10 Mbit/s) at 0 % and 1 % loss,
 *    and with a loss schedule that loses the same two runs of application bytes in every stack.
 * 2. The same download over HTTP/2 and HTTP/3 at 1 % loss over the seeds: median, mean, wins.
 * 3. The six small responses of content/snippets/http3-vs-http2-loss.ts at its defaults.
 * 4. A page load (the HTML document, then eight subresources at once, as in content/snippets/
 *    http-compare-page-load.ts) over HTTP/2 and HTTP/3, over 40 seeds at 1 % and 10 % loss: median, mean,
 *    min and max of the time the last response finished, and how often each version was faster.
 * 5. Comparisons that exercise recovery rather than the handshake (issue #32 item 12): the 1 MiB download
 *    and a heavy page (the HTML document, then eight 100 KB subresources at once: about 600 packets, where a
 *    loss on HTTP/2's one TCP connection holds every stream and on HTTP/3 only its own) at 2 % and 5 %
 *    independent loss and at 2 % in Gilbert-Elliott bursts of 3 packets on average.
 *
 * Run: npx tsx scripts/transport-compare.ts [--seeds 40] [--only 5]
 *
 * The comparisons of sections 2, 4 and 5 are exported (COMPARISONS, versus), so that
 * transport-compare.test.ts runs the same simulations and checks the figures content/docs/http/connections.mdx
 * quotes from them.
 */
import { pathToFileURL } from 'node:url';
import { createServer, createSimulation, type SimulationOptions } from '../src/wire/index';

const MiB = 1024 * 1024;

export async function download(
  httpVersion: SimulationOptions['httpVersion'],
  loss: number,
  seed: number,
  extra: Partial<SimulationOptions> = {},
): Promise<{ ms: number; windowUpdates: number }> {
  const server = createServer({ resources: { '/big': { body: 'x'.repeat(MiB), contentType: 'application/octet-stream' } } });
  const sim = createSimulation({ httpVersion, tls: '1.3', rtt: 100, bandwidth: 10_000_000, loss, seed, server, ...extra });
  const started = sim.clock.now();
  const body = await (await sim.fetch('/big')).arrayBuffer();
  if (body.byteLength !== MiB) throw new Error(`short body: ${body.byteLength}`);
  const windowUpdates = sim.trace.events.filter((e) => e.type === 'h2-frame' && e.frameType === 'WINDOW_UPDATE' && e.direction === 'sent').length;
  return { ms: sim.clock.now() - started, windowUpdates };
}

const kinds = ['style.css', 'app.js', 'logo.svg', 'photo.jpg'];
const paths = Array.from({ length: 8 }, (_, i) => `/assets/${i + 1}-${kinds[i % kinds.length]}`);
const resources = Object.fromEntries([
  ['/index.html', { body: `<!doctype html>${'<p>Hello</p>'.repeat(500)}`, contentType: 'text/html' }],
  ...paths.map((path, i) => [path, { body: 'x'.repeat(2_000 + 1_500 * (i % 4)), contentType: 'application/octet-stream' }]),
]);

export async function pageLoad(httpVersion: '2' | '3', loss: number, seed: number, extra: Partial<SimulationOptions> = {}, files = resources): Promise<number> {
  const sim = createSimulation({ httpVersion, tls: '1.3', rtt: 100, loss, seed, server: createServer({ resources: files }), ...extra });
  await (await sim.fetch('/index.html')).text();
  await Promise.all(paths.map(async (path) => (await sim.fetch(path)).text()));
  return sim.clock.now();
}

/** The heavy page: the same HTML document, then eight subresources of 100 KB each. */
const heavyResources = Object.fromEntries([
  ['/index.html', resources['/index.html']!],
  ...paths.map((path) => [path, { body: 'y'.repeat(100_000), contentType: 'application/octet-stream' }]),
]);

export const stats = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { median, mean, min: sorted[0]!, max: sorted[sorted.length - 1]! };
};
/** A figure as the script prints it and the pages quote it: whole milliseconds, thousands separated. */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** One version's side of a comparison over the seeds; `wins` counts the seeds where it finished first. */
export interface VersusRow {
  readonly median: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly wins: number;
}

/** One run of a comparison: the time, in virtual ms, of one seed over one version. */
export type VersusRun = (httpVersion: '2' | '3', seed: number) => Promise<number>;

/** HTTP/2 against HTTP/3 over seeds 1 to `seeds`: each version's median, mean, min, max and wins. */
export async function versus(run: VersusRun, seeds: number): Promise<{ readonly http2: VersusRow; readonly http3: VersusRow }> {
  const h2: number[] = [];
  const h3: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    h2.push(await run('2', seed));
    h3.push(await run('3', seed));
  }
  return {
    http2: { ...stats(h2), wins: h2.filter((t, i) => t < h3[i]!).length },
    http3: { ...stats(h3), wins: h3.filter((t, i) => t < h2[i]!).length },
  };
}

const bursty = { lossModel: { kind: 'gilbert-elliott', burst: 3 } } as const;
/** Section 5's loss conditions: its label, the loss rate, and what else the simulation is given. */
const RECOVERY_CONDITIONS = [
  ['2 %', 0.02, {}],
  ['5 %', 0.05, {}],
  ['2 %, bursts of 3', 0.02, bursty],
] as const;

/**
 * The comparisons of sections 2, 4 and 5, by name: the 1 MiB download (TLS 1.3, RTT 100 ms, 10 Mbit/s), the
 * small page (the HTML and eight files of 2 to 6.5 KB) and the heavy page (the HTML and eight of 100 KB).
 */
export const COMPARISONS: Readonly<Record<string, VersusRun>> = {
  'download, 1 %': async (v, seed) => (await download(v, 0.01, seed)).ms,
  'small page, 1 %': (v, seed) => pageLoad(v, 0.01, seed),
  'small page, 10 %': (v, seed) => pageLoad(v, 0.1, seed),
  ...Object.fromEntries(
    RECOVERY_CONDITIONS.map(([label, loss, extra]) => [`download, ${label}`, async (v: '2' | '3', seed: number) => (await download(v, loss, seed, extra)).ms]),
  ),
  'heavy page, 0 %': (v, seed) => pageLoad(v, 0, seed, {}, heavyResources),
  ...Object.fromEntries(
    RECOVERY_CONDITIONS.map(([label, loss, extra]) => [`heavy page, ${label}`, (v: '2' | '3', seed: number) => pageLoad(v, loss, seed, extra, heavyResources)]),
  ),
};

/** A table row of sections 4 and 5, as printed. */
function row(label: string, name: string, r: VersusRow, seeds: number, width: number): string {
  return `  ${label.padEnd(width)} ${name.padEnd(8)} ${fmt(r.median).padStart(6)} ${fmt(r.mean).padStart(7)} ${fmt(r.min).padStart(7)} ${fmt(r.max).padStart(7)}   ${r.wins}/${seeds} seeds`;
}

async function main(args: readonly string[]): Promise<void> {
  const seedsAt = args.indexOf('--seeds');
  const SEEDS = seedsAt >= 0 ? Number(args[seedsAt + 1]) : 40;
  const onlyAt = args.indexOf('--only');
  const ONLY = onlyAt >= 0 ? Number(args[onlyAt + 1]) : undefined;
  const section = (n: number) => ONLY === undefined || ONLY === n;
  const compare = (name: string) => versus(COMPARISONS[name]!, SEEDS);

  if (section(1)) {
    console.log('1 MiB download, TLS 1.3, RTT 100 ms, 10 Mbit/s (seed 1)');
    for (const loss of [0, 0.01]) {
      for (const v of ['1.1', '2', '3'] as const) {
        const { ms, windowUpdates } = await download(v, loss, 1);
        console.log(`  HTTP/${v.padEnd(3)} loss ${String(loss).padEnd(4)}: ${fmt(ms)} ms${v === '2' ? ` (${windowUpdates} WINDOW_UPDATE frames)` : ''}`);
      }
    }

    const schedule = { server: [100_000, 600_000] };
    for (const v of ['1.1', '2', '3'] as const) {
      const { ms } = await download(v, 0, 1, { lossSchedule: schedule });
      console.log(`  HTTP/${v.padEnd(3)} lossSchedule ${JSON.stringify(schedule)}: ${fmt(ms)} ms`);
    }
  }

  if (section(2)) {
    console.log(`\n1 MiB download at 1 % loss, ${SEEDS} seeds`);
    const { http2, http3 } = await compare('download, 1 %');
    for (const [name, r] of [
      ['HTTP/2', http2],
      ['HTTP/3', http3],
    ] as const) {
      console.log(`  ${name}: median ${fmt(r.median)}, mean ${fmt(r.mean)}, faster in ${r.wins}/${SEEDS} seeds`);
    }
  }

  if (section(3)) {
    console.log('\nSix 1,500-byte responses (content/snippets/http3-vs-http2-loss.ts: RTT 100 ms, no bandwidth limit, seed 2)');
    for (const httpVersion of ['2', '3'] as const) {
      for (const loss of [0, 0.1]) {
        const parts = [1, 2, 3, 4, 5, 6];
        const server = createServer({ resources: Object.fromEntries(parts.map((n) => [`/part/${n}`, { body: 'x'.repeat(1500), contentType: 'text/plain' }])) });
        const sim = createSimulation({ httpVersion, tls: '1.3', rtt: 100, bandwidth: Infinity, loss, seed: 2, server });
        await Promise.all(parts.map((n) => sim.fetch(`https://api.example/part/${n}`)));
        const done = sim.trace.ofType('request-finished');
        console.log(`  HTTP/${httpVersion}, loss ${loss}: finished at ${done.map((e) => e.at).join(', ')} ms`);
      }
    }
  }

  if (section(4)) {
    console.log(`\nPage load (HTML + 8 subresources), TLS 1.3, RTT 100 ms, 10 Mbit/s, ${SEEDS} seeds`);
    console.log('  loss   version  median    mean     min     max   faster in');
    for (const loss of ['1', '10']) {
      const { http2, http3 } = await compare(`small page, ${loss} %`);
      console.log(row(`${loss}%`, 'HTTP/2', http2, SEEDS, 6));
      console.log(row(`${loss}%`, 'HTTP/3', http3, SEEDS, 6));
    }
  }

  if (section(5)) {
    const header = '  loss                   version  median    mean     min     max   faster in';
    console.log(`\nRecovery: 1 MiB download, TLS 1.3, RTT 100 ms, 10 Mbit/s, ${SEEDS} seeds`);
    console.log(header);
    for (const [label] of RECOVERY_CONDITIONS) {
      const { http2, http3 } = await compare(`download, ${label}`);
      console.log(row(label, 'HTTP/2', http2, SEEDS, 22));
      console.log(row(label, 'HTTP/3', http3, SEEDS, 22));
    }
    console.log(`\nHead-of-line blocking: HTML + 8 x 100 KB at once, TLS 1.3, RTT 100 ms, 10 Mbit/s, ${SEEDS} seeds`);
    console.log(header);
    for (const label of ['0 %', ...RECOVERY_CONDITIONS.map(([l]) => l)]) {
      const { http2, http3 } = await compare(`heavy page, ${label}`);
      console.log(row(label, 'HTTP/2', http2, SEEDS, 22));
      console.log(row(label, 'HTTP/3', http3, SEEDS, 22));
    }
  }
}

// Run as a script (npx tsx scripts/transport-compare.ts), not when a test imports the comparisons.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
