import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamRegistry } from './stream-registry';
import { STREAM_EVENTS, type StreamState } from './stream-states';

const ACTIVE: readonly StreamState[] = ['open', 'half_closed_local', 'half_closed_remote'];

describe('StreamRegistry', () => {
  it('keeps the active-stream counts (RFC 9113 §5.1.2) equal to a recount after any sequence of steps and closes', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('step' as const),
        id: fc.integer({ min: 1, max: 12 }),
        ev: fc.constantFrom(...STREAM_EVENTS),
        dir: fc.constantFrom('send' as const, 'recv' as const),
      }),
      fc.record({ kind: fc.constant('close' as const), id: fc.integer({ min: 1, max: 12 }), reset: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(op, { maxLength: 60 }), (isClient, ops) => {
        const reg = new StreamRegistry(isClient, () => ({ send: 65_535, recv: 65_535 }));
        for (const o of ops) {
          if (o.kind === 'close') reg.close(o.id, o.reset);
          else {
            try {
              reg.step(o.id, o.ev, o.dir);
            } catch {
              // a send-side violation is API misuse: it throws and changes nothing
            }
          }
          const count = (local: boolean) => reg.all().filter((r) => ACTIVE.includes(r.state) && reg.isLocal(r.id) === local).length;
          expect([reg.active(true), reg.active(false)]).toEqual([count(true), count(false)]);
        }
      }),
    );
  });
});
