/**
 * npm run bench:serve -- [--duration 3] [--clients 8] [--streams 10] [--rounds 5] [--path /hello --path /todos/1] [--paced-rps 2000]
 *
 * Our real-port server (the same serveTcp + h2c the `npm run serve` script starts) against a minimal
 * node:http server and a minimal node:http2 (h2c) server, measured side by side in one run with Debian's
 * h2load on loopback. Each Node server answers the same path with the same body and Content-Type that ours
 * sends, so only the servers differ. A third HTTP/1.1 peer, node:http + Fetch, is node:http calling a
 * Fetch-style handler as a plain adapter would (a Request with the request's fields, the handler's Response
 * read back with bytes()): what the mock server's route API (handlers take a Request, return a Response)
 * costs any server on Node that does not take the shortcuts ours does (buffered Responses). For each:
 * requests per second and the median (p50) request time from h2load's per-request log, then the ratios
 * ours / Node.
 *
 * Each server runs in a process of its own (scripts/bench-serve-peer.mjs), so none shares garbage
 * collection, compiled code or an event loop with another; ours is bundled first, as `npm run bench`
 * measures the project's libraries. One server is loaded at a time (the machine has
 * few cores); each gets a warm-up second, then `--duration` seconds of measurement, in `--rounds` rounds,
 * then the same again paced at `--paced-rps` requests per second in all, for CPU time per request at equal
 * load: about rounds x 10 x (duration + 1) seconds a path.
 * A round measures ours and Node back to back, so the two share whatever else loads the machine then; the
 * ratio reported is the median of the rounds' own ratios (a paired comparison), with each round's beside it.
 * The default paths are both kinds a reader's request meets: `/hello`, a stored resource (no route handler
 * runs), which compares the protocol stacks, and `/todos/1`, a routed JSON response (the handler gets a Fetch
 * Request and builds a Response), which adds the Fetch API's cost to ours and not to Node's minimal servers.
 * Each `--path` replaces the defaults. Needs `h2load` (apt-get install nghttp2-client). Loopback only.
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    clients: { type: 'string', default: '8' },
    streams: { type: 'string', default: '10' },
    path: { type: 'string', multiple: true, default: ['/hello', '/todos/1'] },
    rounds: { type: 'string', default: '5' },
    'paced-rps': { type: 'string', default: '2000' },
  },
});
const duration = Math.min(30, Math.max(1, Number(values.duration)));
const clients = Math.min(64, Math.max(1, Number(values.clients)));
const streams = Math.min(100, Math.max(1, Number(values.streams)));
const rounds = Math.min(9, Math.max(1, Number(values.rounds)));
const paths = values.path;
// The paced runs offer every server the same request rate, well below what any of them can serve, so CPU
// per request is compared at equal batching: flat out, a server starved of CPU by other work handles more
// requests per wake-up and looks cheaper per request than it is.
const pacedRps = Math.min(20_000, Math.max(100, Number(values['paced-rps'])));

/** Runs h2load against a URL; resolves with req/s, p50 and the count of non-2xx answers. */
function h2load(url, { h1, rps }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-serve-'));
  const log = join(dir, 'requests.log');
  // With --h1, -m is the pipelining depth; keep HTTP/1.1 unpipelined, as browsers and Node's clients are.
  const args = [
    ...(h1 ? ['--h1', '-m', '1'] : ['-m', String(streams)]),
    ...(rps ? [`--rps=${Math.max(1, Math.round(rps / clients))}`] : []),
    '-c',
    String(clients),
    '-t',
    '1',
    '-D',
    String(duration),
    '--warm-up-time',
    '1',
    `--log-file=${log}`,
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('h2load', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    // h2load stops itself after warm-up + duration; this only guards against a hung server.
    const guard = setTimeout(() => child.kill('SIGKILL'), (duration + 15) * 1000);
    child.on('error', (e) => reject(new Error(`h2load did not start (${e.message}); apt-get install nghttp2-client`)));
    child.on('close', () => {
      clearTimeout(guard);
      try {
        const rps = Number(/finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(out)?.[1]);
        const status = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(out);
        const durations = readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => Number(line.split('\t')[2]))
          .sort((a, b) => a - b);
        if (!Number.isFinite(rps) || durations.length === 0) throw new Error(`could not read h2load's output:\n${out}`);
        const at = (q) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] / 1000;
        resolve({ rps, p50: at(0.5), p99: at(0.99), non2xx: status ? Number(status[2]) + Number(status[3]) + Number(status[4]) : NaN });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** A server of `kind` in a process of its own (scripts/bench-serve-peer.mjs): its URL, CPU time and count. */
async function peer(kind) {
  const child = fork(fileURLToPath(new URL('./bench-serve-peer.mjs', import.meta.url)), [kind], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Every server on plain node: ours bundles itself first (bench-serve-peer.mjs).
    execArgv: [],
  });
  const waiting = new Map();
  let asked = 0;
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before it listened`)));
    child.on('message', (m) => {
      if (m.url) resolve(m.url);
      if (m.stats !== undefined) {
        waiting.get(m.stats)?.(m);
        waiting.delete(m.stats);
      }
    });
  });
  return {
    url,
    /** This server's CPU µs so far (user + system) and the requests it answered. */
    stats: () =>
      new Promise((resolve) => {
        const id = ++asked;
        waiting.set(id, resolve);
        child.send({ stats: id });
      }),
    answer: (body, type) => child.send({ answer: { body: body.toString('base64'), type } }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.disconnect();
      }),
  };
}

// Ours first: for each path, its answer (body and type) is what the Node servers send back.
const ours = await peer('ours');
const nodeHttp = await peer('node-http');
const nodeHttpFetch = await peer('node-http-fetch');
const nodeH2 = await peer('node-h2');
const peers = [ours, nodeHttp, nodeHttpFetch, nodeH2];

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
/** One path: every server measured side by side, the table printed; returns the ratio lines. */
async function benchPath(path) {
  const sample = await fetch(`${ours.url}${path}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const type = sample.headers.get('content-type') ?? 'application/octet-stream';
  for (const p of [nodeHttp, nodeHttpFetch, nodeH2]) p.answer(body, type);
  const targets = [
    { name: 'ours h2c', url: `${ours.url}${path}`, h1: false, server: ours },
    { name: 'node:http2 h2c', url: `${nodeH2.url}${path}`, h1: false, server: nodeH2 },
    { name: 'ours http/1.1', url: `${ours.url}${path}`, h1: true, server: ours },
    { name: 'node:http http/1.1', url: `${nodeHttp.url}${path}`, h1: true, server: nodeHttp },
    { name: 'node:http+Fetch 1.1', url: `${nodeHttpFetch.url}${path}`, h1: true, server: nodeHttpFetch },
  ];
  console.log(
    `GET ${path}: ${sample.status}, ${body.length} bytes of ${type}; ${clients} connections, HTTP/2 ${streams} streams each; ` +
      `${rounds} paired rounds of ${duration} s per server after 1 s warm-up; medians\n`,
  );

  // Each server has a process of its own and only one is loaded at a time. Rounds alternate the order. Each
  // round's ours / Node ratio compares two runs made seconds apart, under the same other load; the median
  // of those ratios is the figure, as a single lucky or unlucky run moves it least. CPU time per request is
  // the server process's user + system time over a run divided by the requests it answered in the run,
  // warm-up included (h2load is a process of its own).
  /** Per target name: one entry per round. */
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  /** One h2load run; returns its result and the server's CPU µs per request it answered. */
  const measure = async (t, rps) => {
    const before = await t.server.stats();
    const r = await h2load(t.url, { h1: t.h1, rps });
    const after = await t.server.stats();
    return { r, cpuUs: (after.cpuUs - before.cpuUs) / Math.max(1, after.served - before.served) };
  };
  for (let round = 0; round < rounds; round++) {
    for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
      const { r, cpuUs } = await measure(t);
      const paced = await measure(t, pacedRps);
      runs[t.name].push({ ...r, cpuUs, pacedUs: paced.cpuUs });
    }
  }
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const med = (name, key) => median(runs[name].map((r) => r[key]));
  const fmt = (n, d = 0) => n.toFixed(d).padStart(9);
  const paced = `CPU @${pacedRps}/s`;
  console.log(
    `${'server (median)'.padEnd(20)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU µs/req'.padStart(12)}${paced.padStart(16)}  non-2xx`,
  );
  for (const t of targets) {
    const nonOk = runs[t.name].reduce((n, r) => n + r.non2xx, 0);
    console.log(
      `${t.name.padEnd(20)}${fmt(med(t.name, 'rps'))}${fmt(med(t.name, 'p50'), 2)}${fmt(med(t.name, 'p99'), 2)}${fmt(med(t.name, 'cpuUs'), 1).padStart(12)}${fmt(med(t.name, 'pacedUs'), 1).padStart(16)}  ${nonOk}`,
    );
  }
  /** The median over rounds of ours / Node for `key`, and each round's ratio. */
  const paired = (a, b, key) => {
    const each = runs[a].map((r, i) => r[key] / runs[b][i][key]);
    return { median: median(each), each };
  };
  const ratio = (a, b) => {
    const rps = paired(a, b, 'rps');
    const x = (key) => `${paired(a, b, key).median.toFixed(2)}x`;
    return (
      `${rps.median.toFixed(2)}x req/s (rounds ${rps.each.map((v) => v.toFixed(2)).join(' ')}), p50 ${x('p50')}, ` +
      `CPU per request ${x('cpuUs')} flat out, ${x('pacedUs')} at ${pacedRps}/s`
    );
  };
  const lines = [
    `HTTP/2   ours / node:http2 on ${path}: ${ratio('ours h2c', 'node:http2 h2c')}`,
    `HTTP/1.1 ours / node:http on ${path}:  ${ratio('ours http/1.1', 'node:http http/1.1')}`,
    `HTTP/1.1 node:http+Fetch / node:http on ${path}:  ${ratio('node:http+Fetch 1.1', 'node:http http/1.1')}`,
  ];
  console.log(`\n${lines.join('\n')}\n`);
  return lines;
}

console.log(`load average (1, 5, 15 min) at start: ${load()}`);
const summary = [];
for (const path of paths) summary.push(...(await benchPath(path)));
for (const p of peers) await p.close();
console.log(summary.join('\n'));
console.log('Goal (medians of paired rounds): HTTP/1.1 >= 0.80x req/s on every path, p50 <= 2.00x.');
console.log(`load average (1, 5, 15 min) at end: ${load()}`);
