/**
 * TCP reassembly: the captured segments of each connection put back into the two byte streams the
 * applications wrote, as a receiver would (RFC 9293 §3.4, §3.10.7.4): by sequence number, each byte once.
 * A retransmitted segment adds nothing (and is checked to carry the same bytes), one overlapping what came
 * before adds only its new part, one that comes ahead of a gap is held until the gap is filled. Every
 * segment is listed, as Wireshark lists them, with its flags, relative sequence and acknowledgment numbers
 * and what it did to the stream.
 *
 * Sequence numbers are 32-bit and wrap (RFC 9293 §3.4): offsets are taken modulo 2^32 from the initial
 * sequence number, which the SYN gives (the SYN and the FIN each take one number). A connection whose SYN is
 * not in the capture starts where its first segment does.
 */
import type { CapturedPacket } from './files';
import { TCP_FLAGS, type TcpPacket } from './packet';
import { concat } from '../bytes';
export { concat };

export type Side = 'client' | 'server';

/** Bytes a side's application wrote, as far as they reached the stream at `time` (ms since the capture began). */
export interface StreamChunk {
  readonly bytes: Uint8Array;
  readonly time: number;
}

export interface SegmentRow {
  readonly number: number;
  /** ms since the capture's first packet. */
  readonly time: number;
  readonly from: Side;
  readonly flags: number;
  /** Relative to the sender's initial sequence number (the SYN is 0, the first data byte 1), as Wireshark shows. */
  readonly seq: number;
  readonly ack?: number;
  readonly length: number;
  readonly window: number;
  /** What the segment did: 'retransmission', 'out of order', 'overlaps 5 bytes', 'ahead of a gap' ... */
  readonly notes: readonly string[];
}

export interface Endpoint {
  readonly address: string;
  readonly port: number;
}

export interface TcpConnection {
  /** 'tcp1', 'tcp2' ... in order of first packet. */
  readonly id: string;
  readonly ipVersion: 4 | 6;
  readonly client: Endpoint;
  readonly server: Endpoint;
  /** How the client was told apart: its SYN, or (no SYN captured) a guess from the ports. */
  readonly roles: 'syn' | 'syn-ack' | 'ports';
  readonly segments: readonly SegmentRow[];
  readonly chunks: Readonly<Record<Side, readonly StreamChunk[]>>;
  /** Stream bytes each side sent, in order. */
  readonly bytes: Readonly<Record<Side, number>>;
  readonly closed: { readonly by: Side; readonly how: 'FIN' | 'RST' }[];
  /** Bytes that never arrived: a gap after which nothing could be read, per side. */
  readonly problems: readonly string[];
}

interface Direction {
  /** The initial sequence number; undefined until the side's first segment. */
  isn?: number;
  synSeen: boolean;
  /** Offset (from the first data byte) of the next byte the stream needs. */
  next: number;
  stream: Uint8Array[];
  received: number;
  held: Map<number, { bytes: Uint8Array; number: number }>;
  chunks: StreamChunk[];
  finAt?: number;
}

interface Building {
  id: string;
  ipVersion: 4 | 6;
  a: Endpoint;
  b: Endpoint;
  /** Which endpoint is the client, once known. */
  clientIsA?: boolean;
  roles: TcpConnection['roles'];
  sides: { a: Direction; b: Direction };
  rows: SegmentRow[];
  closed: { by: 'a' | 'b'; how: 'FIN' | 'RST' }[];
}

const MOD = 2 ** 32;
const rel = (seq: number, isn: number) => (seq - isn + MOD) % MOD;
const key = (e: Endpoint) => `${e.address}|${e.port}`;

const newDirection = (): Direction => ({ synSeen: false, next: 0, stream: [], received: 0, held: new Map(), chunks: [] });

export class TcpReassembler {
  #connections = new Map<string, Building>();
  #all: Building[] = [];
  #origin: number | undefined;

  /** Adds one captured TCP segment; `time` is ms since 1970 (any origin works: times are kept from the first). */
  add(captured: Pick<CapturedPacket, 'number'>, time: number, tcp: TcpPacket): void {
    this.#origin ??= time;
    const at = time - this.#origin;
    const from: Endpoint = { address: tcp.source, port: tcp.sourcePort };
    const to: Endpoint = { address: tcp.destination, port: tcp.destinationPort };
    const pair = [key(from), key(to)].sort().join(' ');
    let c = this.#connections.get(pair);
    const syn = (tcp.flags & TCP_FLAGS.SYN) !== 0;
    const ack = (tcp.flags & TCP_FLAGS.ACK) !== 0;
    // A new SYN on a finished 4-tuple (or one with another initial sequence number) is a new connection.
    if (c && syn && !ack) {
      const side = key(c.a) === key(from) ? c.sides.a : c.sides.b;
      if (side.isn !== undefined && side.isn !== tcp.seq) c = undefined;
    }
    if (!c) {
      c = {
        id: `tcp${this.#all.length + 1}`,
        ipVersion: tcp.ipVersion,
        a: from,
        b: to,
        roles: 'ports',
        sides: { a: newDirection(), b: newDirection() },
        rows: [],
        closed: [],
      };
      if (syn) {
        c.clientIsA = !ack;
        c.roles = ack ? 'syn-ack' : 'syn';
      } else {
        // No handshake captured: the side on the lower (well-known or listening) port is taken as the server.
        c.clientIsA = from.port > to.port;
      }
      this.#connections.set(pair, c);
      this.#all.push(c);
    }
    const mine = key(c.a) === key(from) ? 'a' : 'b';
    const side = c.sides[mine];
    const peer = c.sides[mine === 'a' ? 'b' : 'a'];
    const notes: string[] = [];
    if (side.isn === undefined) {
      side.isn = syn ? tcp.seq : (tcp.seq - 1 + MOD) % MOD;
      side.synSeen = syn;
      if (!syn) notes.push('first segment of this side (its SYN is not in the capture)');
    } else if (syn && side.synSeen) notes.push('retransmitted SYN');
    const length = tcp.payload.length;
    // Offset of the payload's first byte from the side's first data byte. Data on a SYN (TCP Fast Open, RFC 7413)
    // follows the SYN's own sequence number.
    const offset = (rel(tcp.seq, side.isn) - (syn ? 0 : 1) + MOD) % MOD;
    if (length > 0) this.#accept(side, offset, tcp.payload, captured.number, at, notes);
    if (tcp.missing > 0) notes.push(`${tcp.missing} bytes not captured (snapshot length)`);
    if (tcp.flags & TCP_FLAGS.FIN) {
      if (side.finAt === undefined) c.closed.push({ by: mine, how: 'FIN' });
      else notes.push('retransmitted FIN');
      side.finAt = offset + length;
    }
    if (tcp.flags & TCP_FLAGS.RST) {
      c.closed.push({ by: mine, how: 'RST' });
      notes.push('reset: the sender aborts the connection (RFC 9293 §3.10.7.1)');
    }
    const fromSide: Side = (mine === 'a') === c.clientIsA ? 'client' : 'server';
    c.rows.push({
      number: captured.number,
      time: at,
      from: fromSide,
      flags: tcp.flags,
      seq: rel(tcp.seq, side.isn),
      ...(ack && peer.isn !== undefined ? { ack: rel(tcp.ack, peer.isn) } : {}),
      length,
      window: tcp.window,
      notes,
    });
  }

  #accept(side: Direction, offset: number, payload: Uint8Array, number: number, at: number, notes: string[]): void {
    const end = offset + payload.length;
    if (offset > MOD / 2) {
      // Before the first byte: the capture began mid-stream and this is a retransmission of older data.
      notes.push('retransmission of bytes sent before the capture began');
      return;
    }
    if (end <= side.next) {
      notes.push(
        `retransmission (bytes ${offset + 1}-${end} came before)${this.#differs(side, offset, payload) ? ', with DIFFERENT bytes: the first copy is kept' : ''}`,
      );
      return;
    }
    if (offset > side.next) {
      const had = side.held.get(offset);
      if (had && had.bytes.length >= payload.length) notes.push('retransmission of a segment held ahead of a gap');
      else {
        side.held.set(offset, { bytes: payload, number });
        notes.push(`ahead of a gap: bytes ${side.next + 1}-${offset} are missing, held until they come (previous segment not captured, or reordered)`);
      }
      return;
    }
    const gap = side.held.size > 0;
    if (offset < side.next) {
      const overlap = side.next - offset;
      notes.push(
        `overlaps ${overlap} byte${overlap === 1 ? '' : 's'} already received${this.#differs(side, offset, payload.subarray(0, overlap)) ? ' (DIFFERENT bytes: the first copy is kept)' : ''}`,
      );
      payload = payload.subarray(overlap);
    } else if (gap) notes.push('out of order: fills the gap before the held segments');
    const parts = [payload];
    side.next += payload.length;
    // Release held segments that now continue the stream (any part of them not yet received).
    for (let more = true; more; ) {
      more = false;
      for (const [o, h] of [...side.held].sort((x, y) => x[0] - y[0])) {
        if (o > side.next) break;
        side.held.delete(o);
        const fresh = h.bytes.subarray(Math.min(h.bytes.length, side.next - o));
        if (fresh.length > 0) {
          parts.push(fresh);
          side.next += fresh.length;
          more = true;
        }
      }
    }
    if (gap && parts.length > 1) notes.push(`releases ${parts.slice(1).reduce((n, p) => n + p.length, 0)} held bytes`);
    const bytes = concat(parts);
    side.stream.push(bytes);
    side.received += bytes.length;
    side.chunks.push({ bytes, time: at });
  }

  /** Whether `payload` at `offset` differs from the bytes the stream already holds there. */
  #differs(side: Direction, offset: number, payload: Uint8Array): boolean {
    let base = 0;
    for (const part of side.stream) {
      for (let i = Math.max(0, offset - base); i < part.length && base + i < offset + payload.length; i++) {
        if (part[i] !== payload[base + i - offset]) return true;
      }
      base += part.length;
      if (base >= offset + payload.length) break;
    }
    return false;
  }

  connections(): TcpConnection[] {
    return this.#all.map((c) => {
      const clientKey = c.clientIsA ? 'a' : 'b';
      const serverKey = c.clientIsA ? 'b' : 'a';
      const problems: string[] = [];
      for (const [name, k] of [
        ['client', clientKey],
        ['server', serverKey],
      ] as const) {
        const d = c.sides[k];
        if (d.held.size > 0) {
          const first = Math.min(...d.held.keys());
          const heldBytes = [...d.held.values()].reduce((n, h) => n + h.bytes.length, 0);
          problems.push(
            `The ${name}'s bytes ${d.next + 1}-${first} were never captured: the ${heldBytes} bytes after them (segment${d.held.size === 1 ? '' : 's'} ${[...d.held.values()].map((h) => h.number).join(', ')}) cannot be read in order and are left out.`,
          );
        }
      }
      return {
        id: c.id,
        ipVersion: c.ipVersion,
        client: c.clientIsA ? c.a : c.b,
        server: c.clientIsA ? c.b : c.a,
        roles: c.roles,
        segments: c.rows,
        chunks: { client: c.sides[clientKey].chunks, server: c.sides[serverKey].chunks },
        bytes: { client: c.sides[clientKey].received, server: c.sides[serverKey].received },
        closed: c.closed.map((x) => ({ by: x.by === clientKey ? 'client' : 'server', how: x.how })),
        problems,
      };
    });
  }
}
