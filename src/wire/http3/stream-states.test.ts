import { describe, expect, it } from 'vitest';
import { WireError } from '../errors';
import { createSimulation } from '../sim/index';
import { createServer, http } from '../server/index';
import {
  QUIC_RECV_INPUTS,
  QUIC_RECV_STATES,
  QUIC_RECV_TRANSITIONS,
  QUIC_SEND_INPUTS,
  QUIC_SEND_STATES,
  QUIC_SEND_TRANSITIONS,
  quicRecvTransition,
  quicSendTransition,
} from './stream-states';
import { ReceiveStream, SendStream } from './streams';

// The arrows of RFC 9000 Figure 2 (sending part) and Figure 3 (receiving part), written out again by hand
// so the tables are checked against the RFC rather than against themselves. The receiving part's optional
// "Reset Recvd -> Data Recvd" is deliberately left out (see the header of stream-states.ts).
const RFC_SEND_ARROWS = new Set([
  'Ready|send STREAM|Send',
  'Ready|send RESET_STREAM|Reset Sent',
  'Send|send FIN|Data Sent',
  'Send|send RESET_STREAM|Reset Sent',
  'Data Sent|recv all ACKs|Data Recvd',
  'Data Sent|send RESET_STREAM|Reset Sent',
  'Reset Sent|recv ACK of RESET_STREAM|Reset Recvd',
]);
const RFC_RECV_ARROWS = new Set([
  'Recv|recv FIN|Size Known',
  'Recv|recv RESET_STREAM|Reset Recvd',
  'Size Known|recv all data|Data Recvd',
  'Size Known|recv RESET_STREAM|Reset Recvd',
  'Data Recvd|app read data|Data Read',
  'Data Recvd|recv RESET_STREAM|Reset Recvd',
  'Reset Recvd|app read reset|Reset Read',
]);

function checkTable(
  name: string,
  states: readonly string[],
  inputs: readonly string[],
  rows: readonly (readonly [string, string, string])[],
  arrows: ReadonlySet<string>,
  run: (state: string, input: string) => string,
): void {
  describe(name, () => {
    const byPair = new Map(rows.map(([from, input, to]) => [`${from}|${input}`, to]));

    it('has one row per (state, input) pair at most', () => {
      expect(byPair.size).toBe(rows.length);
    });

    it('holds every arrow of the RFC figure, and otherwise only self-loops', () => {
      for (const arrow of arrows) expect(rows.map((r) => r.join('|'))).toContain(arrow);
      for (const [from, input, to] of rows) if (from !== to) expect(arrows).toContain(`${from}|${input}|${to}`);
    });

    it('every (state, input) pair lands in the next state of its row, or raises a local error', () => {
      let accepted = 0;
      let refused = 0;
      for (const state of states) {
        for (const input of inputs) {
          const next = byPair.get(`${state}|${input}`);
          if (next !== undefined) {
            expect(run(state, input)).toBe(next);
            accepted++;
            continue;
          }
          let error: unknown;
          try {
            run(state, input);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(WireError);
          expect((error as WireError).code).toBe('quic-stream-state');
          expect((error as WireError).side).toBe('local');
          expect((error as WireError).message).toContain(`"${input}" in state "${state}"`);
          refused++;
        }
      }
      expect(accepted).toBe(rows.length);
      expect(accepted + refused).toBe(states.length * inputs.length);
    });

    it('reaches every state from the first one', () => {
      const seen = new Set([states[0]!]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [from, , to] of rows) if (seen.has(from) && !seen.has(to)) grew = Boolean(seen.add(to));
      }
      expect([...seen].sort()).toEqual([...states].sort());
    });
  });
}

checkTable('QUIC sending part (RFC 9000 §3.1)', QUIC_SEND_STATES, QUIC_SEND_INPUTS, QUIC_SEND_TRANSITIONS, RFC_SEND_ARROWS, (s, i) =>
  quicSendTransition(s as (typeof QUIC_SEND_STATES)[number], i as (typeof QUIC_SEND_INPUTS)[number]),
);
checkTable('QUIC receiving part (RFC 9000 §3.2)', QUIC_RECV_STATES, QUIC_RECV_INPUTS, QUIC_RECV_TRANSITIONS, RFC_RECV_ARROWS, (s, i) =>
  quicRecvTransition(s as (typeof QUIC_RECV_STATES)[number], i as (typeof QUIC_RECV_INPUTS)[number]),
);

describe('stream parts run on the tables (streams.ts)', () => {
  it('a sending part reports each change, and a STREAM frame with FIN is two steps', () => {
    const log: string[] = [];
    const stream = new SendStream(4, (t) => log.push(`${t.from} -${t.input}-> ${t.to}`));
    stream.write(new Uint8Array(10), true);
    expect(stream.take(4)?.fin).toBe(false);
    expect(stream.take(100)?.fin).toBe(true);
    expect(stream.finSent).toBe(true);
    stream.allAcked();
    expect(log).toEqual(['Ready -send STREAM-> Send', 'Send -send FIN-> Data Sent', 'Data Sent -recv all ACKs-> Data Recvd']);
    // "Data Recvd" is terminal: acknowledging again is not in the table.
    expect(() => stream.allAcked()).toThrow(/stream 4: the sending part cannot take "recv all ACKs" in state "Data Recvd"/);
  });

  it('a receiving part reads at once, unless STOP_SENDING was sent: then it stays in "Data Recvd"', () => {
    const read = new ReceiveStream(0);
    expect(read.receive({ streamId: 0, offset: 0, data: new Uint8Array(3), fin: true }).fin).toBe(true);
    expect([read.state, read.complete]).toEqual(['Data Read', true]);

    const stopped = new ReceiveStream(0);
    stopped.receive({ streamId: 0, offset: 0, data: new Uint8Array(3), fin: false });
    expect(stopped.stop()).toBe(true);
    expect(stopped.stop()).toBe(false);
    const late = stopped.receive({ streamId: 0, offset: 3, data: new Uint8Array(3), fin: true });
    expect([late.data.length, late.fin, stopped.state, stopped.abandoned]).toEqual([0, false, 'Data Recvd', 'stopped']);
    // RFC 9000 §3.2: a reset may still overtake data nobody has read.
    expect(stopped.reset()).toBe(true);
    expect([stopped.state, stopped.abandoned]).toEqual(['Reset Read', 'reset']);
    expect(stopped.reset()).toBe(false);
  });
});

const server = () =>
  createServer({
    routes: [http.get('/hello', () => new Response('hello')), http.get('/slow', () => new Response('x'.repeat(3000)), { bytesPerTick: 100, tickMs: 10 })],
  });
const h3 = () => createSimulation({ httpVersion: '3', rtt: 100, bandwidth: Infinity, server: server(), drive: 'manual' });
const steps = (sim: ReturnType<typeof h3>, streamId: number) =>
  sim.trace
    .ofType('quic-stream-transition')
    .filter((e) => e.streamId === streamId)
    .map((e) => `${e.at} ${e.side} ${e.part}: ${e.from} -${e.input}-> ${e.to}`);

describe("'quic-stream-transition' in the trace", () => {
  it('a request and its response take both parts at both ends to their final data states', async () => {
    const sim = h3();
    const response = sim.fetch('https://api.example/hello');
    await sim.advance(1000);
    expect(await (await response).text()).toBe('hello');
    // rtt 100: the handshake ends at 100, the request reaches the server at 150, the answer the client at 200.
    expect(steps(sim, 0)).toEqual([
      '100 client send: Ready -send STREAM-> Send',
      '100 client send: Send -send FIN-> Data Sent',
      '150 server recv: Recv -recv FIN-> Size Known',
      '150 server recv: Size Known -recv all data-> Data Recvd',
      '150 server recv: Data Recvd -app read data-> Data Read',
      '150 server send: Ready -send STREAM-> Send',
      '150 server send: Send -send FIN-> Data Sent',
      // The server's ACK of the request rides with the response.
      '200 client send: Data Sent -recv all ACKs-> Data Recvd',
      '200 client recv: Recv -recv FIN-> Size Known',
      '200 client recv: Size Known -recv all data-> Data Recvd',
      '200 client recv: Data Recvd -app read data-> Data Read',
      '250 server send: Data Sent -recv all ACKs-> Data Recvd',
    ]);
    // The control streams (2 and 3) are unidirectional: only their opener's sending part moves.
    expect(
      sim.trace
        .ofType('quic-stream-transition')
        .filter((e) => e.streamId === 2)
        .map((e) => [e.side, e.part, e.to]),
    ).toEqual([['client', 'send', 'Send']]);
  });

  it('an aborted fetch: STOP_SENDING and RESET_STREAM take the response half to the reset states', async () => {
    const sim = h3();
    const controller = new AbortController();
    const result = sim.fetch('https://api.example/slow', { signal: controller.signal }).catch((e: unknown) => e);
    await sim.advance(255);
    controller.abort();
    expect(((await result) as Error).name).toBe('AbortError');
    await sim.advance(1000);
    expect(steps(sim, 0)).toEqual([
      '100 client send: Ready -send STREAM-> Send',
      '100 client send: Send -send FIN-> Data Sent',
      '150 server recv: Recv -recv FIN-> Size Known',
      '150 server recv: Size Known -recv all data-> Data Recvd',
      '150 server recv: Data Recvd -app read data-> Data Read',
      // The slow body: HEADERS now, then DATA every 10 ms; no FIN yet.
      '150 server send: Ready -send STREAM-> Send',
      '200 client send: Data Sent -recv all ACKs-> Data Recvd',
      // The abort: the request is fully acknowledged, so only STOP_SENDING goes out (RFC 9114 §4.1.1).
      '255 client recv: Recv -send STOP_SENDING-> Recv',
      // RFC 9000 §3.5: in "Send" the server must answer with RESET_STREAM.
      '305 server send: Send -recv STOP_SENDING-> Send',
      '305 server send: Send -send RESET_STREAM-> Reset Sent',
      '355 client recv: Recv -recv RESET_STREAM-> Reset Recvd',
      '355 client recv: Reset Recvd -app read reset-> Reset Read',
      // The client's ACK of the lone RESET_STREAM packet waits max_ack_delay (RFC 9000 §13.2.1): 355 + 25 + 50.
      '430 server send: Reset Sent -recv ACK of RESET_STREAM-> Reset Recvd',
    ]);
    const event = sim.trace.ofType('quic-stream-transition').at(-1)!;
    expect(event).toMatchObject({ type: 'quic-stream-transition', connectionId: 'q1', side: 'server', streamId: 0, part: 'send' });
  });
});
