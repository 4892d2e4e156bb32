import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERRORS, STREAM_EVENTS, STREAM_STATES, TRANSITIONS, transition, type Direction } from './stream-states';

describe('stream state table (RFC 9113 §5.1)', () => {
  it('has no duplicate rows', () => {
    const keys = TRANSITIONS.map(([s, e, d]) => `${s}|${e}|${d}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('follows the RFC diagram edges', () => {
    const next = (s: Parameters<typeof transition>[0], e: Parameters<typeof transition>[1], d: Direction) => {
      const t = transition(s, e, d);
      return t.ok ? t.next : t.code;
    };
    expect(next('idle', 'HEADERS', 'send')).toBe('open');
    expect(next('idle', 'PUSH_PROMISE', 'recv')).toBe('reserved_remote');
    expect(next('reserved_local', 'HEADERS', 'send')).toBe('half_closed_remote');
    expect(next('reserved_remote', 'HEADERS', 'recv')).toBe('half_closed_local');
    expect(next('open', 'END_STREAM', 'send')).toBe('half_closed_local');
    expect(next('open', 'END_STREAM', 'recv')).toBe('half_closed_remote');
    expect(next('half_closed_local', 'END_STREAM', 'recv')).toBe('closed');
    expect(next('half_closed_remote', 'END_STREAM', 'send')).toBe('closed');
    expect(next('idle', 'DATA', 'recv')).toBe('PROTOCOL_ERROR');
    expect(next('half_closed_remote', 'DATA', 'recv')).toBe('STREAM_CLOSED');
    expect(next('closed', 'PRIORITY', 'recv')).toBe('closed');
  });

  it('every (state, event, direction) lands in a legal state or raises the prescribed error (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STREAM_STATES), fc.constantFrom(...STREAM_EVENTS), fc.constantFrom<Direction>('send', 'recv'), (state, ev, direction) => {
        const t = transition(state, ev, direction);
        if (t.ok) {
          expect(STREAM_STATES).toContain(t.next);
          expect(TRANSITIONS).toContainEqual([state, ev, direction, t.next]);
          // Only the diagram's edges change state; everything else is a self-loop.
          if (t.next !== state) expect(['HEADERS', 'PUSH_PROMISE', 'END_STREAM', 'RST_STREAM']).toContain(ev);
        } else {
          expect(TRANSITIONS.some(([s, e, d]) => s === state && e === ev && d === direction)).toBe(false);
          if (direction === 'send') expect(t.side).toBe('local');
          else expect(t.side).toBe('remote');
          const expected =
            ev === 'PUSH_PROMISE' && direction === 'recv'
              ? { code: 'PROTOCOL_ERROR', scope: 'connection' }
              : { code: ERRORS[state][direction].code, scope: ERRORS[state][direction].scope };
          expect({ code: t.code, scope: t.scope }).toEqual(expected);
          if (direction === 'recv' && (state === 'half_closed_remote' || state === 'closed') && ev !== 'PUSH_PROMISE') {
            expect(t.code).toBe('STREAM_CLOSED');
          }
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('random event sequences never leave the set of states, and closed is absorbing', () => {
    const step = fc.record({ ev: fc.constantFrom(...STREAM_EVENTS), direction: fc.constantFrom<Direction>('send', 'recv') });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        let state: (typeof STREAM_STATES)[number] = 'idle';
        for (const { ev, direction } of steps) {
          const t = transition(state, ev, direction);
          if (!t.ok) continue;
          if (state === 'closed') expect(t.next).toBe('closed');
          state = t.next;
        }
        expect(STREAM_STATES).toContain(state);
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});
