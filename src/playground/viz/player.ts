/**
 * The player: which step of a recording the views show, and how playback moves it. Pure logic with time
 * injected (CONTRIBUTING.md, 'Time'), so tests drive it with a fake clock and the panel with the page's timers.
 *
 * A run is shown finished at once (after-run.ts); Play replays it from the start, as Chrome DevTools' and HTTP
 * Toolkit's captures are read whole and then stepped through. Replay is paced by a schedule (`replaySchedule`):
 * when each step shows, in replay ms at 1x, built from the events' own clocks (`gapBefore(i)`, the event time
 * between step i-1 and step i, 0 across sources) and their kinds (`kindOf(i)`, the event's type):
 * - a short run keeps every step on screen at least MIN_STEP_MS and waits at most MAX_GAP_MS, so a burst at
 *   one virtual instant is still seen one by one and a 60 s idle timeout never stalls playback;
 * - a run that would take longer than REPLAY_BUDGET_MS that way is compressed: idle gaps shrink to their
 *   square root (a longer wait still looks longer), each repeat in a burst of same-kind events gets a smaller
 *   share than the one before (a 1,000-frame DATA burst costs about seven steps' time, not a thousand), and if
 *   that is still too long every wait is scaled down until the whole replay fits the budget.
 * Playback follows the schedule by the clock, not by counting ticks: each tick shows the newest step due by
 * now, so a replay of 3,530 steps takes its ten seconds even though no browser draws 350 frames a second, and
 * Step still goes one step at a time for detail.
 *
 * Under prefers-reduced-motion nothing moves by itself: `play` does nothing (and stops a playing player),
 * while stepping and seeking still work. Playback is never longer than the reader lets it be: the panel's Pause
 * button is on screen the whole time it plays.
 *
 * `following` is the live mode: the cursor stays on the newest step as the recording grows (while a run
 * records, after it finished, and after a devtools action), until the reader steps, seeks or plays.
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
  /** What kind of event step i is (its type); consecutive steps of one kind form a burst. */
  readonly kindOf?: (step: number) => string;
  readonly reducedMotion?: boolean;
  readonly speed?: number;
}

/** The speed choices the controls offer; any value in [MIN_SPEED, MAX_SPEED] is accepted. */
export const SPEEDS: readonly number[] = [0.1, 0.25, 0.5, 1, 2, 5, 10];
export const MIN_SPEED = 0.1;
export const MAX_SPEED = 10;
/** At 1x, the shortest time a step of a short run stays on screen (about two frames at 30 fps). */
export const MIN_STEP_MS = 60;
/** At 1x, the longest pause between two steps, however far apart their events are. */
export const MAX_GAP_MS = 1000;
/** At 1x, the longest a whole replay takes, however many steps it has. */
export const REPLAY_BUDGET_MS = 10_000;
/** The shortest wait between two ticks: about a frame at 60 Hz; steps due closer together share a tick. */
export const TICK_MS = 16;

/**
 * When each step shows in a replay from step 0, in ms at 1x: `at[0]` is 0 and `at[length - 1]` is at most
 * REPLAY_BUDGET_MS (see the header for the three passes). Non-decreasing; pure.
 */
export function replaySchedule(length: number, gapBefore: (step: number) => number, kindOf?: (step: number) => string): Float64Array {
  const at = new Float64Array(Math.max(length, 0));
  if (length <= 1) return at;
  const gaps = new Float64Array(length);
  for (let i = 1; i < length; i++) {
    const gap = gapBefore(i);
    gaps[i] = Number.isFinite(gap) && gap > 0 ? gap : 0;
  }
  // Pass 1: the events' own time, clamped.
  const plain = (i: number) => Math.min(Math.max(gaps[i]!, MIN_STEP_MS), MAX_GAP_MS);
  let total = 0;
  for (let i = 1; i < length; i++) total += plain(i);
  if (total <= REPLAY_BUDGET_MS) return accumulate(at, plain);
  // Pass 2: idle gaps to their square root, bursts of one kind harmonically.
  const weights = new Float64Array(length);
  let repeat = 0;
  let kind = kindOf?.(0);
  total = 0;
  for (let i = 1; i < length; i++) {
    const next = kindOf?.(i);
    const gap = gaps[i]!;
    repeat = next !== undefined && next === kind && gap < MIN_STEP_MS ? repeat + 1 : 0;
    kind = next;
    const idle = gap > MIN_STEP_MS ? MIN_STEP_MS * Math.sqrt(Math.min(gap, MAX_GAP_MS) / MIN_STEP_MS) : MIN_STEP_MS;
    weights[i] = idle / (repeat + 1);
    total += weights[i]!;
  }
  // Pass 3: whatever is still over the budget, scaled down evenly.
  const scale = total > REPLAY_BUDGET_MS ? REPLAY_BUDGET_MS / total : 1;
  return accumulate(at, (i) => weights[i]! * scale);
}

function accumulate(at: Float64Array, weight: (step: number) => number): Float64Array {
  // Rounding in the scaled pass must not push the last steps past the budget.
  for (let i = 1; i < at.length; i++) at[i] = Math.min(at[i - 1]! + weight(i), REPLAY_BUDGET_MS);
  return at;
}

export type PlayerListener = (state: PlayerState) => void;

export class Player {
  readonly #clock: PlayerClock;
  #gapBefore: (step: number) => number;
  readonly #kindOf: ((step: number) => string) | undefined;
  #state: PlayerState;
  #timer: unknown;
  /** The replay schedule for the current length, built when playback needs it. */
  #schedule: Float64Array | null = null;
  /** While playing: the clock's time and the schedule's time that were current together. */
  #anchor = { wall: 0, at: 0 };
  #listeners = new Set<PlayerListener>();

  constructor(options: PlayerOptions) {
    this.#clock = options.clock;
    this.#gapBefore = options.gapBefore;
    this.#kindOf = options.kindOf;
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

  /** When `step` shows in a replay from step 0 at 1x, in ms (0 outside the recording). */
  replayAt(step: number): number {
    return this.#timeline()[step] ?? 0;
  }

  /** How long a replay from step 0 to the end takes at the current speed, in real ms. */
  get replayDuration(): number {
    return this.replayAt(this.#state.length - 1) / this.#state.speed;
  }

  /** The recording grew (or a new one began); `gapBefore` may change with it. */
  setLength(length: number, gapBefore?: (step: number) => number): void {
    // While playing, the time already served since the step shown carries over to the new schedule.
    const served = this.#state.playing ? this.#elapsed() - this.replayAt(this.#state.cursor) : 0;
    if (gapBefore) this.#gapBefore = gapBefore;
    if (length !== this.#state.length || gapBefore) this.#schedule = null;
    const { cursor, following } = this.#state;
    const last = length - 1;
    let next = Math.min(cursor, last);
    if (following || (next < 0 && length > 0)) next = following ? last : 0;
    this.#set({ length, cursor: next });
    if (this.#state.playing) {
      this.#restart(served);
    }
  }

  play(): void {
    if (this.#state.reducedMotion || this.#state.length === 0) return;
    // Play at the end starts over, as media players do.
    const atEnd = this.#state.cursor >= this.#state.length - 1;
    this.#set({ playing: true, following: false, cursor: atEnd ? 0 : this.#state.cursor });
    this.#restart();
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
    if (this.#state.playing) this.#restart();
  }

  /** Shows the newest step and keeps showing it as the recording grows (live mode). */
  follow(): void {
    this.pause();
    this.#set({ following: true, cursor: this.#state.length - 1 });
  }

  setSpeed(speed: number): void {
    const next = clampSpeed(speed);
    if (next === this.#state.speed) return;
    if (this.#state.playing) {
      // Keep the replay time already served; only what is left runs at the new speed.
      this.#anchor = { wall: this.#clock.now(), at: this.#elapsed() };
      this.#set({ speed: next });
      this.#cancel();
      this.#arm();
    } else this.#set({ speed: next });
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

  #timeline(): Float64Array {
    return (this.#schedule ??= replaySchedule(this.#state.length, this.#gapBefore, this.#kindOf));
  }

  /** The schedule's time now, while playing. */
  #elapsed(): number {
    return this.#anchor.at + (this.#clock.now() - this.#anchor.wall) * this.#state.speed;
  }

  /** Playback (re)starts from the step shown, `served` ms of schedule after it. */
  #restart(served = 0): void {
    this.#cancel();
    this.#anchor = { wall: this.#clock.now(), at: this.replayAt(this.#state.cursor) + Math.max(served, 0) };
    this.#arm();
  }

  /** Waits for the next step due, or stops at the end. */
  #arm(): void {
    const at = this.#timeline();
    const next = this.#state.cursor + 1;
    if (next >= this.#state.length) {
      this.#set({ playing: false });
      return;
    }
    const wait = Math.max((at[next]! - this.#elapsed()) / this.#state.speed, TICK_MS);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#tick();
    }, wait);
  }

  #tick(): void {
    if (!this.#state.playing) return;
    const at = this.#timeline();
    const elapsed = this.#elapsed();
    // The newest step due by now: binary search above the cursor (steps due together share this tick).
    let low = this.#state.cursor + 1;
    let high = this.#state.length - 1;
    let shown = this.#state.cursor + 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (at[mid]! <= elapsed) {
        shown = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    const cursor = this.#clampCursor(shown);
    const atEnd = cursor >= this.#state.length - 1;
    this.#set({ cursor, playing: !atEnd });
    if (!atEnd) this.#arm();
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
