/**
 * The HTTP/1.x connection state machine, as data.
 *
 * Each side of a connection has a state per role: the client's state says where it is in sending requests,
 * the server's where it is in sending responses. Both peers run the same table over the same events (one
 * sends an event, the other receives it), so they always agree. Two tables drive it:
 *
 * - EVENT_TRANSITIONS: (role, state, event, sender [, guard]) -> next state. An event with no row is a
 *   protocol error: ours is a local error, the peer's a remote one, and that role's state becomes ERROR.
 * - SETTLE_RULES: conditions checked after every event, in order, until none applies (keep-alive, close,
 *   protocol switch, pipelining). They are what make a connection go round again, or end.
 *
 * Departures from RFC 9112 and from h11, whose model this follows:
 * - Pipelining (RFC 9112 §9.3.2) is modelled, h11 does not: a client may go back to IDLE right after
 *   finishing a request when persistence is known (HTTP/1.1, or a 1.0 keep-alive already confirmed) and the
 *   method is idempotent; the server queues requests and answers them in order.
 * - Keep-Alive "max"/"timeout" are not enforced: they need a clock, which the connection does not own.
 * - ERROR is terminal and not in the tables: every missing row leads there.
 *
 * The docs render diagrams from these tables; do not encode transitions anywhere else.
 */
import type { Http1EventType } from './events';

export type Http1Role = 'client' | 'server';

export type Http1State = 'IDLE' | 'SEND_RESPONSE' | 'SEND_BODY' | 'DONE' | 'MUST_CLOSE' | 'CLOSED' | 'MIGHT_SWITCH_PROTOCOL' | 'SWITCHED_PROTOCOL' | 'ERROR';

export const HTTP1_STATES: Readonly<Record<Http1Role, readonly Http1State[]>> = Object.freeze({
  client: ['IDLE', 'SEND_BODY', 'DONE', 'MUST_CLOSE', 'CLOSED', 'MIGHT_SWITCH_PROTOCOL', 'SWITCHED_PROTOCOL', 'ERROR'],
  server: ['IDLE', 'SEND_RESPONSE', 'SEND_BODY', 'DONE', 'MUST_CLOSE', 'CLOSED', 'SWITCHED_PROTOCOL', 'ERROR'],
});

/** Guards refine a row: a 101 that accepts an Upgrade, a 2xx that accepts a CONNECT. */
export type Http1Guard = 'upgrade-accepted' | 'connect-accepted';

export interface EventTransition {
  readonly id: string;
  /** The role whose state changes. */
  readonly role: Http1Role;
  readonly from: Http1State;
  readonly event: Http1EventType;
  /** Who sends the event: a server's state also moves when the client's request arrives. */
  readonly by: Http1Role;
  readonly guard?: Http1Guard;
  readonly to: Http1State;
  /** A request that arrives while an earlier one is still being answered joins the queue (pipelining). */
  readonly effect?: 'enqueue';
  readonly rfc: string;
}

const row = (role: Http1Role, from: Http1State, event: Http1EventType, to: Http1State, rfc: string, extra: Partial<EventTransition> = {}): EventTransition =>
  Object.freeze({
    id: `${role}:${from}:${event}${extra.by && extra.by !== role ? `@${extra.by}` : ''}${extra.guard ? `[${extra.guard}]` : ''}`,
    role,
    from,
    event,
    by: role,
    to,
    rfc,
    ...extra,
  });

const closable: Http1State[] = ['IDLE', 'DONE', 'MUST_CLOSE', 'CLOSED'];

export const EVENT_TRANSITIONS: readonly EventTransition[] = Object.freeze([
  row('client', 'IDLE', 'request', 'SEND_BODY', 'RFC 9112 §3'),
  row('client', 'SEND_BODY', 'data', 'SEND_BODY', 'RFC 9112 §6'),
  row('client', 'SEND_BODY', 'end-of-message', 'DONE', 'RFC 9112 §6.3'),
  ...closable.map((s) => row('client', s, 'connection-closed', 'CLOSED', 'RFC 9112 §9.6')),

  row('server', 'IDLE', 'request', 'SEND_RESPONSE', 'RFC 9112 §9.3', { by: 'client' }),
  ...(['SEND_RESPONSE', 'SEND_BODY', 'DONE'] as const).map((s) => row('server', s, 'request', s, 'RFC 9112 §9.3.2', { by: 'client', effect: 'enqueue' })),
  // A server may answer before it could read a request at all, e.g. 400 for garbage or 408 on a timeout.
  row('server', 'IDLE', 'response', 'SEND_BODY', 'RFC 9112 §9.5'),
  row('server', 'SEND_RESPONSE', 'informational', 'SEND_RESPONSE', 'RFC 9110 §15.2'),
  row('server', 'SEND_RESPONSE', 'informational', 'SWITCHED_PROTOCOL', 'RFC 9110 §15.2.2', { guard: 'upgrade-accepted' }),
  row('server', 'SEND_RESPONSE', 'response', 'SEND_BODY', 'RFC 9112 §4'),
  row('server', 'SEND_RESPONSE', 'response', 'SWITCHED_PROTOCOL', 'RFC 9110 §9.3.6', { guard: 'connect-accepted' }),
  row('server', 'SEND_BODY', 'data', 'SEND_BODY', 'RFC 9112 §6'),
  row('server', 'SEND_BODY', 'end-of-message', 'DONE', 'RFC 9112 §6.3'),
  ...closable.map((s) => row('server', s, 'connection-closed', 'CLOSED', 'RFC 9112 §9.6')),
]);

/** Conditions the settle rules test; the connection computes them (connection.ts `conditionHolds`). */
export type SettleCondition =
  /** The client's last request proposed a switch (Upgrade, CONNECT) that is not answered yet. */
  | 'switch-pending'
  | 'server-switched'
  /** The server gave a final response that does not switch: the proposal is off. */
  | 'switch-declined'
  /** A request or response said this exchange is the connection's last (RFC 9112 §9.3, §9.6). */
  | 'client-must-close'
  | 'server-must-close'
  | 'peer-closed'
  /** Persistent, idempotent, and persistence known: the next request may go before the response. */
  | 'may-pipeline'
  /** Every request sent has had its final response. */
  | 'all-answered'
  | 'always'
  /** A pipelined request waits for its response. */
  | 'request-queued';

export interface SettleRule {
  readonly id: string;
  readonly role: Http1Role;
  readonly from: readonly Http1State[];
  readonly when: SettleCondition;
  readonly to: Http1State;
  readonly rfc: string;
  readonly why: string;
}

const rule = (id: string, role: Http1Role, from: Http1State[], when: SettleCondition, to: Http1State, rfc: string, why: string): SettleRule =>
  Object.freeze({ id, role, from: Object.freeze(from), when, to, rfc, why });

/** Checked in this order after every event; the first that applies fires, then the list is checked again. */
export const SETTLE_RULES: readonly SettleRule[] = Object.freeze([
  rule(
    'client-proposes-switch',
    'client',
    ['DONE'],
    'switch-pending',
    'MIGHT_SWITCH_PROTOCOL',
    'RFC 9110 §7.8',
    'After Upgrade or CONNECT the client waits to learn which protocol the connection speaks.',
  ),
  rule(
    'client-follows-switch',
    'client',
    ['MIGHT_SWITCH_PROTOCOL'],
    'server-switched',
    'SWITCHED_PROTOCOL',
    'RFC 9110 §15.2.2',
    'The server accepted: the bytes that follow are the new protocol.',
  ),
  rule(
    'client-switch-declined',
    'client',
    ['MIGHT_SWITCH_PROTOCOL'],
    'switch-declined',
    'DONE',
    'RFC 9110 §7.8',
    'The server answered normally: HTTP/1.1 goes on.',
  ),
  rule(
    'client-close',
    'client',
    ['IDLE', 'DONE'],
    'client-must-close',
    'MUST_CLOSE',
    'RFC 9112 §9.6',
    'A "Connection: close" (or HTTP/1.0 without keep-alive) was sent or received: no further request.',
  ),
  rule(
    'server-close',
    'server',
    ['DONE'],
    'server-must-close',
    'MUST_CLOSE',
    'RFC 9112 §9.6',
    'The exchange just finished was the last one: the server closes.',
  ),
  rule('client-peer-closed', 'client', ['IDLE', 'DONE'], 'peer-closed', 'MUST_CLOSE', 'RFC 9112 §9.6', 'The server closed: nothing more can be exchanged.'),
  rule('server-peer-closed', 'server', ['IDLE', 'DONE'], 'peer-closed', 'MUST_CLOSE', 'RFC 9112 §9.6', 'The client closed and nothing is left to answer.'),
  rule('client-pipelines', 'client', ['DONE'], 'may-pipeline', 'IDLE', 'RFC 9112 §9.3.2', 'The next request may be sent before this response arrives.'),
  rule(
    'client-next-request',
    'client',
    ['DONE'],
    'all-answered',
    'IDLE',
    'RFC 9112 §9.3',
    'Persistent connection: the response arrived, the next request may go.',
  ),
  rule('server-next-response', 'server', ['DONE'], 'always', 'IDLE', 'RFC 9112 §9.3', 'Persistent connection: ready for the next request.'),
  rule(
    'server-answers-queued',
    'server',
    ['IDLE'],
    'request-queued',
    'SEND_RESPONSE',
    'RFC 9112 §9.3.2',
    'A pipelined request is waiting: answer it, in order.',
  ),
]);

/**
 * The rows of EVENT_TRANSITIONS grouped by (role, sender, event, state), built once from the table at load:
 * the engine looks a row up on every event, and a scan of the whole table per lookup was a measurable share
 * of a request's cost on `npm run serve`. The table stays the one source; this is only its index.
 */
interface RowSlot {
  plain: EventTransition | undefined;
  readonly guarded: EventTransition[];
}
/** role -> sender -> event -> from-state -> rows. Nested records: no key string is built per lookup. */
type RowIndex = Record<string, Record<string, Record<string, Record<string, RowSlot>>>>;
// Null-prototype records, so a lookup for a name that is not a state ('toString') finds nothing.
const child = <T>(record: Record<string, T>, key: string, make: () => T): T => (record[key] ??= make());
const empty = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
const ROW_INDEX: RowIndex = empty();
for (const t of EVENT_TRANSITIONS) {
  const byEvent = child(
    child(child(ROW_INDEX, t.role, empty<Record<string, Record<string, RowSlot>>>), t.by, empty<Record<string, RowSlot>>),
    t.event,
    empty<RowSlot>,
  );
  const slot = child(byEvent, t.from, () => ({ plain: undefined, guarded: [] as EventTransition[] }));
  // As a scan of the table does: the last plain row wins, the first guarded row whose guard holds wins.
  if (t.guard === undefined) slot.plain = t;
  else slot.guarded.push(t);
}
const slotFor = (role: Http1Role, from: Http1State, event: Http1EventType, by: Http1Role): RowSlot | undefined => ROW_INDEX[role]?.[by]?.[event]?.[from];

/**
 * The row for (role, state, event, sender) when at most one guard holds (the engine's case: a 101 that
 * accepts an Upgrade, a 2xx that accepts a CONNECT), preferring a row with that guard.
 */
export const transitionFor = (role: Http1Role, from: Http1State, event: Http1EventType, by: Http1Role, guard?: Http1Guard): EventTransition | undefined => {
  const slot = slotFor(role, from, event, by);
  if (slot === undefined) return undefined;
  if (guard !== undefined) for (const t of slot.guarded) if (t.guard === guard) return t;
  return slot.plain;
};

/** The row for (role, state, event, sender), preferring a row whose guard holds. */
export const findTransition = (
  role: Http1Role,
  from: Http1State,
  event: Http1EventType,
  by: Http1Role,
  guards: ReadonlySet<Http1Guard> = new Set(),
): EventTransition | undefined => {
  const slot = slotFor(role, from, event, by);
  if (slot === undefined) return undefined;
  for (const t of slot.guarded) if (guards.has(t.guard!)) return t;
  return slot.plain;
};

/**
 * For each (client state, server state), the settle rules that could fire, in SETTLE_RULES order: the
 * rules whose `from` holds the state of their role. The engine checks only these conditions after an event.
 */
const SETTLE_CANDIDATES = empty<Record<string, readonly SettleRule[]>>();
for (const c of HTTP1_STATES.client) {
  const row = (SETTLE_CANDIDATES[c] = empty<readonly SettleRule[]>());
  for (const s of HTTP1_STATES.server) row[s] = SETTLE_RULES.filter((r) => r.from.includes(r.role === 'client' ? c : s));
}
const NO_RULES: readonly SettleRule[] = [];

/** The settle rules that may apply with the client in `client` and the server in `server`, in table order. */
export const settleCandidates = (client: Http1State, server: Http1State): readonly SettleRule[] => SETTLE_CANDIDATES[client]?.[server] ?? NO_RULES;

/** A transition that fired, for traces: which row, for which role, from what to what. */
export type FiredTransition =
  | { readonly kind: 'event'; readonly role: Http1Role; readonly from: Http1State; readonly to: Http1State; readonly row: EventTransition }
  | { readonly kind: 'settle'; readonly role: Http1Role; readonly from: Http1State; readonly to: Http1State; readonly rule: SettleRule }
  | { readonly kind: 'error'; readonly role: Http1Role; readonly from: Http1State; readonly to: 'ERROR'; readonly code: string };
