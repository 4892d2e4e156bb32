/**
 * For tests: a real QueryClient recorded through capture-query.ts into a Recording, the way the host would
 * build it, plus a way to send devtools actions to the live client.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import * as queryLib from 'roundtrip/query';
import type { DevtoolsAction, QuerySource, QueryVizEvent, Recording } from '../../recording/model';
import { instrumentQueryModule } from '../../sandbox/capture-query';
import type { Capture } from '../../sandbox/capture';

export interface Recorder {
  readonly lib: typeof queryLib;
  /** The recording so far (a new object each call, like the host's snapshots). */
  recording(): Recording;
  /** Sends a devtools action to the source's handler, as the runtime does. */
  act(sourceId: string, action: DevtoolsAction): void;
}

export function recorder(): Recorder {
  const sources: { id: string; label: string; events: QueryVizEvent[] }[] = [];
  const steps: { sourceId: string; index: number }[] = [];
  const handlers = new Map<string, (action: DevtoolsAction) => void>();
  const capture: Capture = {
    addSource(_kind, label) {
      const source = { id: `client-${sources.length + 1}`, label, events: [] as QueryVizEvent[] };
      sources.push(source);
      return {
        id: source.id,
        push: (event) => {
          steps.push({ sourceId: source.id, index: source.events.length });
          source.events.push(event as QueryVizEvent);
        },
        onAction: (handler) => void handlers.set(source.id, handler),
      };
    },
  };
  return {
    lib: instrumentQueryModule(queryLib, capture),
    recording: () => ({
      sources: sources.map((s): QuerySource => ({ id: s.id, kind: 'query', label: s.label, events: [...s.events] })),
      steps: [...steps],
    }),
    act: (sourceId, action) => handlers.get(sourceId)?.(action),
  };
}

/** The wall-clock time the fake timers start at. */
export const T0 = Date.UTC(2026, 0, 1);

/**
 * Registers the environment every view test needs: fake timers at T0, a browser (not a server), online and
 * focused; afterwards unmounts what was rendered and puts the managers back.
 */
export function useQueryTestEnvironment(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    queryLib.environmentManager.setIsServer(() => false);
    queryLib.onlineManager.setOnline(true);
    queryLib.focusManager.setFocused(true);
  });
  afterEach(() => {
    cleanup();
    queryLib.onlineManager.setOnline(true);
    queryLib.focusManager.setFocused(undefined);
    vi.useRealTimers();
  });
}
