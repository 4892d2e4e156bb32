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
import { dropWords } from './drop-words';

const ms = (x: number) => `${formatNumber(x, 1)} ms`;
const bytes = (n: number) => `${formatNumber(n, 1)} byte${n === 1 ? '' : 's'}`;
/** The congestion-control algorithm as a reader knows it: CUBIC (RFC 9438) or NewReno (RFC 6582). */
const congestionName = (algorithm: 'cubic' | 'newreno') => (algorithm === 'cubic' ? 'CUBIC' : 'NewReno');
/** Why TCP resent a segment other than on a timeout (RFC 5681 §3.2 with SACK; RFC 8985 §6.2 RACK, §7 TLP). */
const retransmitWhy = {
  'packet-threshold': 'three later segments were acknowledged (fast retransmit)',
  'time-threshold': 'overdue by a round trip plus a quarter of the minimum RTT (RACK)',
  'tail-loss-probe': 'no ACK for two round trips: a tail loss probe',
} as const;
const TLS_NAMES: Record<string, string> = { tcp: 'TCP', 'tls1.2': 'TLS 1.2', 'tls1.3': 'TLS 1.3' };
const tls = (p: string) => TLS_NAMES[p] ?? p;
const flagList = (flags: readonly string[]) => (flags.length > 0 ? `, ${flags.join(', ')}` : '');

/** The first line of an HTTP/1 message, when the bytes start with one; else ''. */
function firstLine(data: string): string {
  const end = data.indexOf('\r\n');
  const line = end > 0 ? data.slice(0, Math.min(end, 120)) : '';
  return /^[A-Z]+ \S+ HTTP\/\d|^HTTP\/\d/.test(line) ? `: ${line}` : '';
}

/**
 * What each HTTP/1 settle rule (src/wire/http1/state.ts SETTLE_RULES) means for the role it moves, completing
 * "the server ...". Kept here rather than read from roundtrip/wire, which the panel's first load does not
 * otherwise need; describe.test.ts checks that every rule has its words.
 */
export const SETTLE_RULE_WORDS: Readonly<Record<string, string>> = {
  'client-proposes-switch': 'waits to learn whether the server switches protocols',
  'client-follows-switch': 'follows the server to the new protocol',
  'client-switch-declined': 'goes on in HTTP/1.1: the server declined the switch',
  'client-close': 'will send no further request on this connection',
  'server-close': 'closes: the exchange just finished was the last',
  'client-peer-closed': 'can send nothing more: the server closed',
  'server-peer-closed': 'has nothing left to answer: the client closed',
  'client-pipelines': 'may pipeline: send the next request before this response arrives',
  'client-next-request': 'may send the next request: the response arrived',
  'server-next-response': 'is ready for the next request',
  'server-answers-queued': 'answers the next pipelined request',
};

const HTTP1_EVENT_WORDS: Readonly<Record<string, string>> = {
  request: 'request',
  response: 'response',
  informational: 'informational (1xx) response',
  data: 'body data',
  'end-of-message': 'end of message',
  'connection-closed': 'closing the connection',
};

/**
 * A state machine's step in words, the engine and its row id as the detail in brackets: "c1: the server is
 * ready for the next request (DONE → IDLE; rule server-next-response in the server's engine)", where the
 * trace says "server:DONE → server:IDLE on server-next-response". Each HTTP/1 engine tracks both roles
 * (h11-style), so a role's state as the other side's engine tracks it says so.
 */
function describeTransition(e: Extract<TraceEvent, { type: 'transition' }>): string {
  const http1 = /^http1-(client|server)$/.exec(e.machine);
  if (!http1) {
    const who = e.machine === 'client-connection' ? "the client's connection" : e.machine.startsWith('proxy-') ? 'the proxy' : e.machine;
    return `${e.connectionId}: ${who} goes from ${e.from} to ${e.to} (${e.input})`;
  }
  const engine = http1[1]!;
  const [role = '', from = e.from] = e.from.split(':');
  const to = e.to.split(':')[1] ?? e.to;
  const tracked = role === engine ? '' : `, as the ${engine} tracks it`;
  const states = `${from} → ${to}`;
  const words = SETTLE_RULE_WORDS[e.input];
  if (words) return `${e.connectionId}: the ${role} ${words}${tracked} (${states}; rule ${e.input} in the ${engine}'s engine)`;
  // Event rows: "server:IDLE:request@client[guard]" (state.ts EVENT_TRANSITIONS ids).
  const row = /^\w+:\w+:([\w-]+)(?:@(\w+))?/.exec(e.input);
  if (row) {
    const by = row[2] ?? role;
    const whose = by === role ? 'its' : `the ${by}'s`;
    const change = from === to ? `stays in ${to}` : `goes from ${from} to ${to}`;
    return `${e.connectionId}: the ${role} ${change} on ${whose} ${HTTP1_EVENT_WORDS[row[1]!] ?? row[1]}${tracked} (${engine}'s engine)`;
  }
  // An engine error: "error: <code>".
  return `${e.connectionId}: the ${role} goes from ${from} to ${to}${tracked}: ${e.input} (${engine}'s engine)`;
}

/** One trace event of roundtrip/wire in words. */
export function describeWireEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'connection-opening':
      return `${e.connectionId}: ${e.from} opens a connection to ${e.address} (RTT ${ms(e.rtt)}${e.congestionControl ? `, ${congestionName(e.congestionControl)}` : ''})`;
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
      return `${e.connectionId}: bytes ${e.offset}–${e.offset + e.length} from ${e.from} ${dropWords(e.cause)}`;
    case 'retransmit':
      return e.reason === 'timeout'
        ? `${e.connectionId}: ${e.from} retransmits bytes ${e.offset}–${e.offset + e.length} after a ${ms(e.rto)} timeout (attempt ${e.attempt})`
        : `${e.connectionId}: ${e.from} retransmits bytes ${e.offset}–${e.offset + e.length}, ${retransmitWhy[e.reason]} (attempt ${e.attempt})`;
    case 'hol-blocked':
      return `${e.connectionId}: ${e.by} holds ${bytes(e.heldBytes)} waiting for byte ${e.waitingFor} (head-of-line blocking)`;
    case 'message-parsed':
      return `${e.connectionId}: ${e.by} parsed a ${e.kind}: ${e.startLine}`;
    case 'protocol-error':
      return `${e.connectionId}: ${e.by} rejects the bytes${e.offset === null ? '' : ` at offset ${e.offset}`} (${e.code})${e.status === null ? '' : `, answers ${e.status}`}: ${e.message}`;
    case 'transition':
      return describeTransition(e);
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
      return e.discarded
        ? `${e.connectionId}: server's handler for ${e.method} ${e.target} ran although the stream was reset; its ${e.status} is dropped (${e.route})`
        : `${e.connectionId}: server answers ${e.method} ${e.target} with ${e.status} (${e.route})`;
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
      return `${e.connectionId}: QUIC connection to ${e.address}${e.resumed ? ' (resumed, 0-RTT)' : ''}${e.congestionControl ? `, ${congestionName(e.congestionControl)}` : ''}`;
    case 'quic-handshake':
      return `${e.connectionId}: ${e.messages} from ${e.from} (${e.space})`;
    case 'quic-ready':
      return `${e.connectionId}: ${e.side} ready after ${ms(e.handshakeMs)}`;
    case 'quic-packet-sent':
      return `${e.connectionId}: ${e.from} sent ${e.probe ? 'probe ' : ''}packet ${e.packetNumber} (${e.space}, ${bytes(e.size)}): ${e.frames.join('; ')}`;
    case 'quic-datagram-dropped':
      return `${e.connectionId}: packet ${e.packetNumbers.join(', ')} from ${e.from} ${dropWords(e.cause)}`;
    case 'quic-packets-lost':
      return `${e.connectionId}: ${e.from} declares packet ${e.packetNumbers.join(', ')} lost (${e.reason})`;
    case 'quic-pto':
      return `${e.connectionId}: ${e.from} probe timeout ${ms(e.pto)} (#${e.count})`;
    case 'quic-congestion':
      return `${e.connectionId}: ${e.from} congestion window ${bytes(e.cwnd)}, ${e.phase}${e.algorithm ? ` (${congestionName(e.algorithm)})` : ''}`;
    case 'quic-stream-blocked':
      return `stream ${e.streamId}: ${e.by} holds ${bytes(e.heldBytes)} waiting for byte ${e.waitingFor}`;
    case 'quic-stream-transition':
      return `stream ${e.streamId} (${e.side}, ${e.part === 'send' ? 'sending' : 'receiving'} part): ${e.from} → ${e.to} on ${e.input}`;
    case 'quic-connection-closed':
      return `${e.connectionId}: closed by ${e.by} (error ${e.errorCode}${e.reason ? `, ${e.reason}` : ''})`;
    case 'http3-frame':
      return `stream ${e.streamId}: ${e.frame} from ${e.from}, ${bytes(e.length)}`;
    case 'qpack-instructions':
      return `stream ${e.streamId}: QPACK ${e.stream} instructions from ${e.from}, ${bytes(e.length)} (Insert Count ${e.insertCount})`;
    case 'qpack-blocked':
      return `stream ${e.streamId}: ${e.side} holds the field section, Required Insert Count ${e.requiredInsertCount} with ${e.insertCount} received (RFC 9204 §2.1.2)`;
    case 'qpack-unblocked':
      return `stream ${e.streamId}: ${e.side} decodes the field section, its ${e.requiredInsertCount} inserts arrived`;
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
  const text = found.source.kind === 'wire' ? describeWireEvent(found.event as TraceEvent) : describeQueryEvent(found.event as QueryVizEvent);
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
