import { describe, expectTypeOf, it } from 'vitest';
import { trace, type TraceFact, type TraceHook } from './trace';

const client = {};
const owner = {};

describe('trace facts are typed by name', () => {
  it('accepts each fact with its own arguments', () => {
    trace(client, 'gcScheduled', owner, 5_000);
    trace(client, 'retry', owner, 1, 1_000, new Error('x'));
    trace(client, 'timerFired', owner, 'refetchInterval', true);
    trace(client, 'timerFired', owner, 'staleTime');
    trace(client, 'fetchEnd', owner, 'cancelled');
    trace(client, 'dispatch', owner, { type: 'success', manual: true });
    trace(client, 'fetchStart', owner);
  });

  it('rejects wrong, missing and extra arguments, and unknown facts', () => {
    // @ts-expect-error a delay is a number
    trace(client, 'gcScheduled', owner, '5000');
    // @ts-expect-error the gc delay is required
    trace(client, 'gcScheduled', owner);
    // @ts-expect-error fetchStart carries nothing
    trace(client, 'fetchStart', owner, 1);
    // @ts-expect-error gc timers are traced by their own facts, not as observer timers
    trace(client, 'timerScheduled', owner, 'gc', 10);
    // @ts-expect-error not an outcome
    trace(client, 'fetchEnd', owner, 'done');
    // @ts-expect-error no such fact
    trace(client, 'fetchBegin', owner);
  });

  it('narrows a fact’s arguments by its name on the receiving side', () => {
    const hook: TraceHook = (...[type, , a, b]: TraceFact) => {
      if (type === 'retry') {
        expectTypeOf(a).toEqualTypeOf<number>();
        expectTypeOf(b).toEqualTypeOf<number>();
      }
      if (type === 'retryGiveUp') expectTypeOf(b).toEqualTypeOf<'retry-exhausted' | 'retry-cancelled'>();
      if (type === 'pause') expectTypeOf(a).toEqualTypeOf<'offline' | 'unfocused' | 'scope'>();
    };
    expectTypeOf(hook).toBeFunction();
  });
});
