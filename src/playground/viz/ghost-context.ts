/**
 * The ghost's context (issue #27, item 5), apart from what draws it (ghost.tsx) so the playground island that
 * provides it carries no visualizer code: the previous run, kept by the playground store (store/ghost.ts), and
 * how to pin or clear it.
 */
import { createContext, useContext } from 'react';
import type { Recording } from '../recording/model';

export interface GhostValue {
  readonly recording: Recording;
  /** 'ghost: loss 0.1' */
  readonly label: string;
  readonly pinned: boolean;
  readonly key: number;
}

export interface GhostContextValue {
  readonly ghost: GhostValue | null;
  readonly pin: (pinned: boolean) => void;
  readonly clear: () => void;
}

export const GhostContext = createContext<GhostContextValue>({ ghost: null, pin: () => {}, clear: () => {} });

export function useGhost(): GhostContextValue {
  return useContext(GhostContext);
}
