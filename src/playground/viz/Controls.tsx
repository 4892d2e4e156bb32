/**
 * The visualizer panel's one controls bar, shared by every view: Play/Pause, Step back, Step forward, a slider
 * over the steps with the step count, the speed, and the exports. One compact row on a desktop; at phone width
 * two short rows (transport, slider and count; then speed and exports), in the same order as read, so the
 * diagram starts close to the top (Playground.css, .rt-viz-controls).
 *
 * Real buttons and form controls with names, so keyboard and screen-reader users drive playback the way they
 * drive a media player: the transport buttons draw an icon and carry their name as hidden text (and a tooltip);
 * the export buttons show a short visible label that their accessible name contains (WCAG 2.5.3). Every target
 * is at least 24 px (WCAG 2.5.8). Presentational only (VizPanel owns the player).
 */
import type { PlayerState } from './player';
import { SPEEDS } from './player';

export interface ControlsProps {
  readonly idPrefix: string;
  readonly state: PlayerState;
  /** The slider's aria-valuetext: 'step 12 of 340, 412 ms'. */
  readonly valueText: string;
  readonly onToggle: () => void;
  readonly onStepBack: () => void;
  readonly onStepForward: () => void;
  readonly onSeek: (step: number) => void;
  readonly onSpeed: (speed: number) => void;
  readonly onExportJson: () => void;
  /** Undefined when no simulation made a request: there is nothing to put in a HAR. */
  readonly onExportHar?: () => void;
}

const speedLabel = (s: number) => `${s}×`;

/** 16 px glyphs drawn in the text colour; the button's hidden text names them. */
const ICONS = {
  play: 'M4 2.5v11l9.5-5.5z',
  pause: 'M3.5 2.5h3.2v11H3.5zM9.3 2.5h3.2v11H9.3z',
  back: 'M2.5 2.5h2v11h-2zM14 2.5v11L5.5 8z',
  forward: 'M11.5 2.5h2v11h-2zM2 2.5v11L10.5 8z',
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg className="rt-viz-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} fill="currentColor" />
    </svg>
  );
}

export default function Controls(props: ControlsProps) {
  const { idPrefix, state, valueText } = props;
  const { cursor, length, playing, speed, reducedMotion } = state;
  const empty = length === 0;
  const last = Math.max(length - 1, 0);
  const playName = playing ? 'Pause' : 'Play';
  return (
    <div className="rt-viz-controls" role="group" aria-label="Playback">
      <span className="rt-viz-transport">
        <button
          type="button"
          data-action="play"
          title={playing ? 'Pause' : 'Play from the start, or from the step shown'}
          onClick={props.onToggle}
          disabled={empty || (reducedMotion && !playing)}
          aria-describedby={reducedMotion ? `${idPrefix}-motion-note` : undefined}
        >
          <Icon name={playing ? 'pause' : 'play'} />
          <span className="rt-visually-hidden">{playName}</span>
        </button>
        <button type="button" data-action="step-back" title="Step back" onClick={props.onStepBack} disabled={empty || cursor <= 0}>
          <Icon name="back" />
          <span className="rt-visually-hidden">Step back</span>
        </button>
        <button type="button" data-action="step-forward" title="Step forward" onClick={props.onStepForward} disabled={empty || cursor >= last}>
          <Icon name="forward" />
          <span className="rt-visually-hidden">Step forward</span>
        </button>
      </span>
      <label className="rt-viz-scrub">
        <span className="rt-visually-hidden">Step</span>
        <input
          type="range"
          min={0}
          max={last}
          step={1}
          value={Math.max(cursor, 0)}
          disabled={empty}
          aria-valuetext={valueText}
          onChange={(e) => props.onSeek(Number(e.currentTarget.value))}
        />
      </label>
      <span className="rt-viz-position" aria-hidden="true">
        {empty ? '0 / 0' : `${cursor + 1} / ${length}`}
      </span>
      <label className="rt-viz-speed">
        {/* Named for assistive technology; on screen the select's "1×" says what it is, and the bar keeps one row
            in a playground the width of the text column (about 630 px at 1280). */}
        <span className="rt-visually-hidden">Speed</span>
        <select value={String(speed)} onChange={(e) => props.onSpeed(Number(e.currentTarget.value))} disabled={reducedMotion}>
          {(SPEEDS.includes(speed) ? SPEEDS : [...SPEEDS, speed].sort((a, b) => a - b)).map((s) => (
            <option key={s} value={String(s)}>
              {speedLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <span className="rt-viz-exports">
        <span aria-hidden="true">Export</span>
        <button
          type="button"
          data-action="export-json"
          aria-label="Export trace (JSON)"
          title="Export trace (JSON)"
          onClick={props.onExportJson}
          disabled={empty}
        >
          JSON
        </button>
        {props.onExportHar && (
          <button type="button" data-action="export-har" aria-label="Export HAR" title="Export HAR" onClick={props.onExportHar}>
            HAR
          </button>
        )}
      </span>
      {reducedMotion && (
        <p id={`${idPrefix}-motion-note`} className="rt-viz-note">
          Reduced motion is on: nothing plays by itself. Use Step or the slider.
        </p>
      )}
    </div>
  );
}
