/**
 * The player: which step of a recording the views show, and how playback moves it. Pure logic with time
 * injected (CONTRIBUTING.md, 'Time'), so tests drive it with a fake clock and the panel with the page's timers.
 *
 * Pacing follows the events' own clocks: the wait before step i is the time between event i-1 and event i
 * (`gapBefore(i)`, 0 across sources), divided by the speed. Two clamps keep playback watchable:
 * - at least MIN_STEP_MS per step, so a burst of events at one virtual instant is still seen one by one;
 * - at most MAX_GAP_MS, so a 60 s idle timeout or a 30 s retry backoff never stalls playback.
 *
 * Under prefers-reduced-motion nothing moves by itself: `play` does nothing (and stops a playing player),
 * while stepping and seeking still work. Playback is never longer than the reader lets it be: the panel's Pause
 * button is on screen the whole time it plays.
 *
 * `following` is the live mode: while a query client keeps producing events, the cursor stays on the newest
 * step as the recording grows, until the reader steps, seeks or plays.
 */

export interface PlayerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PlayerState {
  /** Step shown; -1 only while the recording is empty. */
  readonly cursor: number;
  readonly length: number;
  readonly playing: boolean;
  readonly speed: number;
  readonly following: boolean;
  readonly reducedMotion: boolean;
}

export interface PlayerOptions {
  readonly clock: PlayerClock;
  /** Event-time ms between step i-1 and step i; 0 when they come from different sources. */
  readonly gapBefore: (step: number) => number;
  readonly reducedMotion?: boolean;
  readonly speed?: number;
}

/** The speed choices the controls offer; any value in [MIN_SPEED, MAX_SPEED] is accepted. */
export const SPEEDS: readonly number[] = [0.1, 0.25, 0.5, 1, 2, 5, 10];
export const MIN_SPEED = 0.1;
export const MAX_SPEED = 10;
/** At 1x, the shortest time a step stays on screen (about two frames at 30 fps, enough to register change). */
export const MIN_STEP_MS = 60;
/** At 1x, the longest pause between two steps, however far apart their events are. */
export const MAX_GAP_MS = 1000;

export type PlayerListener = (state: PlayerState) => void;

export class Player {
  readonly #clock: PlayerClock;
  #gapBefore: (step: number) => number;
  #state: PlayerState;
  #timer: unknown;
  #dueAt = 0;
  #listeners = new Set<PlayerListener>();

  constructor(options: PlayerOptions) {
    this.#clock = options.clock;
    this.#gapBefore = options.gapBefore;
    this.#state = {
      cursor: -1,
      length: 0,
      playing: false,
      speed: clampSpeed(options.speed ?? 1),
      following: false,
      reducedMotion: options.reducedMotion ?? false,
    };
  }

  get state(): PlayerState {
    return this.#state;
  }

  subscribe(listener: PlayerListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** How long playback waits before showing `step`, in real ms at the current speed. */
  delayBefore(step: number): number {
    const gap = Math.min(Math.max(this.#gapBefore(step), MIN_STEP_MS), MAX_GAP_MS);
    return gap / this.#state.speed;
  }

  /** The recording grew (or a new one began); `gapBefore` may change with it. */
  setLength(length: number, gapBefore?: (step: number) => number): void {
    if (gapBefore) this.#gapBefore = gapBefore;
    const { cursor, following } = this.#state;
    const last = length - 1;
    let next = Math.min(cursor, last);
    if (following || (next < 0 && length > 0)) next = following ? last : 0;
    this.#set({ length, cursor: next });
  }

  play(): void {
    if (this.#state.reducedMotion || this.#state.length === 0) return;
    // Play at the end starts over, as media players do.
    const atEnd = this.#state.cursor >= this.#state.length - 1;
    this.#set({ playing: true, following: false, cursor: atEnd ? 0 : this.#state.cursor });
    this.#schedule();
  }

  pause(): void {
    this.#cancel();
    if (this.#state.playing) this.#set({ playing: false });
  }

  toggle(): void {
    if (this.#state.playing) this.pause();
    else this.play();
  }

  stepForward(): void {
    this.pause();
    this.#set({ following: false, cursor: this.#clampCursor(this.#state.cursor + 1) });
  }

  stepBack(): void {
    this.pause();
    this.#set({ following: false, cursor: this.#clampCursor(this.#state.cursor - 1) });
  }

  /** Shows `step`; playback, if on, continues from there. */
  seek(step: number): void {
    this.#set({ following: false, cursor: this.#clampCursor(Math.round(step)) });
    if (this.#state.playing) {
      this.#cancel();
      this.#schedule();
    }
  }

  /** Keeps the cursor on the newest step as the recording grows (live mode). */
  follow(): void {
    this.pause();
    this.#set({ following: true, cursor: this.#state.length - 1 });
  }

  setSpeed(speed: number): void {
    const next = clampSpeed(speed);
    const previous = this.#state.speed;
    if (next === previous) return;
    this.#set({ speed: next });
    if (this.#timer !== undefined) {
      // Keep the part of the current wait already served, rescaled to the new speed.
      const remaining = Math.max(0, this.#dueAt - this.#clock.now()) * (previous / next);
      this.#cancel();
      this.#arm(remaining);
    }
  }

  setReducedMotion(reduced: boolean): void {
    if (reduced) this.pause();
    this.#set({ reducedMotion: reduced });
  }

  dispose(): void {
    this.#cancel();
    this.#listeners.clear();
  }

  #clampCursor(step: number): number {
    const { length } = this.#state;
    return length === 0 ? -1 : Math.min(Math.max(step, 0), length - 1);
  }

  #schedule(): void {
    const next = this.#state.cursor + 1;
    if (next >= this.#state.length) {
      this.#set({ playing: false });
      return;
    }
    this.#arm(this.delayBefore(next));
  }

  #arm(ms: number): void {
    this.#dueAt = this.#clock.now() + ms;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#tick();
    }, ms);
  }

  #tick(): void {
    if (!this.#state.playing) return;
    const cursor = this.#state.cursor + 1;
    const atEnd = cursor >= this.#state.length - 1;
    this.#set({ cursor: this.#clampCursor(cursor), playing: !atEnd });
    if (!atEnd) this.#schedule();
  }

  #cancel(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #set(patch: Partial<PlayerState>): void {
    const prev = this.#state;
    const next = { ...prev, ...patch };
    if ((Object.keys(patch) as (keyof PlayerState)[]).every((k) => prev[k] === next[k])) return;
    this.#state = next;
    for (const listener of [...this.#listeners]) listener(next);
  }
}

function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return 1;
  return Math.min(Math.max(speed, MIN_SPEED), MAX_SPEED);
}
