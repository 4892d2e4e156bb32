/**
 * The state machines the diagrams draw, each built from the engine's own transition table: one table row is
 * one edge, and nothing here invents a transition. What is hand-made is only the picture: where each state
 * sits (a fixed position map per machine, like the RFC 9113 §5.1 ASCII diagram) and which edges bend.
 *
 * Tables: HTTP/1 connection (src/wire/http1/state.ts, one machine per role, h11-style; a settle rule with
 * several source states is one row per source state), client connection management
 * (src/wire/net/connection-table.ts), HTTP/2 stream (src/wire/http2/stream-states.ts), the two parts of a
 * QUIC stream (src/wire/http3/stream-states.ts), query status x
 * fetchStatus and mutation status (src/query/stateTable.ts).
 */
import {
  CLIENT_CONNECTION_TABLE,
  HTTP1_EVENT_TRANSITIONS,
  HTTP1_SETTLE_RULES,
  QUIC_RECV_TRANSITIONS,
  QUIC_SEND_TRANSITIONS,
  STREAM_TRANSITIONS,
} from 'roundtrip/wire';
import type { Http1Role } from 'roundtrip/wire';
import { MUTATION_STATUS_TRANSITIONS, QUERY_STATUS_TRANSITIONS } from 'roundtrip/query';

export type MachineId =
  | 'http1-client-role'
  | 'http1-server-role'
  | 'client-connection'
  | 'h2-stream'
  | 'quic-stream-send'
  | 'quic-stream-recv'
  | 'query'
  | 'mutation';

export interface StateNode {
  readonly id: string;
  readonly label: string;
  readonly x: number;
  readonly y: number;
}

export interface MachineRow {
  /** Unique within the machine; what a trace names when this row fires. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  /** Short edge label: 'send ES', 'fetch (offline)'. */
  readonly label: string;
  /** The label spelt out where it abbreviates ('send END_STREAM'), for the status line. */
  readonly words?: string;
  /** The row as the table beside the diagram shows it, one string per column. */
  readonly cells: readonly string[];
}

export interface MachineDef {
  readonly id: MachineId;
  readonly title: string;
  /** Where the table comes from, for the caption. */
  readonly source: string;
  readonly states: readonly StateNode[];
  /** A state reached by any input that has no row (an error), drawn apart with no edges. */
  readonly errorState?: string;
  readonly initial: string;
  readonly columns: readonly string[];
  readonly rows: readonly MachineRow[];
  /** Curvature per state pair `from>to` for edges that would cross a state; pairs drawn both ways bend anyway. */
  readonly bends?: Readonly<Record<string, number>>;
  /** Where along an edge its label sits (0: at the source, 1: at the target; default the middle). */
  readonly labelAt?: Readonly<Record<string, number>>;
  /** Which side of a state its self-loop sits on. */
  readonly loops?: Readonly<Record<string, 'top' | 'bottom' | 'left' | 'right' | 'ne' | 'nw'>>;
}

const nodes = (spec: Record<string, [number, number, string?]>): StateNode[] =>
  Object.entries(spec).map(([id, [x, y, label]]) => ({ id, label: label ?? id, x, y }));

// --- HTTP/1 connection, one diagram per role --------------------------------------------------------

function http1Role(role: Http1Role): MachineDef {
  const rows: MachineRow[] = [];
  for (const t of HTTP1_EVENT_TRANSITIONS) {
    if (t.role !== role) continue;
    const by = t.by !== role ? ` (${t.by}'s)` : '';
    const guard = t.guard ? ` [${t.guard}]` : '';
    rows.push({
      id: t.id,
      from: t.from,
      to: t.to,
      label: `${t.event}${by}${guard}`,
      cells: [t.from, `${t.event}${by}${guard}`, t.to, `${t.effect === 'enqueue' ? 'queued (pipelining). ' : ''}${t.rfc}`],
    });
  }
  for (const r of HTTP1_SETTLE_RULES) {
    if (r.role !== role) continue;
    for (const from of r.from) {
      rows.push({ id: `${r.id}@${from}`, from, to: r.to, label: `if ${r.when}`, cells: [from, `if ${r.when} (${r.id})`, r.to, `${r.why} ${r.rfc}`] });
    }
  }
  const client = {
    IDLE: [110, 100],
    SEND_BODY: [350, 100],
    DONE: [620, 100],
    MUST_CLOSE: [350, 260],
    MIGHT_SWITCH_PROTOCOL: [680, 260],
    SWITCHED_PROTOCOL: [680, 410],
    CLOSED: [350, 410],
    ERROR: [130, 410],
  } as Record<string, [number, number]>;
  const server = {
    IDLE: [110, 100],
    SEND_RESPONSE: [370, 100],
    SEND_BODY: [630, 100],
    DONE: [630, 260],
    MUST_CLOSE: [370, 260],
    CLOSED: [370, 410],
    SWITCHED_PROTOCOL: [140, 260],
    ERROR: [140, 410],
  } as Record<string, [number, number]>;
  return {
    id: role === 'client' ? 'http1-client-role' : 'http1-server-role',
    title: `HTTP/1.x connection: the ${role}'s state`,
    source: 'src/wire/http1/state.ts (EVENT_TRANSITIONS and SETTLE_RULES)',
    states: nodes(role === 'client' ? client : server),
    errorState: 'ERROR',
    initial: 'IDLE',
    columns: ['From', 'Event or condition', 'To', 'Note'],
    rows,
    bends:
      role === 'client'
        ? { 'DONE>IDLE': -45, 'DONE>CLOSED': 20, 'DONE>MIGHT_SWITCH_PROTOCOL': 40, 'MIGHT_SWITCH_PROTOCOL>DONE': 40 }
        : { 'IDLE>SEND_BODY': 45, 'IDLE>CLOSED': 30 },
    labelAt: role === 'client' ? {} : { 'SEND_RESPONSE>SWITCHED_PROTOCOL': 0.72, 'IDLE>MUST_CLOSE': 0.3, 'DONE>IDLE': 0.35 },
    loops: role === 'client' ? { CLOSED: 'bottom', SEND_BODY: 'top' } : { CLOSED: 'bottom', SEND_BODY: 'top', SEND_RESPONSE: 'top', DONE: 'bottom' },
  };
}

// --- client connection management ---------------------------------------------------------------

const clientConnection: MachineDef = {
  id: 'client-connection',
  title: 'Client connection management',
  source: 'src/wire/net/connection-table.ts (CLIENT_CONNECTION_TABLE)',
  states: nodes({ connecting: [110, 80], idle: [360, 80], busy: [620, 80], pipelined: [620, 300], closing: [130, 300], closed: [400, 460] }),
  initial: 'connecting',
  columns: ['From', 'Input', 'To', 'Note'],
  rows: CLIENT_CONNECTION_TABLE.map((r) => ({ id: `${r.from}:${r.input}`, from: r.from, to: r.to, label: r.input, cells: [r.from, r.input, r.to, r.note] })),
  bends: { 'busy>pipelined': 60, 'pipelined>busy': 60 },
  loops: { pipelined: 'right', closing: 'bottom' },
};

// --- HTTP/2 stream ------------------------------------------------------------------------------

/** The abbreviations of the RFC 9113 §5.1 diagram. */
const H2_ABBR: Readonly<Record<string, string>> = {
  HEADERS: 'H',
  END_STREAM: 'ES',
  RST_STREAM: 'R',
  PUSH_PROMISE: 'PP',
  DATA: 'D',
  PRIORITY: 'P',
  WINDOW_UPDATE: 'WU',
};

const h2Stream: MachineDef = {
  id: 'h2-stream',
  title: 'HTTP/2 stream states (RFC 9113 §5.1)',
  source: 'src/wire/http2/stream-states.ts (TRANSITIONS)',
  states: nodes({
    idle: [430, 45],
    reserved_local: [160, 150, 'reserved (local)'],
    reserved_remote: [700, 150, 'reserved (remote)'],
    open: [430, 215],
    half_closed_remote: [200, 345, 'half-closed (remote)'],
    half_closed_local: [660, 345, 'half-closed (local)'],
    closed: [430, 450],
  }),
  initial: 'idle',
  columns: ['From', 'Frame or flag', 'Direction', 'To'],
  rows: STREAM_TRANSITIONS.map(([from, event, direction, to]) => ({
    id: `${from}:${event}:${direction}`,
    from,
    to,
    label: `${direction} ${H2_ABBR[event] ?? event}`,
    words: `${direction} ${event}`,
    cells: [from, event, direction, to],
  })),
  loops: {
    idle: 'right',
    reserved_local: 'top',
    reserved_remote: 'top',
    open: 'right',
    half_closed_remote: 'bottom',
    half_closed_local: 'bottom',
    closed: 'bottom',
  },
};

// --- QUIC stream, sending and receiving parts (RFC 9000 §3.1, §3.2) ---------------------------------

/** State and row ids without spaces ('Data Sent' -> 'data_sent'): the diagram lists row ids space-separated. */
export const quicStateId = (state: string): string => state.toLowerCase().replace(/ /g, '_');
export const quicRowId = (from: string, input: string): string => `${quicStateId(from)}:${input.replace(/ /g, '_')}`;

// Both figures have the same shape: the data path down the left, the reset path down the right.
function quicPart(part: 'send' | 'recv'): MachineDef {
  const table: readonly (readonly [string, string, string])[] = part === 'send' ? QUIC_SEND_TRANSITIONS : QUIC_RECV_TRANSITIONS;
  const [a, b, c, d, e, f] =
    part === 'send'
      ? ['Ready', 'Send', 'Data Sent', 'Data Recvd', 'Reset Sent', 'Reset Recvd']
      : ['Recv', 'Size Known', 'Data Recvd', 'Data Read', 'Reset Recvd', 'Reset Read'];
  const place = (name: string, x: number, y: number): StateNode => ({ id: quicStateId(name), label: name, x, y });
  return {
    id: part === 'send' ? 'quic-stream-send' : 'quic-stream-recv',
    title: part === 'send' ? 'QUIC stream, sending part (RFC 9000 §3.1)' : 'QUIC stream, receiving part (RFC 9000 §3.2)',
    source: `src/wire/http3/stream-states.ts (${part === 'send' ? 'QUIC_SEND_TRANSITIONS' : 'QUIC_RECV_TRANSITIONS'})`,
    states: [place(a, 240, 60), place(b, 240, 200), place(c, 240, 340), place(d, 240, 470), place(e, 580, 340), place(f, 580, 470)],
    initial: quicStateId(a),
    columns: ['From', 'Input', 'To'],
    rows: table.map(([from, input, to]) => ({
      id: quicRowId(from, input),
      from: quicStateId(from),
      to: quicStateId(to),
      label: input,
      cells: [from, input, to],
    })),
    loops: Object.fromEntries(
      [
        [a, 'left'],
        [b, 'left'],
        [c, 'left'],
        [d, 'left'],
        [e, 'right'],
        [f, 'right'],
      ].map(([n, side]) => [quicStateId(n!), side as 'left' | 'right']),
    ),
  };
}

// --- query status x fetchStatus, mutation status -------------------------------------------------

// Columns by status, rows by fetchStatus: setQueryData runs across, fetch / pause / continue run down. The
// columns are as close as the labels between them allow and the rows further apart, so the diagram's
// diagonals have room: the whole fits a 1280 px window's panel (about 900 px) without scrolling sideways.
const QX: Record<string, number> = { pending: 190, success: 450, error: 710 };
const QY: Record<string, number> = { idle: 100, fetching: 320, paused: 540 };

const queryStateId = (s: { status: string; fetchStatus: string }) => `${s.status}/${s.fetchStatus}`;

function queryLabel(r: (typeof QUERY_STATUS_TRANSITIONS)[number]): string {
  if (r.action === 'success' && r.manual) return 'setQueryData';
  const conditions = [r.network === 'offline' ? 'offline' : undefined, r.data === undefined ? undefined : r.data ? 'has data' : 'no data'].filter(Boolean);
  return `${r.action}${conditions.length ? ` (${conditions.join(', ')})` : ''}`;
}

const query: MachineDef = {
  id: 'query',
  title: 'Query: status × fetchStatus',
  source: 'src/query/stateTable.ts (QUERY_STATUS_TRANSITIONS, checked against queryReducer)',
  states: Object.keys(QX).flatMap((status) => Object.keys(QY).map((f) => ({ id: `${status}/${f}`, label: `${status} · ${f}`, x: QX[status]!, y: QY[f]! }))),
  initial: 'pending/idle',
  columns: ['From', 'Action', 'To', 'Note'],
  rows: QUERY_STATUS_TRANSITIONS.map((r) => ({
    id: r.id,
    from: queryStateId(r.from),
    to: queryStateId(r.to),
    label: queryLabel(r),
    cells: [queryStateId(r.from), queryLabel(r), queryStateId(r.to), r.note],
  })),
  bends: {
    // fetch while offline skips the fetching row; long diagonals would run through success · fetching.
    'pending/idle>pending/paused': -95,
    'success/idle>success/paused': -95,
    'error/idle>error/paused': -95,
    'error/paused>error/idle': -95,
    'error/idle>pending/paused': 120,
    'pending/paused>error/idle': 120,
  },
  loops: {
    'pending/idle': 'nw',
    'pending/fetching': 'nw',
    'pending/paused': 'nw',
    'success/idle': 'top',
    'success/fetching': 'ne',
    'success/paused': 'ne',
    'error/idle': 'ne',
    'error/fetching': 'ne',
    'error/paused': 'ne',
  },
};

const mutationLabel = (r: (typeof MUTATION_STATUS_TRANSITIONS)[number]) => `${r.action}${r.paused === undefined ? '' : r.paused ? ' (paused)' : ''}`;

const mutation: MachineDef = {
  id: 'mutation',
  title: 'Mutation status',
  source: 'src/query/stateTable.ts (MUTATION_STATUS_TRANSITIONS, checked against the mutation reducer)',
  states: nodes({ idle: [90, 150], pending: [330, 150], paused: [330, 330, 'pending · paused'], success: [580, 60], error: [580, 250] }),
  initial: 'idle',
  columns: ['From', 'Action', 'To', 'Note'],
  rows: MUTATION_STATUS_TRANSITIONS.map((r) => ({
    id: r.id,
    from: r.from,
    to: r.to,
    label: mutationLabel(r),
    cells: [r.from, mutationLabel(r), r.to, r.note],
  })),
  loops: { pending: 'top', paused: 'bottom' },
};

export const MACHINES: Readonly<Record<MachineId, MachineDef>> = {
  'http1-client-role': http1Role('client'),
  'http1-server-role': http1Role('server'),
  'client-connection': clientConnection,
  'h2-stream': h2Stream,
  'quic-stream-send': quicPart('send'),
  'quic-stream-recv': quicPart('recv'),
  query,
  mutation,
};
