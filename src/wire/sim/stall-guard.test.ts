import { describe, expect, it } from 'vitest';
import { StallGuard } from './stall-guard';
import { createSimulation } from './index';
import { createServer, http } from '../server/index';

describe('StallGuard', () => {
  it('trips after N silent steps at one instant, and not while time moves or events are traced', () => {
    const guard = new StallGuard(5, 1000);
    for (let i = 0; i < 20; i++) expect(guard.afterStep(i, 0, 0)).toBeUndefined(); // time moves
    for (let i = 0; i < 20; i++) expect(guard.afterStep(20, i, 0)).toBeUndefined(); // events traced
    // The step that brought event 20, then 4 silent ones; the 5th silent step trips.
    for (let i = 0; i < 5; i++) expect(guard.afterStep(20, 20, 0)).toBeUndefined();
    expect(guard.afterStep(20, 20, 0)).toMatch(/stuck at 20 ms: 5 timers fired at that instant without a trace event/);
  });

  it('trips when a request stays pending longer than the limit', () => {
    const guard = new StallGuard(5, 1000);
    expect(guard.afterStep(1000, 1, 0)).toBeUndefined();
    expect(guard.afterStep(1001, 2, 0)).toMatch(/pending for more than 1000 virtual ms \(since 0 ms\)/);
    expect(guard.afterStep(5000, 3, undefined)).toBeUndefined(); // nothing pending: nothing to wait for
  });
});

/** The guard lets 100,000 timers spin first (a fraction of a second); the margin is for a loaded machine. */
const SPIN_TIMEOUT = 30_000;

describe('a simulation that cannot make progress ends with an error', () => {
  const server = () => createServer({ routes: [http.get('/a', () => new Response('a'))] });

  it(
    'fails the pending fetch, naming it, when a timer re-arms itself at the same instant forever',
    async () => {
      const sim = createSimulation({ server: server(), rtt: 10 });
      const spin = (): void => void sim.clock.setTimeout(spin, 0);
      sim.clock.setTimeout(spin, 5);
      const error = await sim.fetch('/a').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(String((error as Error).cause)).toMatch(/virtual time is stuck at 5 ms: .* GET http:\/\/api\.example\/a can never complete/);
      expect(sim.trace.ofType('request-failed').map((e) => e.reason)).toEqual(['stalled']);
    },
    SPIN_TIMEOUT,
  );

  it(
    'makes sim.advance throw rather than spin',
    async () => {
      const sim = createSimulation({ server: server(), drive: 'manual' });
      const spin = (): void => void sim.clock.setTimeout(spin, 0);
      sim.clock.setTimeout(spin, 5);
      await expect(sim.advance(10)).rejects.toMatchObject({
        code: 'simulation-stalled',
        message: expect.stringMatching(/sim\.advance\(10\): virtual time is stuck at 5 ms/),
      });
    },
    SPIN_TIMEOUT,
  );
});
