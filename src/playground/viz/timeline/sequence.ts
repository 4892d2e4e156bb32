/**
 * The sequence diagram's model: one pass over a simulation's trace turns it into arrows between lanes
 * (client, proxy, server) and marks on lanes. Built once per source (the view memoizes it); the cursor
 * then only decides which arrows are drawn, so scrubbing never re-reads the trace.
 *
 * What becomes an arrow:
 * - TCP handshake steps (SYN, SYN-ACK, ACK: RFC 9293 §3.5). They carry no payload, so the trace has no
 *   segment for them; they arrive one one-way delay (rtt / 2) after they leave.
 * - Every TCP segment ('segment-sent'), paired with its 'segment-arrived' or 'packet-lost' by connection,
 *   direction, offset and length. Retransmissions are segments too, flagged.
 * - Cumulative ACKs ('ack'), which arrive rtt / 2 later.
 * - Every QUIC packet ('quic-packet-sent'); a 'quic-datagram-dropped' naming its number marks it lost.
 *   QUIC arrivals are not traced (http3/events.ts), so they are drawn arriving rtt / 2 later.
 * What becomes a mark: RTO expiry ('retransmit'), head-of-line blocking, QUIC loss detection and PTO,
 * TLS/QUIC ready, and connection close.
 */
import type { TraceEvent } from 'roundtrip/wire';
import { StreamLabeller, type Category } from './labels';
import type { TlsProtocol } from '../tls-records';
import { dropWords, type DropCause } from '../drop-words';

/** A lost arrow's description says why in capitals, as it always has: "LOST in the network", "DROPPED at the full ...". */
const dropped = (cause: DropCause | undefined) => dropWords(cause).replace(/^\S+/, (first) => first.toUpperCase());

export type { Category } from './labels';

/** Who is at each end of a connection (trace/events.ts `Peer`, not exported by roundtrip/wire). */
export type Peer = 'client' | 'proxy' | 'server';
type Side = 'client' | 'server';

export interface Arrow {
  /** Index of the sending event in the source's events (the arrow appears once it is visible). */
  readonly index: number;
  /** Index of the event that ended it (arrival or loss), when the trace has one. */
  readonly endIndex: number | undefined;
  readonly connectionId: string;
  readonly from: Peer;
  readonly to: Peer;
  readonly sentAt: number;
  /** When it arrived, or for a lost packet when it would have. */
  readonly arriveAt: number;
  readonly lost: boolean;
  readonly retransmission: boolean;
  readonly category: Category;
  /** Short text drawn on the arrow; empty for continuation segments and ACKs. */
  readonly label: string;
  /** Complete description: the accessible name. */
  readonly description: string;
}

export interface LaneMark {
  readonly index: number;
  readonly at: number;
  readonly lane: Peer;
  readonly connectionId: string;
  readonly kind: 'rto' | 'hol' | 'loss-detected' | 'pto' | 'ready' | 'closed';
  readonly description: string;
}

export interface ConnectionInfo {
  readonly id: string;
  readonly from: Peer;
  readonly to: Peer;
  readonly address: string;
  readonly rtt: number;
  readonly protocol: 'tcp' | 'quic';
  /** Position in order of opening: picks the connection's colour. */
  readonly order: number;
}

export interface SequenceModel {
  readonly lanes: readonly Peer[];
  readonly arrows: readonly Arrow[];
  readonly marks: readonly LaneMark[];
  readonly connections: ReadonlyMap<string, ConnectionInfo>;
  /** Virtual time of the last event. */
  readonly duration: number;
  /** For each event index, the arrow (or mark, as -1 - markIndex) it belongs to, for highlighting. */
  readonly owner: ReadonlyMap<number, number>;
}

const ms = (t: number) => `${t.toFixed(1)} ms`;

interface Pending {
  readonly arrow: number;
}

/** Builds the diagram model of a source's events (all of them: the cursor filters later). */
export function buildSequence(events: readonly TraceEvent[]): SequenceModel {
  const connections = new Map<string, ConnectionInfo>();
  const labellers = new Map<string, StreamLabeller>();
  /** Connections that run TLS, and which (application-data records differ: tls-records.ts). */
  const tlsConnections = new Map<string, TlsProtocol>();
  /** Proxy-to-server connection -> the client's connection whose tunnel it carries (same bytes, same TLS). */
  const tunnels = new Map<string, string>();
  const pendingSegments = new Map<string, Pending[]>();
  const quicSent = new Map<string, number>(); // `${conn}|${from}|${pn}` -> arrow index, latest wins
  const h3Heads = new Map<string, string>(); // `${conn}|${from}|${stream}` -> "GET /x" or "200"
  const arrows: Arrow[] = [];
  const marks: LaneMark[] = [];
  const owner = new Map<number, number>();
  let usesProxy = false;

  const peer = (connectionId: string, side: Side): Peer => {
    const c = connections.get(connectionId);
    if (!c) return side;
    return side === 'client' ? c.from : c.to;
  };
  const other = (connectionId: string, side: Side): Peer => peer(connectionId, side === 'client' ? 'server' : 'client');
  const oneWay = (connectionId: string) => (connections.get(connectionId)?.rtt ?? 0) / 2;
  const labeller = (connectionId: string, side: Side) => {
    const key = `${connectionId}|${side}`;
    let l = labellers.get(key);
    if (!l) labellers.set(key, (l = new StreamLabeller()));
    return l;
  };
  const addArrow = (a: Arrow): number => {
    arrows.push(a);
    owner.set(a.index, arrows.length - 1);
    return arrows.length - 1;
  };
  const addMark = (m: LaneMark) => {
    marks.push(m);
    owner.set(m.index, -1 - (marks.length - 1));
  };
  const end = (arrowIndex: number, patch: Partial<Arrow>, index: number) => {
    arrows[arrowIndex] = { ...arrows[arrowIndex]!, ...patch, endIndex: index };
    owner.set(index, arrowIndex);
  };

  events.forEach((e, index) => {
    switch (e.type) {
      case 'connection-opening':
        if (e.from === 'proxy' || e.to === 'proxy') usesProxy = true;
        connections.set(e.connectionId, {
          id: e.connectionId,
          from: e.from,
          to: e.to,
          address: e.address,
          rtt: e.rtt,
          protocol: 'tcp',
          order: connections.size,
        });
        return;
      case 'quic-connection-opening':
        connections.set(e.connectionId, {
          id: e.connectionId,
          from: 'client',
          to: 'server',
          address: e.address,
          rtt: e.rtt,
          protocol: 'quic',
          order: connections.size,
        });
        return;
      case 'handshake': {
        if (e.protocol !== 'tcp') {
          tlsConnections.set(e.connectionId, e.protocol);
          return; // TLS flights travel in segments, labelled from their records.
        }
        const from = peer(e.connectionId, e.from);
        const to = other(e.connectionId, e.from);
        addArrow({
          index,
          endIndex: undefined,
          connectionId: e.connectionId,
          from,
          to,
          sentAt: e.at,
          arriveAt: e.at + oneWay(e.connectionId),
          lost: false,
          retransmission: false,
          category: 'tcp',
          label: e.step,
          description: `${e.connectionId} ${from} to ${to}, TCP ${e.step}, sent at ${ms(e.at)}`,
        });
        return;
      }
      case 'tunnel-established':
        // The proxy relays the client's TLS to the server: the upstream hop sees the ClientHello before the
        // server's end of the handshake is traced.
        tunnels.set(e.upstreamConnectionId, e.connectionId);
        return;
      case 'h2-session':
        // The client announces its session before a proxy's CONNECT exchange, which is HTTP/1: its own bytes
        // become frames at its preface (the labeller sees it). A server's session starts with its first write.
        if (e.side === 'server') labeller(e.connectionId, 'server').startHttp2();
        return;
      case 'bytes-sent': {
        const l = labeller(e.connectionId, e.from);
        const relayed = tunnels.get(e.connectionId);
        l.write(e.data, tlsConnections.get(e.connectionId) ?? (relayed === undefined ? undefined : tlsConnections.get(relayed)));
        // Once the client's preface is out, what comes back is the server's HTTP/2 (relayed by a tunnel, if any).
        if (e.from === 'client' && l.http2) labeller(e.connectionId, 'server').startHttp2();
        return;
      }
      case 'segment-sent': {
        const from = peer(e.connectionId, e.from);
        const to = other(e.connectionId, e.from);
        const what = labeller(e.connectionId, e.from).describe(e.offset, e.length);
        const retrans = e.retransmission ? 'retransmission of ' : '';
        const arrow = addArrow({
          index,
          endIndex: undefined,
          connectionId: e.connectionId,
          from,
          to,
          sentAt: e.at,
          arriveAt: e.at + oneWay(e.connectionId),
          lost: false,
          retransmission: e.retransmission,
          category: what.category,
          label: e.retransmission ? `↻ ${what.label}` : what.starts ? what.label : '',
          description: `${e.connectionId} ${from} to ${to}, ${retrans}${what.label}, bytes ${e.offset}-${e.offset + e.length - 1} (${e.length} B), sent at ${ms(e.at)}`,
        });
        const key = `${e.connectionId}|${e.from}|${e.offset}|${e.length}`;
        const queue = pendingSegments.get(key);
        if (queue) queue.push({ arrow });
        else pendingSegments.set(key, [{ arrow }]);
        return;
      }
      case 'segment-arrived': {
        const sender: Side = e.by === 'client' ? 'server' : 'client';
        const pending = pendingSegments.get(`${e.connectionId}|${sender}|${e.offset}|${e.length}`)?.shift();
        if (!pending) return;
        const a = arrows[pending.arrow]!;
        const held = e.inOrder ? '' : ', out of order (held back)';
        end(pending.arrow, { arriveAt: e.at, description: `${a.description}, arrived at ${ms(e.at)}${held}` }, index);
        return;
      }
      case 'packet-lost': {
        const pending = pendingSegments.get(`${e.connectionId}|${e.from}|${e.offset}|${e.length}`)?.shift();
        if (!pending) return;
        const a = arrows[pending.arrow]!;
        end(pending.arrow, { lost: true, description: `${a.description}, ${dropped(e.cause)}` }, index);
        return;
      }
      case 'ack': {
        const from = peer(e.connectionId, e.from);
        const to = other(e.connectionId, e.from);
        addArrow({
          index,
          endIndex: undefined,
          connectionId: e.connectionId,
          from,
          to,
          sentAt: e.at,
          arriveAt: e.at + oneWay(e.connectionId),
          lost: false,
          retransmission: false,
          category: 'ack',
          label: '',
          description: `${e.connectionId} ${from} to ${to}, ACK ${e.ack} (every byte before ${e.ack} received), sent at ${ms(e.at)}`,
        });
        return;
      }
      case 'retransmit':
        if (e.reason === 'timeout') {
          addMark({
            index,
            at: e.at,
            lane: peer(e.connectionId, e.from),
            connectionId: e.connectionId,
            kind: 'rto',
            description: `${e.connectionId}: retransmission timeout (${ms(e.rto)}) expired at ${ms(e.at)}, resending bytes ${e.offset}-${e.offset + e.length - 1}, attempt ${e.attempt}`,
          });
        } else {
          addMark({
            index,
            at: e.at,
            lane: peer(e.connectionId, e.from),
            connectionId: e.connectionId,
            kind: 'loss-detected',
            description:
              e.reason === 'tail-loss-probe'
                ? `${e.connectionId}: no ACK for two round trips, bytes ${e.offset}-${e.offset + e.length - 1} sent again as a tail loss probe at ${ms(e.at)}`
                : `${e.connectionId}: bytes ${e.offset}-${e.offset + e.length - 1} declared lost (${e.reason === 'packet-threshold' ? 'three later segments acknowledged: fast retransmit' : 'overdue by an RTT + min RTT/4: RACK'}) at ${ms(e.at)}, resending, attempt ${e.attempt}`,
          });
        }
        return;
      case 'hol-blocked':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.by),
          connectionId: e.connectionId,
          kind: 'hol',
          description: `${e.connectionId}: head-of-line blocked at ${ms(e.at)}: ${e.heldBytes} B held, waiting for byte ${e.waitingFor}`,
        });
        return;
      case 'tls-established':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.side),
          connectionId: e.connectionId,
          kind: 'ready',
          description: `${e.connectionId}: TLS ${e.protocol.slice(3)} ready on the ${peer(e.connectionId, e.side)} side at ${ms(e.at)}, after ${ms(e.tlsMs)}`,
        });
        return;
      case 'connection-closed':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.by),
          connectionId: e.connectionId,
          kind: 'closed',
          description: `${e.connectionId}: closed by the ${peer(e.connectionId, e.by)} (${e.how === 'fin' ? 'FIN' : 'RST'}) at ${ms(e.at)}: ${e.reason}`,
        });
        return;
      case 'http3-frame':
        if (e.frame === 'HEADERS' && e.fields) {
          const f = (n: string) => e.fields!.find((h) => h.name === n)?.value;
          const head = f(':status') ?? `${f(':method') ?? ''} ${f(':path') ?? ''}`.trim();
          h3Heads.set(`${e.connectionId}|${e.from}|${e.streamId}`, head);
        }
        return;
      case 'quic-packet-sent': {
        const from = peer(e.connectionId, e.from);
        const to = other(e.connectionId, e.from);
        const ackOnly = e.frames.every((f) => f.startsWith('ACK') || f.startsWith('PADDING'));
        const crypto = e.frames.find((f) => f.startsWith('CRYPTO'));
        let label = crypto ? crypto.slice(7) : '';
        if (!label) {
          for (const f of e.frames) {
            const m = /^STREAM (\d+) @0\+/.exec(f);
            const head = m ? h3Heads.get(`${e.connectionId}|${e.from}|${m[1]}`) : undefined;
            if (head) {
              label = `HEADERS s${m![1]}: ${head}`;
              break;
            }
          }
        }
        if (!label && !ackOnly) label = e.frames[0] ?? '';
        if (e.probe) label = `probe: ${label}`;
        const starts = crypto !== undefined || label.startsWith('HEADERS') || e.probe;
        const arrow = addArrow({
          index,
          endIndex: undefined,
          connectionId: e.connectionId,
          from,
          to,
          sentAt: e.at,
          arriveAt: e.at + oneWay(e.connectionId),
          lost: false,
          retransmission: e.probe,
          category: ackOnly ? 'ack' : crypto ? 'tls' : 'quic',
          label: starts ? label : '',
          description: `${e.connectionId} ${from} to ${to}, QUIC ${e.space} packet ${e.packetNumber} (${e.size} B): ${e.frames.join('; ')}, sent at ${ms(e.at)}`,
        });
        quicSent.set(`${e.connectionId}|${e.from}|${e.packetNumber}`, arrow);
        return;
      }
      case 'quic-datagram-dropped':
        for (const pn of e.packetNumbers) {
          const arrow = quicSent.get(`${e.connectionId}|${e.from}|${pn}`);
          if (arrow === undefined) continue;
          const a = arrows[arrow]!;
          end(arrow, { lost: true, description: `${a.description}, ${dropped(e.cause)}` }, index);
        }
        return;
      case 'quic-packets-lost':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.from),
          connectionId: e.connectionId,
          kind: 'loss-detected',
          description: `${e.connectionId}: packets ${e.packetNumbers.join(', ')} declared lost (${e.reason}) at ${ms(e.at)}; streams ${e.streams.join(', ') || 'none'} wait for the resend`,
        });
        return;
      case 'quic-pto':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.from),
          connectionId: e.connectionId,
          kind: 'pto',
          description: `${e.connectionId}: probe timeout (${ms(e.pto)}, #${e.count}) at ${ms(e.at)}`,
        });
        return;
      case 'quic-ready':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.side),
          connectionId: e.connectionId,
          kind: 'ready',
          description: `${e.connectionId}: QUIC ready on the ${e.side} side at ${ms(e.at)}${e.resumed ? ' (resumed)' : ''}`,
        });
        return;
      case 'quic-stream-blocked':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.by),
          connectionId: e.connectionId,
          kind: 'hol',
          description: `${e.connectionId}: stream ${e.streamId} blocked at ${ms(e.at)}: ${e.heldBytes} B held, waiting for byte ${e.waitingFor}; other streams go on`,
        });
        return;
      case 'quic-connection-closed':
        addMark({
          index,
          at: e.at,
          lane: peer(e.connectionId, e.by),
          connectionId: e.connectionId,
          kind: 'closed',
          description: `${e.connectionId}: QUIC connection closed by the ${e.by} at ${ms(e.at)}: ${e.reason}`,
        });
        return;
      default:
        return;
    }
  });

  return {
    lanes: usesProxy ? ['client', 'proxy', 'server'] : ['client', 'server'],
    arrows,
    marks,
    connections,
    duration: arrows.reduce((max, a) => Math.max(max, a.arriveAt), events.length > 0 ? events[events.length - 1]!.at : 0),
    owner,
  };
}
