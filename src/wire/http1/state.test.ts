import { describe, expect, it } from 'vitest';
import { WireError } from '../errors';
import { Http1Connection } from './connection';
import {
  type Http1Event,
  HTTP1_EVENT_TYPES,
  type Http1EventType,
  dataEvent,
  endOfMessageEvent,
  informationalEvent,
  requestEvent,
  responseEvent,
} from './events';
import { EVENT_TRANSITIONS, HTTP1_STATES, type Http1Role, type Http1State, SETTLE_RULES, findTransition } from './state';

const sample: Record<Http1EventType, Http1Event> = {
  request: requestEvent({ method: 'GET', target: '/', headers: [{ name: 'Host', value: 'a' }] }),
  informational: informationalEvent({ status: 100, reason: 'Continue' }),
  response: responseEvent({ status: 200, reason: 'OK', headers: [{ name: 'Content-Length', value: '0' }] }),
  data: dataEvent(new Uint8Array(0)),
  'end-of-message': endOfMessageEvent(),
  'connection-closed': { type: 'connection-closed' },
};

const roles: Http1Role[] = ['client', 'server'];
const other = (r: Http1Role): Http1Role => (r === 'client' ? 'server' : 'client');

/** A connection with one role's state set directly (white-box: the table is what is under test). */
const forced = (ours: Http1Role, role: Http1Role, state: Http1State) => {
  const c = new Http1Connection({ role: ours });
  (c as unknown as { st: Record<Http1Role, Http1State> }).st[role] = state;
  return c;
};

describe('HTTP/1 state tables are well formed', () => {
  it('uses only the declared states, and never leaves ERROR', () => {
    for (const t of EVENT_TRANSITIONS) {
      expect(HTTP1_STATES[t.role]).toContain(t.from);
      expect(HTTP1_STATES[t.role]).toContain(t.to);
      expect(t.from).not.toBe('ERROR');
    }
    for (const r of SETTLE_RULES) {
      for (const s of r.from) expect(HTTP1_STATES[r.role]).toContain(s);
      expect(HTTP1_STATES[r.role]).toContain(r.to);
    }
  });

  it('has unique row ids and at most one unguarded row per (role, state, event, sender)', () => {
    const ids = EVENT_TRANSITIONS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = EVENT_TRANSITIONS.filter((t) => !t.guard).map((t) => `${t.role}|${t.from}|${t.event}|${t.by}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('cites an RFC on every row and rule', () => {
    for (const t of [...EVENT_TRANSITIONS, ...SETTLE_RULES]) expect(t.rfc).toMatch(/^RFC \d+ §/);
  });

  it('every state except ERROR is reachable from IDLE through the tables', () => {
    for (const role of roles) {
      const seen = new Set<Http1State>(['IDLE']);
      for (let grew = true; grew; ) {
        grew = false;
        const edges = [
          ...EVENT_TRANSITIONS.filter((t) => t.role === role).map((t) => [t.from, t.to] as const),
          ...SETTLE_RULES.filter((r) => r.role === role).flatMap((r) => r.from.map((f) => [f, r.to] as const)),
        ];
        for (const [f, t] of edges) if (seen.has(f) && !seen.has(t)) grew = seen.add(t) !== undefined;
      }
      expect([...seen].sort()).toEqual(HTTP1_STATES[role].filter((s) => s !== 'ERROR').sort());
    }
  });
});

describe('sending: every (role, state, event) pair follows the table', () => {
  const pairs = roles.flatMap((role) => HTTP1_STATES[role].flatMap((state) => HTTP1_EVENT_TYPES.map((ev) => [role, state, ev] as const)));

  it.each(pairs)('%s in %s sends %s', (role, state, type) => {
    const c = forced(role, role, state);
    const row = state === 'ERROR' ? undefined : findTransition(role, state, type, role);
    if (row) {
      c.send(sample[type]);
      const [first] = c.takeTransitions();
      expect(first).toMatchObject({ kind: 'event', role, from: state, to: row.to, row });
    } else {
      let thrown: unknown;
      try {
        c.send(sample[type]);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(WireError);
      expect((thrown as WireError).side).toBe('local');
      expect(['illegal-event', 'connection-error']).toContain((thrown as WireError).code);
      expect(c.ourState).toBe('ERROR');
    }
  });
});

describe('receiving: every (peer role, state, event) pair follows the table', () => {
  const pairs = roles.flatMap((peer) =>
    HTTP1_STATES[peer].filter((s) => s !== 'ERROR').flatMap((state) => HTTP1_EVENT_TYPES.map((ev) => [peer, state, ev] as const)),
  );

  it.each(pairs)('peer %s in %s sends %s', (peer, state, type) => {
    const c = forced(other(peer), peer, state);
    const apply = (c as unknown as { apply: (e: Http1Event, by: Http1Role) => void }).apply.bind(c);
    const row = findTransition(peer, state, type, peer);
    if (row) {
      apply(sample[type], peer);
      expect(c.takeTransitions()[0]).toMatchObject({ kind: 'event', role: peer, from: state, to: row.to });
    } else {
      expect(() => apply(sample[type], peer)).toThrow(WireError);
      try {
        apply(sample[type], peer);
      } catch (e) {
        expect((e as WireError).side).toBe('remote');
      }
    }
  });
});
