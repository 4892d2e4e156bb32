/**
 * The visualizer panel's one controls bar, shared by every view: Play/Pause, Step back, Step forward, a slider
 * over the steps, the speed, and the exports. Real buttons and form controls with names, so keyboard and
 * screen-reader users drive playback the way they drive a media player; presentational only (VizPanel owns the
 * player).
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

export default function Controls(props: ControlsProps) {
  const { idPrefix, state, valueText } = props;
  const { cursor, length, playing, speed, reducedMotion } = state;
  const empty = length === 0;
  const last = Math.max(length - 1, 0);
  return (
    <div className="rt-viz-controls" role="group" aria-label="Playback">
      <button
        type="button"
        data-action="play"
        onClick={props.onToggle}
        disabled={empty || (reducedMotion && !playing)}
        aria-describedby={reducedMotion ? `${idPrefix}-motion-note` : undefined}
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" data-action="step-back" onClick={props.onStepBack} disabled={empty || cursor <= 0}>
        Step back
      </button>
      <button type="button" data-action="step-forward" onClick={props.onStepForward} disabled={empty || cursor >= last}>
        Step forward
      </button>
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
        Speed{' '}
        <select value={String(speed)} onChange={(e) => props.onSpeed(Number(e.currentTarget.value))} disabled={reducedMotion}>
          {(SPEEDS.includes(speed) ? SPEEDS : [...SPEEDS, speed].sort((a, b) => a - b)).map((s) => (
            <option key={s} value={String(s)}>
              {speedLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <span className="rt-viz-exports">
        <button type="button" data-action="export-json" onClick={props.onExportJson} disabled={empty}>
          Export trace (JSON)
        </button>
        {props.onExportHar && (
          <button type="button" data-action="export-har" onClick={props.onExportHar}>
            Export HAR
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
