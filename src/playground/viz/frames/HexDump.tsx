/**
 * An annotated hex dump in the classic layout (offset, 16 bytes in hex, the same bytes as ASCII), as an
 * ARIA grid: Tab focuses it once, the arrow keys (and Home/End) move between bytes, and the byte under the
 * pointer or the keyboard is reported to the owner, who decides what it means (which field it belongs to).
 * Bytes inside `highlight` are marked, so a field chosen elsewhere lights up here.
 */
import { useId, useState, type KeyboardEvent } from 'react';

export interface HexDumpProps {
  readonly bytes: readonly number[];
  /** Range [start, end) to light up. */
  readonly highlight?: { readonly start: number; readonly end: number } | undefined;
  /** The byte the keyboard is on (shown with a focus ring), or -1. */
  readonly active: number;
  /** Called when the pointer enters a byte or the keyboard moves to it. */
  readonly onByte: (offset: number) => void;
  readonly label: string;
  /** Describes the active byte for screen readers (which field it is in). */
  readonly describeActive?: string;
}

const WIDTH = 16;
/**
 * Bytes drawn before "Show all": a 16 KB DATA frame would be 30,000+ elements, and the dump re-renders on
 * every cursor move while a reader scrubs. 16 rows are a little less than the pane shows (frames.css: at most
 * 24rem of 0.875rem text at line-height 1.5, about 18 rows); the 32 drawn before put half the cells out of
 * sight, yet they were built and restyled on every frame change, the largest part of the Frames view's
 * slowest scrub steps (issue #8).
 */
export const HEX_LIMIT = 256;
const hex2 = (b: number) => b.toString(16).padStart(2, '0');
const ascii = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

export function HexDump({ bytes, highlight, active, onByte, label, describeActive }: HexDumpProps) {
  const id = useId();
  // "Show all" holds for the bytes it was asked for; the owner keeps one dump mounted across frames (so a
  // cursor move updates cells instead of recreating them), and a new frame starts truncated again.
  const [allFor, setAllFor] = useState<readonly number[] | null>(null);
  const all = allFor === bytes;
  const shown = all ? bytes.length : Math.min(bytes.length, HEX_LIMIT);
  const rows = Math.ceil(shown / WIDTH);
  const lit = (i: number) => highlight !== undefined && i >= highlight.start && i < highlight.end;
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = active < 0 ? 0 : active;
    const to =
      e.key === 'ArrowRight'
        ? at + 1
        : e.key === 'ArrowLeft'
          ? at - 1
          : e.key === 'ArrowDown'
            ? at + WIDTH
            : e.key === 'ArrowUp'
              ? at - WIDTH
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? shown - 1
                  : undefined;
    if (to === undefined) return;
    e.preventDefault();
    onByte(Math.max(0, Math.min(shown - 1, to)));
  };
  return (
    <div className="rt-hex">
      <div
        role="grid"
        className="rt-hex-grid"
        tabIndex={0}
        aria-label={`${label}: ${bytes.length} bytes. Arrow keys move between bytes.`}
        aria-readonly="true"
        aria-activedescendant={active >= 0 ? `${id}-b${active}` : undefined}
        onKeyDown={move}
        onFocus={() => {
          if (active < 0 && bytes.length > 0) onByte(0);
        }}
      >
        {Array.from({ length: rows }, (_, r) => {
          const from = r * WIDTH;
          const row = bytes.slice(from, Math.min(from + WIDTH, shown));
          return (
            <div role="row" className="rt-hex-row" key={r}>
              <span role="rowheader" className="rt-hex-offset">
                {from.toString(16).padStart(4, '0')}
              </span>
              {row.map((b, j) => {
                const i = from + j;
                return (
                  <span
                    role="gridcell"
                    id={`${id}-b${i}`}
                    key={i}
                    data-offset={i}
                    aria-selected={lit(i)}
                    aria-label={`byte ${i}: 0x${hex2(b)}`}
                    className={`rt-hex-byte${lit(i) ? ' is-lit' : ''}${i === active ? ' is-active' : ''}${j === 7 ? ' is-mid' : ''}`}
                    onMouseEnter={() => onByte(i)}
                  >
                    {hex2(b)}
                  </span>
                );
              })}
              <span className="rt-hex-ascii" aria-hidden="true">
                {row.map((b, j) => (
                  <span key={j} className={lit(from + j) ? 'is-lit' : undefined} onMouseEnter={() => onByte(from + j)}>
                    {ascii(b)}
                  </span>
                ))}
              </span>
            </div>
          );
        })}
      </div>
      {shown < bytes.length ? (
        <button type="button" className="rt-hex-more" onClick={() => setAllFor(bytes)}>
          Show all {bytes.length.toLocaleString('en')} bytes
        </button>
      ) : null}
      <p className="rt-hex-status" aria-live="polite">
        {active >= 0 && active < bytes.length
          ? `Byte ${active} (0x${active.toString(16)}): 0x${hex2(bytes[active]!)}${describeActive ? `, ${describeActive}` : ''}`
          : ' '}
      </p>
    </div>
  );
}
