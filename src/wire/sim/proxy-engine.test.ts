/**
 * Issue #29 item 4: the forward proxy and the CONNECT tunnel read HTTP/1 through the engine's connection
 * (Http1Connection), as the simulated server and client do. For a sample of the malformed messages the engine
 * rejects (the corpus of one case per error code and the differential cases against llhttp), the proxy refuses
 * a request with the same code, offset and status as the server, and its connection engine fires the same
 * state-table rows and ends in the same state; the tunnel and the proxy's origin hop do the same with answers.
 */
import { describe, expect, it } from 'vitest';
import { Http1Connection, http1EndOfMessage, http1Request, type Http1FiredTransition } from '../http1/index';
import { INVALID_CASES, latin1Encode } from '../http1/corpus';
import { DIFF_CASES } from '../http1/differential-cases';
import { http } from '../server/router';
import { createServer } from '../server/server';
import type { TraceEventOf } from '../trace/events';
import { http1Codec } from './http1/codec';
import { connectRawHttp1 } from './http1/raw-client';
import { ConnectTunnel } from './proxy-tunnel';
import { createSimulation } from './simulation';

const PROXY = 'proxy.example:3128';
type Sim = ReturnType<typeof createSimulation>;

/** A transition as the simulation traces it (sim/http1/observer.ts): 'role:STATE', the row's id. */
const traced = (f: Http1FiredTransition) => ({
  from: `${f.role}:${f.from}`,
  input: f.kind === 'event' ? f.row.id : f.kind === 'settle' ? f.rule.id : `error: ${f.code}`,
  to: `${f.role}:${f.to}`,
});

interface Verdict {
  readonly code: string;
  readonly offset: number | undefined;
  readonly status: number | undefined;
  readonly rows: ReturnType<typeof traced>[];
  readonly states: Record<'client' | 'server', string>;
}

/**
 * What a fresh Http1Connection makes of `input` fed whole: its error, the rows it fired and where it ends, or
 * undefined when it does not refuse the first message before the end of input (those are not sampled).
 */
function engineVerdict(role: 'server' | 'client', input: string, method = 'GET'): Verdict | undefined {
  const engine = new Http1Connection({ role });
  if (role === 'client') {
    engine.send(
      http1Request({ method, target: method === 'CONNECT' ? 'api.example:443' : '/', version: '1.1', headers: [{ name: 'Host', value: 'api.example' }] }),
    );
    engine.send(http1EndOfMessage());
    engine.takeTransitions();
  }
  engine.receiveData(latin1Encode(input));
  for (let i = 0; i < 10_000; i++) {
    const step = engine.nextEvent();
    if (step.type === 'error') {
      const { code, offset, statusHint } = step.error;
      return { code, offset, status: statusHint, rows: engine.takeTransitions().map(traced), states: { ...engine.states } };
    }
    if (step.type === 'end-of-message' || step.type === 'need-data' || step.type === 'paused') return undefined;
  }
  return undefined;
}

/** Up to `per` cases for each error code, so every code the sample can reach is covered and the run stays short. */
function sample(cases: readonly { name: string; input: string }[], role: 'server' | 'client', per: number, method?: string) {
  const seen = new Map<string, number>();
  const out: { name: string; input: string; verdict: Verdict }[] = [];
  for (const c of cases) {
    const verdict = engineVerdict(role, c.input, method);
    if (!verdict) continue;
    const n = seen.get(verdict.code) ?? 0;
    if (n >= per) continue;
    seen.set(verdict.code, n + 1);
    out.push({ name: c.name, input: c.input, verdict });
  }
  return out;
}

const requestCases = sample(
  [...INVALID_CASES.filter((c) => (c.role ?? 'server') === 'server' && !c.opts), ...DIFF_CASES.filter((c) => c.role === 'server')],
  'server',
  2,
);
const responseCases = [...INVALID_CASES.filter((c) => c.role === 'client' && !c.opts), ...DIFF_CASES.filter((c) => c.role === 'client')];

const errorsOf = (sim: Sim) => sim.trace.ofType('protocol-error');
const rowsOf = (sim: Sim, machine: string, connectionId: string) =>
  sim.trace
    .ofType('transition')
    .filter((e: TraceEventOf<'transition'>) => e.machine === machine && e.connectionId === connectionId)
    .map(({ from, input, to }) => ({ from, input, to }));

/** Sends `input` to `address` and returns what was traced about it. */
async function refusal(proxy: boolean, input: string) {
  let handled = 0;
  const server = createServer({ routes: [http.get('/', () => (handled++, new Response('hi')))] });
  const sim = createSimulation({ server, ...(proxy ? { proxy: {} } : {}) });
  const client = connectRawHttp1(sim, proxy ? PROXY : 'api.example:80');
  client.send(latin1Encode(input));
  await sim.advance(1000);
  const errors = errorsOf(sim);
  const connectionId = errors[0]?.connectionId ?? '';
  return { errors, rows: rowsOf(sim, 'http1-server', connectionId), received: client.received, closed: client.closed, handled, sim };
}

describe('the proxy refuses what the server refuses, through the same engine', () => {
  it('samples every error code the request corpus reaches', () => {
    // One bad request per error code in the corpus: the sample must not shrink to a few codes unnoticed.
    expect(new Set(requestCases.map((c) => c.verdict.code)).size).toBeGreaterThanOrEqual(25);
  });

  it.each(requestCases.map((c) => [c.name, c] as const))('%s', async (_, { input, verdict }) => {
    const direct = await refusal(false, input);
    const proxied = await refusal(true, input);
    const status = verdict.status ?? 400;
    expect(direct.errors).toEqual([expect.objectContaining({ by: 'server', code: verdict.code, offset: verdict.offset ?? null, status })]);
    expect(proxied.errors).toEqual([expect.objectContaining({ by: 'proxy', code: verdict.code, offset: verdict.offset ?? null, status })]);
    // The same rows of the table, ending in the same states, on the server's connection and on the proxy's.
    expect(proxied.rows).toEqual(direct.rows);
    expect(proxied.rows).toEqual(verdict.rows);
    expect(proxied.rows.at(-1)?.to).toBe('client:ERROR');
    // Both answer with the engine's status and close; the proxy forwards nothing.
    expect(proxied.received.slice(0, 12)).toBe(`HTTP/1.1 ${status}`);
    expect(proxied.received).toBe(direct.received.replace(/^Date: .*\r\nServer: .*\r\n/m, ''));
    expect(proxied.closed).toBeDefined();
    expect(proxied.sim.trace.ofType('proxy-forwarded')).toEqual([]);
    expect(proxied.handled + direct.handled).toBe(0);
  });

  it('a request it accepts goes through the proxy with both hops read by the engine, which end where the server’s does', async () => {
    const server = createServer({ routes: [http.get('/hello', () => new Response('hi'))] });
    const sim = createSimulation({ server, proxy: {} });
    const client = connectRawHttp1(sim, PROXY);
    client.send('GET http://api.example/hello HTTP/1.1\r\nHost: api.example\r\n\r\nGET http://api.example/hello HTTP/1.1\r\nHost: api.example\r\n\r\n');
    await sim.advance(1000);
    expect(client.received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    const [upstream] = sim.trace.ofType('proxy-forwarded');
    const clientSide = rowsOf(sim, 'http1-server', upstream!.connectionId);
    // Two requests in one write: the engine holds the second until the first is answered (paused), then reads it.
    expect(clientSide.filter((r) => r.input === 'client:IDLE:request').map((r) => r.from)).toEqual(['client:IDLE', 'client:IDLE']);
    expect(clientSide.filter((r) => r.input === 'server:SEND_RESPONSE:response')).toHaveLength(2);
    expect(clientSide.at(-1)?.to).toMatch(/^(client|server):IDLE$/);
    const upstreamRows = rowsOf(sim, 'http1-client', upstream!.upstreamConnectionId);
    expect(upstreamRows.filter((r) => r.input === 'client:IDLE:request')).toHaveLength(2);
    expect(upstreamRows.filter((r) => r.input === 'server:SEND_RESPONSE:response')).toHaveLength(2);
  });
});

describe('answers the engine rejects: the tunnel and the proxy’s origin hop', () => {
  const tunnelCases = sample(responseCases, 'client', 1, 'CONNECT');

  it.each(tunnelCases.map((c) => [c.name, c] as const))('CONNECT answered with %s: the tunnel refuses it as the engine does', async (_, { input, verdict }) => {
    const sim = createSimulation({ server: createServer({}), tls: '1.3' });
    sim.network.listen(PROXY, 'server', (socket) => {
      socket.onData(() => socket.write(latin1Encode(input)));
    });
    const ctx = { clock: sim.clock, trace: sim.trace, nextId: (prefix: string) => `${prefix}-test` };
    const inner = sim.connect(PROXY);
    const tunnel = new ConnectTunnel(inner, 'api.example:443', http1Codec, ctx);
    let opened = false;
    let closed = false;
    tunnel.onOpen(() => (opened = true));
    tunnel.onClose(() => (closed = true));
    await sim.advance(1000);
    expect(errorsOf(sim)).toEqual([expect.objectContaining({ by: 'client', code: verdict.code, offset: verdict.offset ?? null, status: null })]);
    // The engine's rows after the CONNECT went out: the same as a lone Http1Connection fed the same answer.
    const rows = rowsOf(sim, 'http1-client', inner.connectionId);
    expect(rows.slice(rows.length - verdict.rows.length)).toEqual(verdict.rows);
    expect(rows.at(-1)?.to).toBe('server:ERROR');
    expect(opened).toBe(false);
    expect(closed).toBe(true);
  });

  it('a 2xx switches both sides to SWITCHED_PROTOCOL, and bytes after the answer are the tunnel’s', async () => {
    const sim = createSimulation({ server: createServer({}) });
    sim.network.listen(PROXY, 'server', (socket) => {
      socket.onData(() => socket.write(latin1Encode('HTTP/1.1 200 Connection Established\r\n\r\nfirst tunnel bytes')));
    });
    const ctx = { clock: sim.clock, trace: sim.trace, nextId: (prefix: string) => `${prefix}-test` };
    const inner = sim.connect(PROXY);
    const tunnel = new ConnectTunnel(inner, 'api.example:443', http1Codec, ctx);
    const data: string[] = [];
    tunnel.onData((bytes) => data.push(new TextDecoder().decode(bytes)));
    await sim.advance(1000);
    expect(tunnel.state).toBe('open');
    expect(data.join('')).toBe('first tunnel bytes');
    const rows = rowsOf(sim, 'http1-client', inner.connectionId);
    expect(rows.at(-1)?.to).toBe('client:SWITCHED_PROTOCOL');
    expect(rows.some((r) => r.to === 'server:SWITCHED_PROTOCOL')).toBe(true);
  });

  const originCases = sample(responseCases, 'client', 1);

  it.each(originCases.map((c) => [c.name, c] as const))(
    'an origin answering %s: the proxy answers the engine’s status and its origin hop ends as the engine does',
    async (_, { input, verdict }) => {
      const sim = createSimulation({ server: createServer({}), proxy: {} });
      sim.network.listen('bad.example:80', 'server', (socket) => {
        socket.onData(() => socket.write(latin1Encode(input)));
      });
      const client = connectRawHttp1(sim, PROXY);
      client.send('GET http://bad.example/ HTTP/1.1\r\nHost: bad.example\r\n\r\n');
      await sim.advance(1000);
      const status = verdict.status ?? 400;
      expect(errorsOf(sim)).toEqual([expect.objectContaining({ by: 'proxy', code: verdict.code, offset: verdict.offset ?? null, status })]);
      expect(client.received.slice(0, 12)).toBe(`HTTP/1.1 ${status}`);
      const [forwarded] = sim.trace.ofType('proxy-forwarded');
      const rows = rowsOf(sim, 'http1-client', forwarded!.upstreamConnectionId);
      expect(rows.slice(rows.length - verdict.rows.length)).toEqual(verdict.rows);
      expect(rows.at(-1)?.to).toBe('server:ERROR');
      // The client's hop was sound: the engine saw the refusal go out, as a server's response that closes.
      expect(rowsOf(sim, 'http1-server', errorsOf(sim)[0]!.connectionId).some((r) => r.input === 'server:SEND_RESPONSE:response')).toBe(true);
      expect(client.closed).toBeDefined();
    },
  );
});
