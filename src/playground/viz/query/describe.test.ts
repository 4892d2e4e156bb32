import { describe, expect, it } from 'vitest';
import type { QuerySummary, QueryVizEvent, SerializedInstrumentationEvent } from '../../recording/model';
import { describeQueryEvent, formatQueryKey, isRoutineQueryEvent, queryStatusLabel } from './describe';

const subject = { kind: 'query', queryHash: '["todos"]', queryKey: ['todos'] } as const;
const inst = (event: Omit<SerializedInstrumentationEvent, 'at' | 'subject'> & Record<string, unknown>): QueryVizEvent =>
  ({ kind: 'instrumentation', at: 0, event: { at: 0, subject, ...event } }) as QueryVizEvent;
const timer = (kind: string, delay = 5000) => ({ id: 1, timer: kind, subject, delay, scheduledAt: 0, dueAt: delay });

const summary = (over: Partial<QuerySummary> = {}): QuerySummary => ({
  queryHash: '["todos"]',
  queryKey: ['todos'],
  status: 'success',
  fetchStatus: 'idle',
  dataUpdatedAt: 1,
  errorUpdatedAt: 0,
  dataUpdateCount: 1,
  fetchFailureCount: 0,
  isInvalidated: false,
  isStale: false,
  isInactive: false,
  isDisabled: false,
  observerCount: 1,
  staleTime: 0,
  gcTime: 300000,
  retry: 3,
  data: null,
  error: null,
  ...over,
});

describe('describeQueryEvent', () => {
  it.each([
    [
      inst({
        type: 'retry',
        attempt: 2,
        delay: 2000,
        dueAt: 2000,
        delaySource: 'default-backoff',
        error: { text: 'Error: x', truncated: false },
        notes: { retryLimit: 3 },
      }),
      "['todos']: retry 2 of 3 in 2,000 ms",
    ],
    [
      inst({ type: 'retry', attempt: 4, delay: 30000, dueAt: 1, delaySource: 'default-backoff', error: { text: 'Error: x', truncated: false } }),
      "['todos']: retry 4 in 30,000 ms",
    ],
    [inst({ type: 'fetchStart', fetchStatus: 'fetching', fetchMeta: { text: 'undefined', truncated: false } }), "['todos']: fetch started"],
    [
      inst({ type: 'fetchStart', fetchStatus: 'paused', fetchMeta: { text: 'undefined', truncated: false } }),
      "['todos']: fetch queued, paused before the first attempt",
    ],
    [inst({ type: 'timerFired', timer: timer('staleTime') }), "['todos']: became stale"],
    [inst({ type: 'gcFired', removed: true, notes: { gcDelay: 5000 } }), "['todos']: removed by gc after 5,000 ms"],
    [inst({ type: 'gcFired', removed: false }), "['todos']: gc time ran out, kept (still in use)"],
    [inst({ type: 'error', error: { text: 'Error: HTTP 500', truncated: false } }), "['todos']: failed with Error: HTTP 500"],
    [inst({ type: 'retryGiveUp', failureCount: 1, reason: 'retry-exhausted' }), "['todos']: gave up after 1 failed attempt"],
    [inst({ type: 'pause', reason: 'offline' }), "['todos']: paused: offline"],
    [inst({ type: 'observerRemoved', observerCount: 0 }), "['todos']: last observer removed, now inactive"],
    [inst({ type: 'invalidate' }), "['todos']: invalidated"],
    [inst({ type: 'timerScheduled', timer: timer('refetchInterval', 1000) }), "['todos']: refetch interval timer set for 1,000 ms"],
    [{ kind: 'query', at: 0, action: 'updated', query: summary({ isStale: true, isInvalidated: true }) }, "['todos']: success, idle, invalidated (stale)"],
    [{ kind: 'environment', at: 0, online: false, focused: true }, 'network offline, window focused'],
    [
      {
        kind: 'mutation',
        at: 0,
        action: 'updated',
        mutation: {
          mutationId: 3,
          mutationKey: ['add'],
          status: 'error',
          isPaused: false,
          failureCount: 1,
          submittedAt: 1,
          variables: null,
          data: null,
          error: { text: 'Error: no', truncated: false },
        },
      },
      "mutation ['add'] #3: error: Error: no",
    ],
  ] as [QueryVizEvent, string][])('%#: %s', (event, text) => {
    expect(describeQueryEvent(event)).toBe(text);
  });

  it('formats keys the way they are written in code', () => {
    expect(formatQueryKey(['todos', { page: 2, 'sort-by': "it's" }, [1, null]])).toBe("['todos', { page: 2, 'sort-by': 'it\\'s' }, [1, null]]");
  });

  it('marks timer bookkeeping as routine, milestones not', () => {
    expect(isRoutineQueryEvent(inst({ type: 'timerScheduled', timer: timer('gc') }))).toBe(true);
    expect(isRoutineQueryEvent(inst({ type: 'timerFired', timer: timer('staleTime') }))).toBe(false);
    expect(isRoutineQueryEvent(inst({ type: 'invalidate' }))).toBe(false);
  });
});

describe('queryStatusLabel (TanStack Devtools precedence)', () => {
  it.each([
    [{ fetchStatus: 'fetching', observerCount: 0 }, 'fetching'],
    [{ fetchStatus: 'paused', observerCount: 0 }, 'inactive'],
    [{ fetchStatus: 'paused', isStale: true }, 'paused'],
    [{ isStale: true }, 'stale'],
    [{}, 'fresh'],
  ] as [Partial<QuerySummary>, string][])('%o -> %s', (over, label) => {
    expect(queryStatusLabel(summary(over))).toBe(label);
  });
});
