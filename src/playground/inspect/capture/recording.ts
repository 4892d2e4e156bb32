/**
 * A capture's conversations as one trace, at their captured times: HTTP/1 bytes through the same machines
 * the pasted conversations go through (http1.ts), HTTP/2 bytes through readH2Connection (h2-connection.ts),
 * each connection under its own id, so the Sequence, Messages, Frames and HPACK views draw them as they
 * happened. A message or frame is drawn arriving when the capture saw it: one capture point does not say how
 * long it took to cross.
 */
import { binaryString, type TraceEvent } from 'roundtrip/wire';
import { concat } from '../bytes';
import { type H2ConnectionReading, readH2Connection } from '../h2-connection';
import { machineSteps, type Segment } from '../http1';
import { h2ConnectionEvents, MessageWriter, type Unsequenced } from '../to-recording';
import { TCP_FLAGS } from './packet';
import type { SegmentRow, Side, StreamChunk } from './tcp';

export interface Conversation {
  readonly connectionId: string;
  readonly protocol: 'http1' | 'h2';
  /** Each side's bytes with the time (ms since the capture began) each chunk completed. */
  readonly chunks: Readonly<Record<Side, readonly StreamChunk[]>>;
  /** ms since the capture began: when the connection's first packet was seen. */
  readonly start: number;
  /** The server's address, as the Sequence view names it. */
  readonly address: string;
  /** The connection's TCP segments and closes, for the handshake, FIN/RST and retransmission arrows. */
  readonly tcp?: { readonly segments: readonly SegmentRow[]; readonly closed: readonly { readonly by: Side; readonly how: 'FIN' | 'RST' }[] };
  /** The chunks are the TCP stream itself (not TLS plaintext), so a retransmission's offset is one in them. */
  readonly tcpCarriesChunks?: boolean;
}

export interface ConversationReading {
  readonly conversation: Conversation;
  /** HTTP/1: the writes in captured order, one side at a time (consecutive chunks of one side joined). */
  readonly segments?: readonly Segment[];
  readonly h2?: H2ConnectionReading;
}

/** The writes of both sides in time order; a run of chunks from one side is one write, at its last chunk's time. */
export function timedSegments(chunks: Readonly<Record<Side, readonly StreamChunk[]>>): { segment: Segment; time: number }[] {
  const all = [...chunks.client.map((c) => ({ from: 'client' as const, ...c })), ...chunks.server.map((c) => ({ from: 'server' as const, ...c }))].sort(
    (a, b) => a.time - b.time || (a.from === b.from ? 0 : a.from === 'client' ? -1 : 1),
  );
  const out: { segment: Segment; time: number; parts: Uint8Array[] }[] = [];
  for (const c of all) {
    const last = out.at(-1);
    if (last && last.segment.from === c.from) {
      last.parts.push(c.bytes);
      last.time = c.time;
    } else out.push({ segment: { from: c.from, bytes: c.bytes }, time: c.time, parts: [c.bytes] });
  }
  return out.map((o) => ({ segment: { from: o.segment.from, bytes: concat(o.parts) }, time: o.time }));
}

function http1Timed(c: Conversation): { events: Unsequenced[]; segments: Segment[] } {
  const timed = timedSegments(c.chunks);
  const segments = timed.map((t) => t.segment);
  const machine = machineSteps(segments);
  const writer = new MessageWriter();
  const events: Unsequenced[] = [
    { type: 'connection-opening', at: c.start, connectionId: c.connectionId, from: 'client', to: 'server', address: c.address, rtt: 0 },
  ];
  timed.forEach(({ segment, time }, i) => {
    events.push(...writer.write(c.connectionId, segment.from, binaryString(segment.bytes), time, time));
    for (const m of machine)
      if (m.after === i)
        events.push({ type: 'transition', at: time, machine: m.machine, connectionId: c.connectionId, from: m.from, input: m.input, to: m.to });
  });
  return { events, segments };
}

function h2Timed(c: Conversation): { events: Unsequenced[]; reading: H2ConnectionReading } {
  const reading = readH2Connection({ client: c.chunks.client, server: c.chunks.server }, { connectionId: c.connectionId });
  // readH2Connection counts from the first chunk; the trace counts from the capture's first packet.
  const origin = Math.min(...[...c.chunks.client, ...c.chunks.server].map((x) => x.time));
  const events = h2ConnectionEvents(reading.events, reading.timed).map((e): Unsequenced => {
    const { seq: _seq, ...rest } = e;
    return {
      ...rest,
      at: e.type === 'connection-opening' ? c.start : e.at + origin,
      ...(e.type === 'connection-opening' ? { address: c.address } : {}),
    } as Unsequenced;
  });
  return { events, reading };
}

/**
 * What TCP itself did, as the simulator traces it: the three-way handshake (RFC 9293 §3.5) as SYN, SYN-ACK and
 * ACK arrows, FIN and RST arrows, the connection closed at the last of them, and each retransmitted segment as
 * an arrow of its own ("↻") at the stream offset it repeats (its relative sequence number less the SYN's one).
 */
function tcpEvents(c: Conversation): Unsequenced[] {
  const out: Unsequenced[] = [];
  if (!c.tcp) return out;
  const connectionId = c.connectionId;
  let synAck: number | undefined;
  let syn: number | undefined;
  let established = false;
  let lastClose: number | undefined;
  for (const s of c.tcp.segments) {
    const has = (flag: number) => (s.flags & flag) !== 0;
    const step = (name: string) => out.push({ type: 'handshake', at: s.time, connectionId, protocol: 'tcp', step: name, from: s.from });
    if (has(TCP_FLAGS.SYN)) {
      step(has(TCP_FLAGS.ACK) ? 'SYN-ACK' : 'SYN');
      if (has(TCP_FLAGS.ACK)) synAck = s.time;
      else syn ??= s.time;
      continue;
    }
    if (synAck !== undefined && !established && s.from === 'client' && has(TCP_FLAGS.ACK)) {
      established = true;
      if (s.length === 0) step('ACK');
      out.push({ type: 'connection-opened', at: s.time, connectionId, tcpMs: s.time - (syn ?? synAck) });
    }
    if (has(TCP_FLAGS.RST) || has(TCP_FLAGS.FIN)) {
      step(has(TCP_FLAGS.RST) ? 'RST' : 'FIN');
      lastClose = s.time;
    }
    if (c.tcpCarriesChunks && s.length > 0 && s.notes.some((n) => n.startsWith('retransmission'))) {
      const offset = s.seq - 1;
      out.push({ type: 'segment-sent', at: s.time, connectionId, from: s.from, offset, length: s.length, cwnd: 0, retransmission: true });
      out.push({ type: 'segment-arrived', at: s.time, connectionId, by: s.from === 'client' ? 'server' : 'client', offset, length: s.length, inOrder: true });
    }
  }
  const first = c.tcp.closed[0];
  if (first && lastClose !== undefined)
    out.push({
      type: 'connection-closed',
      at: lastClose,
      connectionId,
      by: first.by,
      how: first.how === 'RST' ? 'reset' : 'fin',
      reason: `the capture shows ${c.tcp.closed.map((x) => `${x.how} from the ${x.by}`).join(', ')}`,
    });
  return out;
}

/** Every conversation's events merged by time (a tie keeps each connection's order), numbered as one trace. */
export function captureTrace(conversations: readonly Conversation[]): { events: TraceEvent[]; readings: ConversationReading[] } {
  const readings: ConversationReading[] = [];
  const tagged: { e: Unsequenced; k: number }[] = [];
  for (const c of conversations) {
    if (c.protocol === 'http1') {
      const { events, segments } = http1Timed(c);
      readings.push({ conversation: c, segments });
      tagged.push(...events.map((e) => ({ e, k: tagged.length })), ...tcpEvents(c).map((e) => ({ e, k: 0 })));
    } else {
      const { events, reading } = h2Timed(c);
      readings.push({ conversation: c, h2: reading });
      tagged.push(...events.map((e) => ({ e, k: tagged.length })), ...tcpEvents(c).map((e) => ({ e, k: 0 })));
    }
  }
  tagged.forEach((t, i) => {
    t.k = i;
  });
  tagged.sort((a, b) => a.e.at - b.e.at || a.k - b.k);
  return { events: tagged.map((t, i) => ({ ...t.e, seq: i + 1 }) as TraceEvent), readings };
}
