/**
 * What the current step is, in words: the text of the visualizer panel's aria-live log, so a reader who cannot
 * see the animation hears it ("stream 3: HEADERS sent by client, END_HEADERS"; "c1: SYN from client").
 *
 * One line per event, standing alone: it names its connection, stream or request. Query events are told by
 * the query views' own describer (query/describe.ts), so both say the same thing.
 */
import type { TraceEvent } from 'roundtrip/wire';
import { eventAt, type QueryVizEvent, type Recording } from '../recording/model';
import { describeQueryEvent } from './query/describe';
import { formatNumber } from './number';

const ms = (x: number) => `${formatNumber(x, 1)} ms`;
const bytes = (n: number) => `${formatNumber(n, 1)} byte${n === 1 ? '' : 's'}`;
const TLS_NAMES: Record<string, string> = { tcp: 'TCP', 'tls1.2': 'TLS 1.2', 'tls1.3': 'TLS 1.3' };
const tls = (p: string) => TLS_NAMES[p] ?? p;
const flagList = (flags: readonly string[]) => (flags.length > 0 ? `, ${flags.join(', ')}` : '');

/** The first line of an HTTP/1 message, when the bytes start with one; else ''. */
function firstLine(data: string): string {
  const end = data.indexOf('\r\n');
  const line = end > 0 ? data.slice(0, Math.min(end, 120)) : '';
  return /^[A-Z]+ \S+ HTTP\/\d|^HTTP\/\d/.test(line) ? `: ${line}` : '';
}

/** One trace event of roundtrip/wire in words. */
export function describeWireEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'connection-opening':
      return `${e.connectionId}: ${e.from} opens a connection to ${e.address} (RTT ${ms(e.rtt)})`;
    case 'connection-opened':
      return `${e.connectionId}: connected after ${ms(e.tcpMs)}`;
    case 'connection-closed':
      return `${e.connectionId}: ${e.how === 'fin' ? 'closed' : 'reset'} by ${e.by}${e.reason ? ` (${e.reason})` : ''}`;
    case 'handshake':
      return `${e.connectionId}: ${e.step} from ${e.from}${e.protocol === 'tcp' ? '' : ` (${tls(e.protocol)})`}`;
    case 'tls-established':
      return `${e.connectionId}: ${tls(e.protocol)} ready on the ${e.side} after ${ms(e.tlsMs)}`;
    case 'bytes-sent':
      return `${e.connectionId}: ${e.from} wrote ${bytes(e.data.length)}${firstLine(e.data)}`;
    case 'bytes-received':
      return `${e.connectionId}: ${e.by} read ${bytes(e.data.length)}${firstLine(e.data)}`;
    case 'segment-sent':
      return `${e.connectionId}: ${e.from} sent ${e.retransmission ? 'again ' : ''}bytes ${e.offset}–${e.offset + e.length} (cwnd ${e.cwnd})`;
    case 'segment-arrived':
      return `${e.connectionId}: bytes ${e.offset}–${e.offset + e.length} reached the ${e.by}${e.inOrder ? '' : ' out of order'}`;
    case 'ack':
      return `${e.connectionId}: ${e.from} acknowledges up to byte ${e.ack}`;
    case 'packet-lost':
      return `${e.connectionId}: lost bytes ${e.offset}–${e.offset + e.length} from ${e.from}`;
    case 'retransmit':
      return `${e.connectionId}: ${e.from} retransmits bytes ${e.offset}–${e.offset + e.length} after a ${ms(e.rto)} timeout (attempt ${e.attempt})`;
    case 'hol-blocked':
      return `${e.connectionId}: ${e.by} holds ${bytes(e.heldBytes)} waiting for byte ${e.waitingFor} (head-of-line blocking)`;
    case 'message-parsed':
      return `${e.connectionId}: ${e.by} parsed a ${e.kind}: ${e.startLine}`;
    case 'transition':
      return `${e.connectionId} ${e.machine}: ${e.from} → ${e.to} on ${e.input}`;
    case 'request-started':
      return `${e.requestId}: ${e.method} ${e.url} started (${e.httpVersion})`;
    case 'request-queued':
      return `${e.requestId}: queued for ${e.origin}, ${e.position} ahead (connection limit)`;
    case 'request-dispatched':
      return `${e.requestId}: assigned to ${e.connectionId}${e.reused ? ', reused' : ', new connection'}${e.pipelineDepth > 0 ? `, behind ${e.pipelineDepth} pipelined` : ''}`;
    case 'request-sent':
      return `${e.requestId}: sent on ${e.connectionId}: ${e.startLine}`;
    case 'response-started':
      return `${e.requestId}: first response byte on ${e.connectionId}`;
    case 'request-finished':
      return `${e.requestId}: ${e.response.status}${e.response.statusText ? ` ${e.response.statusText}` : ''} after ${ms(e.at - e.startedAt)}`;
    case 'request-failed':
      return `${e.requestId}: failed (${e.reason}): ${e.message}`;
    case 'request-retried':
      return `${e.requestId}: retried on ${e.connectionId}: ${e.reason}`;
    case 'proxy-forwarded':
      return `${e.connectionId}: proxy forwards the ${e.kind} to ${e.upstreamConnectionId}${e.removedHeaders.length ? `, removing ${e.removedHeaders.join(', ')}` : ''}`;
    case 'tunnel-established':
      return `${e.connectionId}: tunnel to ${e.authority} through ${e.upstreamConnectionId}`;
    case 'server-handled':
      return `${e.connectionId}: server answers ${e.method} ${e.target} with ${e.status} (${e.route})`;
    case 'fault-injected':
      return `${e.connectionId}: fault injected: ${e.fault} (${e.detail})`;
    case 'h2-session':
      return `${e.connectionId}: ${e.side} speaks HTTP/2 (${e.protocol}${e.alpn ? ', ALPN h2' : ''})`;
    case 'h2-preface':
      return `${e.connectionId}: connection preface ${e.direction} by ${e.side}`;
    case 'h2-frame':
      // Stream 0 is the connection itself (RFC 9113 §5.1.1): SETTINGS, PING, GOAWAY, WINDOW_UPDATE.
      return `${e.streamId === 0 ? `${e.connectionId}` : `stream ${e.streamId}`}: ${e.frameType} ${e.direction} by ${e.side}${flagList(e.flags)}`;
    case 'h2-stream-transition':
      return `stream ${e.streamId} (${e.side}): ${e.from} → ${e.to} on ${e.direction} ${e.input}`;
    case 'quic-connection-opening':
      return `${e.connectionId}: QUIC connection to ${e.address}${e.resumed ? ' (resumed, 0-RTT)' : ''}`;
    case 'quic-handshake':
      return `${e.connectionId}: ${e.messages} from ${e.from} (${e.space})`;
    case 'quic-ready':
      return `${e.connectionId}: ${e.side} ready after ${ms(e.handshakeMs)}`;
    case 'quic-packet-sent':
      return `${e.connectionId}: ${e.from} sent ${e.probe ? 'probe ' : ''}packet ${e.packetNumber} (${e.space}, ${bytes(e.size)}): ${e.frames.join('; ')}`;
    case 'quic-datagram-dropped':
      return `${e.connectionId}: network dropped packet ${e.packetNumbers.join(', ')} from ${e.from}`;
    case 'quic-packets-lost':
      return `${e.connectionId}: ${e.from} declares packet ${e.packetNumbers.join(', ')} lost (${e.reason})`;
    case 'quic-pto':
      return `${e.connectionId}: ${e.from} probe timeout ${ms(e.pto)} (#${e.count})`;
    case 'quic-congestion':
      return `${e.connectionId}: ${e.from} congestion window ${bytes(e.cwnd)}, ${e.phase}`;
    case 'quic-stream-blocked':
      return `stream ${e.streamId}: ${e.by} holds ${bytes(e.heldBytes)} waiting for byte ${e.waitingFor}`;
    case 'quic-stream-transition':
      return `stream ${e.streamId} (${e.side}, ${e.part === 'send' ? 'sending' : 'receiving'} part): ${e.from} → ${e.to} on ${e.input}`;
    case 'quic-connection-closed':
      return `${e.connectionId}: closed by ${e.by} (error ${e.errorCode}${e.reason ? `, ${e.reason}` : ''})`;
    case 'http3-frame':
      return `stream ${e.streamId}: ${e.frame} from ${e.from}, ${bytes(e.length)}`;
    default: {
      const unknown = e as { type: string; connectionId?: string };
      return `${unknown.connectionId ? `${unknown.connectionId}: ` : ''}${unknown.type}`;
    }
  }
}

/**
 * The step at `cursor` in words, for the live log. With more than one source the line starts with the source's
 * label, so "c1" of one simulation is not confused with "c1" of another.
 */
export function describeStep(recording: Recording, cursor: number): string {
  const found = eventAt(recording, cursor);
  if (!found) return recording.steps.length === 0 ? 'Nothing recorded yet.' : 'Before the first event.';
  const text =
    found.source.kind === 'wire' ? describeWireEvent(found.event as TraceEvent) : describeQueryEvent(found.event as QueryVizEvent);
  return recording.sources.length > 1 ? `${found.source.label}: ${text}` : text;
}

/** 'step 12 of 340, 412 ms': the slider's aria-valuetext. Wire times are virtual ms since the simulation began. */
export function describePosition(recording: Recording, cursor: number): string {
  const total = recording.steps.length;
  if (total === 0) return 'no steps';
  const found = eventAt(recording, cursor);
  let time = '';
  if (found?.source.kind === 'wire') time = `, ${ms(found.event.at)}`;
  else if (found?.source.kind === 'query') {
    // Query events carry epoch ms: say how far into the client's recording this step is.
    const first = found.source.events[0]?.at ?? found.event.at;
    time = `, ${ms(found.event.at - first)}`;
  }
  return `step ${cursor + 1} of ${total}${time}`;
}
