/**
 * The divider between the editor and the visualizer on the full-page playground (/playground/), at 1024 px and
 * wider, where the two sit side by side (as in the TypeScript Playground and the Svelte REPL). It is a focusable
 * separator (WAI-ARIA's window splitter): drag it with the pointer, or focus it and press the arrow keys (Shift
 * for larger steps), Home and End; Enter puts it back in the middle.
 *
 * The position lives in memory for the page's life (nothing is written to storage: ARCHITECTURE.md).
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

/** The editor's share of the width, in percent, and its bounds: neither side narrower than a quarter. */
export const SPLIT_MIN = 25;
export const SPLIT_MAX = 75;
export const SPLIT_DEFAULT = 50;
const STEP = 2;
const BIG_STEP = 10;

/** The editor's share after key `key` (with Shift: `big`) at `value`; undefined for keys the divider ignores. */
export function splitAfterKey(value: number, key: string, big: boolean): number | undefined {
  const step = big ? BIG_STEP : STEP;
  const next =
    key === 'ArrowLeft' || key === 'ArrowUp'
      ? value - step
      : key === 'ArrowRight' || key === 'ArrowDown'
        ? value + step
        : key === 'Home'
          ? SPLIT_MIN
          : key === 'End'
            ? SPLIT_MAX
            : key === 'Enter'
              ? SPLIT_DEFAULT
              : undefined;
  return next === undefined ? undefined : clampSplit(next);
}

export function clampSplit(value: number): number {
  return Math.round(Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, value)) * 10) / 10;
}

/** The editor's share when the pointer is at `x` over a box from `left`, `width` wide. */
export function splitAtPointer(x: number, left: number, width: number): number {
  return width > 0 ? clampSplit(((x - left) / width) * 100) : SPLIT_DEFAULT;
}

export interface SplitDividerProps {
  /** The editor's share of the width, in percent. */
  value: number;
  onChange(value: number): void;
  /** The id of the editor's panel, which the divider resizes. */
  controls: string;
  /** The box the two panes share (the divider's position is measured across it). */
  container: () => HTMLElement | null;
}

export default function SplitDivider({ value, onChange, controls, container }: SplitDividerProps) {
  const dragging = useRef(false);
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const box = container()?.getBoundingClientRect();
    if (dragging.current && box) onChange(splitAtPointer(e.clientX, box.left, box.width));
  };
  return (
    // A focusable separator is WAI-ARIA's window splitter (an <hr> can be neither focused nor dragged).
    <div
      className="rt-split-divider"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the editor and the visualizer"
      aria-controls={controls}
      aria-valuenow={Math.round(value)}
      aria-valuemin={SPLIT_MIN}
      aria-valuemax={SPLIT_MAX}
      aria-valuetext={`Editor ${Math.round(value)}% of the width`}
      tabIndex={0}
      onKeyDown={(e: KeyboardEvent<HTMLDivElement>) => {
        const next = splitAfterKey(value, e.key, e.shiftKey);
        if (next === undefined) return;
        e.preventDefault();
        onChange(next);
      }}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        dragging.current = true;
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.focus({ preventScroll: true });
      }}
      onPointerMove={move}
      onPointerUp={(e) => {
        move(e);
        dragging.current = false;
      }}
      onPointerCancel={() => void (dragging.current = false)}
      onLostPointerCapture={() => void (dragging.current = false)}
    />
  );
}
