/**
 * The HTTP/2 stream state machine (RFC 9113 §5.1), as data.
 *
 *                                 +--------+
 *                         send PP |        | recv PP
 *                        ,--------+  idle  +--------.
 *                       /         |        |         \
 *                      v          +--------+          v
 *               +----------+          |           +----------+
 *               |          |          | send H /  |          |
 *        ,------+ reserved |          | recv H    | reserved +------.
 *        |      | (local)  |          |           | (remote) |      |
 *        |      +---+------+          v           +------+---+      |
 *        |          |             +--------+             |          |
 *        |          |     recv ES |        | send ES     |          |
 *        |   send H |     ,-------+  open  +-------.     | recv H   |
 *        |          |    /        |        |        \    |          |
 *        |          v   v         +---+----+         v   v          |
 *        |      +----------+          |           +----------+      |
 *        |      |   half-  |          |           |   half-  |      |
 *        |      |  closed  |          | send R /  |  closed  |      |
 *        |      | (remote) |          | recv R    | (local)  |      |
 *        |      +----+-----+          |           +-----+----+      |
 *        |           |                |                 |           |
 *        |           | send ES /      |       recv ES / |           |
 *        |           |  send R /      v        send R / |           |
 *        |           |  recv R    +--------+   recv R   |           |
 *        | send R /  `----------->|        |<-----------'  send R / |
 *        | recv R                 | closed |               recv R   |
 *        `----------------------->|        |<-----------------------'
 *                                 +--------+
 *
 *   send: the endpoint sends this frame; recv: the endpoint receives it.
 *   H: HEADERS (with its CONTINUATIONs), ES: the END_STREAM flag, R: RST_STREAM,
 *   PP: PUSH_PROMISE (the transition is on the *promised* stream).
 *
 * What lives here: the transitions above plus the frames that leave the state unchanged (DATA in open,
 * WINDOW_UPDATE and PRIORITY almost everywhere), and what happens to everything else. A frame that
 * carries END_STREAM is two events: the frame itself, then END_STREAM.
 *
 * What does not: stream identifier rules, concurrency limits, flow control and header validation,
 * which the connection checks before consulting this table.
 *
 * Errors. Anything not in TRANSITIONS is an error, looked up in ERRORS by (state, direction), except
 * that receiving a PUSH_PROMISE for a stream that is not idle is always a connection PROTOCOL_ERROR:
 * - receiving: RFC 9113 §5.1 names the code per state: PROTOCOL_ERROR as a connection error in idle
 *   and the reserved states, STREAM_CLOSED as a stream error in half-closed (remote) and closed;
 * - sending: the caller misused the API; the error is local and nothing goes on the wire.
 * Departures from the RFC: in closed, a received WINDOW_UPDATE or RST_STREAM is always accepted and
 * ignored (the RFC allows them "for a short period" after closing, a time the sans-I/O engine does
 * not track), and DATA/HEADERS on a closed stream are a stream error (the RFC allows either scope).
 */
import type { ErrorCodeName } from './constants';

export const STREAM_STATES = ['idle', 'reserved_local', 'reserved_remote', 'open', 'half_closed_local', 'half_closed_remote', 'closed'] as const;
export type StreamState = (typeof STREAM_STATES)[number];

export const STREAM_EVENTS = ['HEADERS', 'DATA', 'END_STREAM', 'PUSH_PROMISE', 'RST_STREAM', 'PRIORITY', 'WINDOW_UPDATE'] as const;
export type StreamEvent = (typeof STREAM_EVENTS)[number];

export type Direction = 'send' | 'recv';

type Row = readonly [StreamState, StreamEvent, Direction, StreamState];

/** Legal (state, event, direction) -> next state. */
export const TRANSITIONS: readonly Row[] = [
  // idle
  ['idle', 'HEADERS', 'send', 'open'],
  ['idle', 'HEADERS', 'recv', 'open'],
  ['idle', 'PUSH_PROMISE', 'send', 'reserved_local'],
  ['idle', 'PUSH_PROMISE', 'recv', 'reserved_remote'],
  ['idle', 'PRIORITY', 'send', 'idle'],
  ['idle', 'PRIORITY', 'recv', 'idle'],
  // reserved (local): we promised this stream and may now answer it
  ['reserved_local', 'HEADERS', 'send', 'half_closed_remote'],
  ['reserved_local', 'RST_STREAM', 'send', 'closed'],
  ['reserved_local', 'RST_STREAM', 'recv', 'closed'],
  ['reserved_local', 'PRIORITY', 'send', 'reserved_local'],
  ['reserved_local', 'PRIORITY', 'recv', 'reserved_local'],
  ['reserved_local', 'WINDOW_UPDATE', 'recv', 'reserved_local'],
  // reserved (remote): the peer promised this stream
  ['reserved_remote', 'HEADERS', 'recv', 'half_closed_local'],
  ['reserved_remote', 'RST_STREAM', 'send', 'closed'],
  ['reserved_remote', 'RST_STREAM', 'recv', 'closed'],
  ['reserved_remote', 'PRIORITY', 'send', 'reserved_remote'],
  ['reserved_remote', 'PRIORITY', 'recv', 'reserved_remote'],
  ['reserved_remote', 'WINDOW_UPDATE', 'send', 'reserved_remote'],
  // open
  ['open', 'HEADERS', 'send', 'open'],
  ['open', 'HEADERS', 'recv', 'open'],
  ['open', 'DATA', 'send', 'open'],
  ['open', 'DATA', 'recv', 'open'],
  ['open', 'END_STREAM', 'send', 'half_closed_local'],
  ['open', 'END_STREAM', 'recv', 'half_closed_remote'],
  ['open', 'RST_STREAM', 'send', 'closed'],
  ['open', 'RST_STREAM', 'recv', 'closed'],
  ['open', 'PRIORITY', 'send', 'open'],
  ['open', 'PRIORITY', 'recv', 'open'],
  ['open', 'WINDOW_UPDATE', 'send', 'open'],
  ['open', 'WINDOW_UPDATE', 'recv', 'open'],
  // half-closed (local): we are done sending; the peer is not
  ['half_closed_local', 'HEADERS', 'recv', 'half_closed_local'],
  ['half_closed_local', 'DATA', 'recv', 'half_closed_local'],
  ['half_closed_local', 'END_STREAM', 'recv', 'closed'],
  ['half_closed_local', 'RST_STREAM', 'send', 'closed'],
  ['half_closed_local', 'RST_STREAM', 'recv', 'closed'],
  ['half_closed_local', 'PRIORITY', 'send', 'half_closed_local'],
  ['half_closed_local', 'PRIORITY', 'recv', 'half_closed_local'],
  ['half_closed_local', 'WINDOW_UPDATE', 'send', 'half_closed_local'],
  ['half_closed_local', 'WINDOW_UPDATE', 'recv', 'half_closed_local'],
  // half-closed (remote): the peer is done sending; we are not
  ['half_closed_remote', 'HEADERS', 'send', 'half_closed_remote'],
  ['half_closed_remote', 'DATA', 'send', 'half_closed_remote'],
  ['half_closed_remote', 'END_STREAM', 'send', 'closed'],
  ['half_closed_remote', 'RST_STREAM', 'send', 'closed'],
  ['half_closed_remote', 'RST_STREAM', 'recv', 'closed'],
  ['half_closed_remote', 'PRIORITY', 'send', 'half_closed_remote'],
  ['half_closed_remote', 'PRIORITY', 'recv', 'half_closed_remote'],
  ['half_closed_remote', 'WINDOW_UPDATE', 'send', 'half_closed_remote'],
  ['half_closed_remote', 'WINDOW_UPDATE', 'recv', 'half_closed_remote'],
  // closed: only PRIORITY may be sent; stragglers are tolerated on receipt (see header)
  ['closed', 'PRIORITY', 'send', 'closed'],
  ['closed', 'PRIORITY', 'recv', 'closed'],
  ['closed', 'WINDOW_UPDATE', 'recv', 'closed'],
  ['closed', 'RST_STREAM', 'recv', 'closed'],
];

export interface TransitionError {
  readonly code: ErrorCodeName;
  readonly scope: 'connection' | 'stream';
  readonly side: 'local' | 'remote';
}

/** What an event missing from TRANSITIONS means, by (state, direction). */
export const ERRORS: Readonly<Record<StreamState, Readonly<Record<Direction, TransitionError>>>> = {
  idle: {
    recv: { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' },
    send: { code: 'PROTOCOL_ERROR', scope: 'stream', side: 'local' },
  },
  reserved_local: {
    recv: { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' },
    send: { code: 'PROTOCOL_ERROR', scope: 'stream', side: 'local' },
  },
  reserved_remote: {
    recv: { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' },
    send: { code: 'PROTOCOL_ERROR', scope: 'stream', side: 'local' },
  },
  open: {
    recv: { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' },
    send: { code: 'PROTOCOL_ERROR', scope: 'stream', side: 'local' },
  },
  half_closed_local: {
    recv: { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' },
    send: { code: 'STREAM_CLOSED', scope: 'stream', side: 'local' },
  },
  half_closed_remote: {
    recv: { code: 'STREAM_CLOSED', scope: 'stream', side: 'remote' },
    send: { code: 'PROTOCOL_ERROR', scope: 'stream', side: 'local' },
  },
  closed: {
    recv: { code: 'STREAM_CLOSED', scope: 'stream', side: 'remote' },
    send: { code: 'STREAM_CLOSED', scope: 'stream', side: 'local' },
  },
};

/**
 * The table indexed by state, then event and direction, holding each row's result built once and frozen:
 * the lookup runs for every frame in both directions, so it neither builds a key string nor a result.
 */
const INDEX = new Map<StreamState, Record<Direction, Map<StreamEvent, TransitionResult>>>();
for (const [s, e, d, n] of TRANSITIONS) {
  let byDirection = INDEX.get(s);
  if (!byDirection) INDEX.set(s, (byDirection = { send: new Map(), recv: new Map() }));
  byDirection[d].set(e, Object.freeze({ ok: true as const, next: n }));
}

export type TransitionResult = { readonly ok: true; readonly next: StreamState } | ({ readonly ok: false } & TransitionError);

/** Looks up (state, event, direction): the next state, or the error the RFC prescribes. */
export function transition(state: StreamState, event: StreamEvent, direction: Direction): TransitionResult {
  const row = INDEX.get(state)?.[direction].get(event);
  if (row !== undefined) return row;
  // RFC 9113 §6.6: promising a stream that is not idle is a connection error whatever its state.
  if (event === 'PUSH_PROMISE' && direction === 'recv') return { ok: false, ...PROMISE_ERROR };
  return { ok: false, ...ERRORS[state][direction] };
}

const PROMISE_ERROR: TransitionError = { code: 'PROTOCOL_ERROR', scope: 'connection', side: 'remote' };
