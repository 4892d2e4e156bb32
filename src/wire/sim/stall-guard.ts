/**
 * Notices a simulation that is busy but going nowhere, so a run ends with an error instead of hanging.
 *
 * The driver's other check (simulation.ts `failStalled`) catches the quiet dead end: nothing left on the
 * clock. This one catches the two busy ones:
 * - a livelock at one instant: timers keep firing at the same virtual time and nothing is traced, e.g. a
 *   timer that re-arms itself for "now" because its owner finds nothing due (the HTTP/3 loss timer did
 *   this once, see http3/recovery.ts `detectLost`). The host never gets a macrotask in between, so
 *   without this guard not even a test timeout can stop it;
 * - a request still pending after a day of virtual time, e.g. retransmissions backing off forever.
 * Both limits are far beyond anything a working scenario does: the 10,000-request HTTP/2 bench fires
 * fewer timers at any one instant, and no scenario waits hours.
 */

/** Timers fired at one virtual instant, with no trace event among them, before we call it a livelock. */
export const MAX_SILENT_STEPS_PER_INSTANT = 100_000;
/** Virtual ms a request may stay pending (24 h). */
export const MAX_PENDING_MS = 24 * 60 * 60 * 1000;

export class StallGuard {
  #instant = Number.NaN;
  #events = -1;
  #silentSteps = 0;

  constructor(
    readonly maxSilentSteps = MAX_SILENT_STEPS_PER_INSTANT,
    readonly maxPendingMs = MAX_PENDING_MS,
  ) {}

  /**
   * Call after each clock step with the time, the trace's event count and when the oldest pending
   * request started. Returns why the run is stuck, or undefined while it may still progress.
   */
  afterStep(now: number, events: number, oldestPendingSince: number | undefined): string | undefined {
    if (now !== this.#instant || events !== this.#events) {
      this.#instant = now;
      this.#events = events;
      this.#silentSteps = 0;
    } else if (++this.#silentSteps >= this.maxSilentSteps) {
      this.#silentSteps = 0;
      return `virtual time is stuck at ${now} ms: ${this.maxSilentSteps} timers fired at that instant without a trace event (a timer keeps re-arming itself for the same time)`;
    }
    if (oldestPendingSince !== undefined && now - oldestPendingSince > this.maxPendingMs) {
      return `a request has been pending for more than ${this.maxPendingMs} virtual ms (since ${oldestPendingSince} ms) while timers kept firing`;
    }
    return undefined;
  }
}
