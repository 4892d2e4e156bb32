import { createServer, createSimulation } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// The lesson QPACK exists for (RFC 9204 §2.1.2). A page loads /app and /api/status, then asks for three
// things at once: its basket (a header never sent before, so the encoder inserts it into the dynamic table)
// and the two earlier resources again (every field already in the table and acknowledged). The client's
// first packet of that batch is lost. Over HTTP/3 with the dynamic table that packet is the encoder-stream
// insert; without the table it is the basket's HEADERS; over HTTP/2 it is the TCP segment with that HEADERS.
const { maxBlockedStreams, tableCapacity, lose } = defineOptions({
  maxBlockedStreams: {
    type: 'select',
    choices: ['100', '0'],
    default: '100',
    label: 'SETTINGS_QPACK_BLOCKED_STREAMS',
    doc: 'Streams the decoder lets wait for the encoder stream (0: the encoder never references an unacknowledged entry)',
  },
  tableCapacity: {
    type: 'number',
    default: 4096,
    min: 0,
    max: 16384,
    step: 1024,
    integer: true,
    label: 'QPACK dynamic table, bytes',
    doc: 'SETTINGS_QPACK_MAX_TABLE_CAPACITY of the second run (0: no dynamic table)',
  },
  lose: { type: 'boolean', default: true, label: 'Lose the first packet of the batch', doc: 'Drop it once; it is retransmitted' },
});

const resources = {
  '/app': { body: 'x'.repeat(800), contentType: 'text/html' },
  '/api/status': { body: '{"ok":true}', contentType: 'application/json' },
  '/api/cart': { body: '{"items":3}', contentType: 'application/json' },
};
const origin = 'https://api.example';

type Run = { label: string; httpVersion: '2' | '3'; qpack?: { maxTableCapacity: number; maxBlockedStreams: number } };
const runs: Run[] = [
  { label: 'HTTP/2 (HPACK)', httpVersion: '2' },
  { label: `HTTP/3, table ${tableCapacity} B`, httpVersion: '3', qpack: { maxTableCapacity: tableCapacity, maxBlockedStreams: Number(maxBlockedStreams) } },
  { label: 'HTTP/3, no table', httpVersion: '3', qpack: { maxTableCapacity: 0, maxBlockedStreams: 0 } },
];

async function load(run: Run, lossAt: number | undefined, label: string) {
  const sim = createSimulation({
    label,
    httpVersion: run.httpVersion,
    tls: '1.3',
    rtt: 100,
    bandwidth: Infinity,
    ...(run.qpack ? { http3: { qpack: run.qpack } } : {}),
    ...(lossAt !== undefined ? { lossSchedule: { client: [lossAt] } } : {}),
    server: createServer({ resources }),
  });
  await sim.fetch(`${origin}/app`);
  await sim.fetch(`${origin}/api/status`);
  const batchAt = sim.clock.now();
  // Trace events from here on belong to the batch (some share its first instant with the last response).
  const mark = sim.trace.events.length;
  await Promise.all([
    sim.fetch(`${origin}/api/cart`, { headers: { 'x-basket': 'b-2291-7f3a' } }),
    sim.fetch(`${origin}/app`),
    sim.fetch(`${origin}/api/status`),
  ]);
  return { sim, batchAt, mark };
}

/** Where the batch starts in the client's application data: the offset a lossSchedule names (net/options.ts). */
function batchOffset(sim: Awaited<ReturnType<typeof load>>['sim'], mark: number): number {
  const events = sim.trace.events.slice(0, mark);
  if (events.some((e) => e.type === 'quic-packet-sent')) {
    // QUIC: every STREAM byte the client sent before the batch ('STREAM 4 @0+54 FIN': 54 bytes).
    let sent = 0;
    for (const e of events)
      if (e.type === 'quic-packet-sent' && e.from === 'client') for (const f of e.frames) sent += Number(/^STREAM \d+ @\d+\+(\d+)/.exec(f)?.[1] ?? 0);
    return sent;
  }
  // TCP: the client's writes before the batch, less its TLS handshake (written before it was established).
  const established = events.find((e) => e.type === 'tls-established' && e.side === 'client')!.seq;
  let app = 0;
  for (const e of events) if (e.type === 'bytes-sent' && e.from === 'client' && e.seq > established) app += e.data.length;
  return app;
}

for (const run of runs) {
  const clean = await load(run, undefined, `${run.label}, no loss`);
  const lossAt = lose ? batchOffset(clean.sim, clean.mark) : undefined;
  const { sim, batchAt, mark } = lose ? await load(run, lossAt, `${run.label}, one packet lost`) : clean;
  const batch = sim.trace.ofType('request-finished').filter((e) => e.startedAt >= batchAt);
  const done = batch.map((e) => `${new URL(e.request.url).pathname} ${Math.round(e.at - batchAt)} ms`).join(', ');
  const headers = batch.reduce((n, e) => n + e.request.headersSize, 0);
  const events = sim.trace.events.slice(mark);
  const qpackStreams = events.reduce((n, e) => n + (e.type === 'qpack-instructions' && e.from === 'client' ? e.length : 0), 0);
  const wire = events.reduce(
    (n, e) => n + ((e.type === 'quic-packet-sent' || e.type === 'segment-sent') && e.from === 'client' ? ('size' in e ? e.size : e.length) : 0),
    0,
  );
  const blocked = events
    .filter((e) => e.type === 'qpack-blocked')
    .map((e) => `stream ${e.streamId} (needs ${e.requiredInsertCount} inserts, has ${e.insertCount})`);
  console.log(
    `${run.label}: request field sections ${headers} B + encoder/decoder streams ${qpackStreams} B; client sent ${wire} B; last byte at ${Math.max(...batch.map((e) => Math.round(e.at - batchAt)))} ms`,
  );
  console.log(`  ${done}${blocked.length ? `; blocked: ${blocked.join(', ')}` : ''}`);
}
