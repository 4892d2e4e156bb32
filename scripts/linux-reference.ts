/**
 * The simulator against the Linux kernel (issue #32): one 1 MiB download over a 100 ms RTT, 10 Mbit/s path
 * with a 125,000-byte drop-tail queue, lossless, at 1 % random loss (median over the seeds) and with one
 * segment dropped at application byte 200,000, for each congestion-control algorithm the simulator offers.
 * The Linux figures were measured with two network namespaces joined by that emulated path and curl fetching
 * the file over HTTP/1.1 (issue #32); the time counts from the start of the fetch to the last byte.
 *
 * Also: the 2 / 4 / 8 MiB lossless downloads over HTTP/2 and HTTP/3 at the default queue (one BDP), which
 * once differed by up to 35 % because one burst of drops cut TCP's window three times (issue #32 item 1).
 *
 * Run: npx tsx scripts/linux-reference.ts [--seeds 40]
 */
import { createServer, createSimulation, type SimulationOptions } from '../src/wire/index';

const args = process.argv.slice(2);
const seedsAt = args.indexOf('--seeds');
const SEEDS = seedsAt >= 0 ? Number(args[seedsAt + 1]) : 40;
const MiB = 1024 * 1024;

async function download(bytes: number, options: SimulationOptions): Promise<number> {
  const server = createServer({ resources: { '/big': { body: 'x'.repeat(bytes), contentType: 'application/octet-stream' } } });
  const sim = createSimulation({ rtt: 100, bandwidth: 10_000_000, server, ...options });
  const started = sim.clock.now();
  const body = await (await sim.fetch('/big')).arrayBuffer();
  if (body.byteLength !== bytes) throw new Error(`short body: ${body.byteLength}`);
  return sim.clock.now() - started;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const LINUX: Record<string, Partial<Record<'lossless' | 'one drop' | '1 % loss', number>>> = {
  newreno: { lossless: 1303, 'one drop': 1363, '1 % loss': 3118 },
  cubic: { '1 % loss': 1533 },
};

console.log(`1 MiB over HTTP/1.1 (no TLS), RTT 100 ms, 10 Mbit/s, 125,000-byte queue; 1 % loss: median of ${SEEDS} seeds`);
console.log('  algorithm  case       simulator   Linux');
for (const congestionControl of ['cubic', 'newreno'] as const) {
  const base: SimulationOptions = { httpVersion: '1.1', queue: { bytes: 125_000 }, congestionControl };
  const cases: [keyof (typeof LINUX)['cubic'], () => Promise<number>][] = [
    ['lossless', () => download(MiB, base)],
    ['one drop', () => download(MiB, { ...base, lossSchedule: { server: [200_000] } })],
    [
      '1 % loss',
      async () => {
        const times: number[] = [];
        for (let seed = 1; seed <= SEEDS; seed++) times.push(await download(MiB, { ...base, loss: 0.01, seed }));
        return median(times);
      },
    ],
  ];
  for (const [name, run] of cases) {
    const ms = await run();
    const linux = LINUX[congestionControl]?.[name];
    console.log(`  ${congestionControl.padEnd(10)} ${name.padEnd(10)} ${fmt(ms).padStart(9)}   ${linux === undefined ? '-' : fmt(linux)}`);
  }
}

console.log('\nLossless downloads, TLS 1.3, RTT 100 ms, 10 Mbit/s, default queue (one BDP)');
for (const congestionControl of ['cubic', 'newreno'] as const) {
  for (const size of [2, 4, 8]) {
    const h2 = await download(size * MiB, { httpVersion: '2', tls: '1.3', congestionControl });
    const h3 = await download(size * MiB, { httpVersion: '3', tls: '1.3', congestionControl });
    console.log(
      `  ${congestionControl.padEnd(8)} ${size} MiB: HTTP/2 ${fmt(h2)} ms, HTTP/3 ${fmt(h3)} ms (HTTP/2 ${((h2 / h3 - 1) * 100).toFixed(1)} % slower)`,
    );
  }
}
