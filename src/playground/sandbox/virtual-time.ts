/**
 * Virtual time for a run's realm: `setTimeout`, `setInterval` and `Date` of the sandbox window answer to a clock that jumps from timer to timer while the snippet runs, so a snippet that waits
 * 11.5 s for retries, stale times and garbage collection finishes at once, with every timestamp it prints (and
 * every event the visualizers record, whose times come from the query library's `timeoutManager`, which reads
 * these globals) exactly what real time would have given, without the jitter. The player then animates that
 * recorded time at the reader's chosen speed.
 *
 * How it moves (drive): between two timers the realm gets a real macrotask turn, so promise continuations,
 * messages and React's scheduler (which captured the real timers when its chunk loaded) run before time jumps
 * to the next timer. It jumps only while the snippet's promise is pending; with no timer left it waits for one
 * (a click in the preview, a message) rather than spin. Once the snippet has settled, timers already due at that
 * instant still fire (notification flushes), and then the clock follows the wall clock from where it stands:
 * what the snippet left running (a refetch interval, a gc timer) carries on in real time, as it would on a page.
 * It does the same, and says why, past MAX_VIRTUAL_MS or MAX_STEPS, so a snippet that never settles cannot
 * spin the realm forever.
 *
 * `performance.now` stays real: it measures how long work takes, and React's scheduler slices its rendering by it.
 *
 * A snippet that needs the wall clock (one that measures how long real work takes) opts out with a line
 * comment `// @playground real-time`, and its page should say why.
 */

type Callback = (...args: unknown[]) => unknown;

/**
 * The run's one clock, as the capture sees it: simulations keep their own virtual clocks (src/wire, one per
 * simulation, starting at 0) and move in microtasks, where the realm's timers never get a turn, so a query
 * whose queryFn awaits `sim.fetch` would see no time pass (issue #27: "+0 ms" for a 250 ms response). The
 * capture maps each simulation's time onto this clock from the moment the simulation was created and
 * catches the clock up as the simulation's events arrive (capture.ts), so what the query library stamps
 * (event times, dataUpdatedAt, stale and gc timers) and what the snippet's `Date.now()` reads agree with the
 * network's times.
 */
export interface RunClock {
  /** The clock's reading, in its own milliseconds. */
  now(): number;
  /** Moves the clock forward to `to` if it is behind; never back. */
  catchUp(to: number): void;
}

let activeClock: RunClock | undefined;

/**
 * The clock simulations move in this realm: the VirtualTime installed last, or one a test sets. A sandbox
 * realm runs one snippet, so there is one.
 */
export function runClock(): RunClock | undefined {
  return activeClock;
}

/** For tests that drive time another way (fake timers): the clock simulations move. Undefined removes it. */
export function setRunClock(clock: RunClock | undefined): void {
  activeClock = clock;
}

/** The realm's real scheduling, taken before the virtual clock replaces it. */
export interface RealTime {
  now(): number;
  /** Epoch milliseconds, where the virtual `Date` starts. */
  epoch(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** One macrotask turn of the realm (a MessageChannel message in a browser). */
  yieldTask(): Promise<void>;
  /** Reports an error a timer callback threw, as an uncaught error of the realm. */
  report(error: unknown): void;
}

/** What the clock replaces on a window (or anything shaped like one, for tests). */
export interface TimeGlobals {
  setTimeout: unknown;
  clearTimeout: unknown;
  setInterval: unknown;
  clearInterval: unknown;
  Date: DateConstructor;
}

/** The line comment a snippet opts into real time with. */
export const REAL_TIME_PRAGMA = /^[ \t]*\/\/[ \t]*@playground[ \t]+real-time\b/m;

/** Fast-forwarding stops after this much virtual time: an hour is more than any lesson waits for. */
export const MAX_VIRTUAL_MS = 60 * 60 * 1000;
/** ...or after this many timers fired, whichever comes first (a 1 ms interval an hour long is 3.6 million). */
export const MAX_STEPS = 100_000;

/**
 * Timer ids start here, far above the small integers browsers hand out, so a clearTimeout given a real timer's
 * id (from code that captured the real setTimeout before the clock was installed) is passed on, not mistaken.
 */
const FIRST_ID = 1_000_000_000;

interface Timer {
  readonly id: number;
  due: number;
  /** Order among timers due at the same instant: the order they were armed in, as browsers do. */
  seq: number;
  readonly callback: Callback;
  readonly args: readonly unknown[];
  readonly interval: number | undefined;
  /** The real timer standing for this one once the clock follows real time. */
  real?: unknown;
}

export interface DriveResult {
  /** Virtual milliseconds from install to the end of fast-forwarding. */
  readonly elapsed: number;
  /** Set when fast-forwarding stopped at a limit rather than because the snippet settled. */
  readonly limit?: 'time' | 'steps';
}

export class VirtualTime implements RunClock {
  readonly #real: RealTime;
  readonly #startEpoch: number;
  #now = 0;
  #mode: 'virtual' | 'real' = 'virtual';
  /** Real-time mode: the virtual time and the real time when the clock started following the wall clock. */
  #base = { virtual: 0, real: 0 };
  #nextId = FIRST_ID;
  #seq = 0;
  readonly #timers = new Map<number, Timer>();
  /** Wakes a drive waiting for a timer to be armed. */
  #armed: (() => void) | undefined;

  constructor(real: RealTime) {
    this.#real = real;
    this.#startEpoch = real.epoch();
  }

  /** Milliseconds since the clock was made. */
  now(): number {
    return this.#mode === 'virtual' ? this.#now : this.#base.virtual + (this.#real.now() - this.#base.real);
  }

  /**
   * Moves the clock forward to `to` (a simulation's events got there first: see RunClock). Timers that fell due
   * on the way fire at the drive's next turn, in due order, as late as the simulation kept the realm busy:
   * never skipped, never before time. Following the wall clock, the reading jumps ahead by the difference, and
   * pending timers keep their due times.
   */
  catchUp(to: number): void {
    const ahead = to - this.now();
    if (!(ahead > 0)) return;
    if (this.#mode === 'virtual') {
      this.#now = to;
      return;
    }
    this.#base = { virtual: this.#base.virtual + ahead, real: this.#base.real };
    for (const timer of this.#timers.values()) {
      if (timer.real !== undefined) this.#real.clearTimeout(timer.real);
      this.#schedule(timer);
    }
  }

  get pending(): number {
    return this.#timers.size;
  }

  setTimeout = (handler: unknown, ms?: unknown, ...args: unknown[]): number => this.#arm(handler, ms, args, false);
  setInterval = (handler: unknown, ms?: unknown, ...args: unknown[]): number => this.#arm(handler, ms, args, true);
  clearTimeout = (id: unknown): void => this.#clear(id);
  clearInterval = (id: unknown): void => this.#clear(id);

  #arm(handler: unknown, ms: unknown, args: readonly unknown[], repeat: boolean): number {
    // A string handler is code to evaluate; snippets are modules in spirit, and the sandbox's CSP forbids eval.
    if (typeof handler !== 'function') throw new TypeError('The playground runs only function callbacks in setTimeout and setInterval.');
    // HTML: a delay that is not a finite non-negative number counts as 0. Intervals get at least 1 ms, so one
    // cannot fire forever at a single instant (browsers clamp nested timers to 4 ms for the same reason).
    const delay = Math.max(0, Number.isFinite(Number(ms)) ? Number(ms) : 0);
    const id = this.#nextId++;
    const timer: Timer = {
      id,
      due: this.now() + delay,
      seq: this.#seq++,
      callback: handler as Callback,
      args,
      interval: repeat ? Math.max(1, delay) : undefined,
    };
    this.#timers.set(id, timer);
    if (this.#mode === 'real') this.#schedule(timer);
    this.#armed?.();
    return id;
  }

  #clear(id: unknown): void {
    const timer = typeof id === 'number' ? this.#timers.get(id) : undefined;
    if (!timer) {
      if (id !== undefined && id !== null) this.#real.clearTimeout(id);
      return;
    }
    this.#timers.delete(timer.id);
    if (timer.real !== undefined) this.#real.clearTimeout(timer.real);
  }

  #next(): Timer | undefined {
    let next: Timer | undefined;
    for (const timer of this.#timers.values()) if (!next || timer.due < next.due || (timer.due === next.due && timer.seq < next.seq)) next = timer;
    return next;
  }

  #fire(timer: Timer): void {
    if (timer.interval === undefined) this.#timers.delete(timer.id);
    else {
      timer.due += timer.interval;
      timer.seq = this.#seq++;
      if (this.#mode === 'real') this.#schedule(timer);
    }
    try {
      timer.callback(...timer.args);
    } catch (error) {
      // As a browser does: the error is reported, and the other timers run on.
      this.#real.report(error);
    }
  }

  #schedule(timer: Timer): void {
    timer.real = this.#real.setTimeout(
      () => {
        if (this.#timers.get(timer.id) === timer) this.#fire(timer);
      },
      Math.max(0, timer.due - this.now()),
    );
  }

  /** From now on the clock follows the wall clock from where it stands; pending timers keep their remaining delays. */
  followRealTime(): void {
    if (this.#mode === 'real') return;
    this.#base = { virtual: this.#now, real: this.#real.now() };
    this.#mode = 'real';
    for (const timer of this.#timers.values()) this.#schedule(timer);
  }

  /**
   * Fast-forwards through the timers while `settled` is pending, then fires what is due at that instant and
   * follows real time (see the file's comment). Never rejects.
   */
  async drive(settled: Promise<unknown>, limits: { maxVirtualMs?: number; maxSteps?: number } = {}): Promise<DriveResult> {
    const { maxVirtualMs = MAX_VIRTUAL_MS, maxSteps = MAX_STEPS } = limits;
    let done = false;
    const finished = settled.then(
      () => void (done = true),
      () => void (done = true),
    );
    let steps = 0;
    let limit: DriveResult['limit'];
    while (this.#mode === 'virtual') {
      // Two turns: the second comes after the tasks queued during the first, among them Chromium's dispatch of
      // unhandledrejection, so a rejection handled only after a wait is still reported as the browser would.
      await this.#real.yieldTask();
      await this.#real.yieldTask();
      const next = this.#next();
      if (done) {
        // What the snippet's last step scheduled for the same instant (a batched notification) belongs to its run.
        if (!next || next.due > this.#now || steps++ >= maxSteps) break;
        this.#fire(next);
        continue;
      }
      if (!next) {
        await Promise.race([finished, new Promise<void>((resolve) => (this.#armed = resolve))]);
        this.#armed = undefined;
        continue;
      }
      if (next.due > maxVirtualMs) limit = 'time';
      else if (steps++ >= maxSteps) limit = 'steps';
      if (limit) break;
      this.#now = Math.max(this.#now, next.due);
      this.#fire(next);
    }
    const elapsed = this.#now;
    this.followRealTime();
    return limit ? { elapsed, limit } : { elapsed };
  }

  /** Puts the clock in place of `target`'s timers and `Date`. */
  install(target: TimeGlobals): void {
    activeClock = this;
    target.setTimeout = this.setTimeout;
    target.setInterval = this.setInterval;
    target.clearTimeout = this.clearTimeout;
    target.clearInterval = this.clearInterval;
    const RealDate = target.Date;
    const epochNow = () => Math.round(this.#startEpoch + this.now());
    // `new Date()` and `Date.now()` read the clock; everything else is the real Date's.
    const VirtualDate = function (this: unknown, ...args: unknown[]) {
      if (!new.target) return new RealDate(epochNow()).toString();
      return args.length === 0 ? new RealDate(epochNow()) : new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
    } as unknown as DateConstructor;
    Object.setPrototypeOf(VirtualDate, RealDate);
    Object.defineProperty(VirtualDate, 'prototype', { value: RealDate.prototype });
    Object.defineProperty(VirtualDate, 'now', { value: epochNow, configurable: true, writable: true });
    target.Date = VirtualDate;
  }
}

/** The real time of a browser window, taken before `install` replaces it. */
export function windowRealTime(win: Window & typeof globalThis): RealTime {
  const { setTimeout: set, clearTimeout: clear, Date: RealDate } = win;
  const perfNow = win.performance.now.bind(win.performance);
  const channel = new MessageChannel();
  const turns: (() => void)[] = [];
  channel.port1.onmessage = () => turns.shift()?.();
  return {
    now: perfNow,
    epoch: () => RealDate.now(),
    setTimeout: (callback, ms) => set.call(win, callback, ms),
    clearTimeout: (handle) => clear.call(win, handle as number),
    // A message rather than setTimeout(0), which browsers clamp to 4 ms once nested: thousands of steps would wait.
    yieldTask: () =>
      new Promise<void>((resolve) => {
        turns.push(resolve);
        channel.port2.postMessage(null);
      }),
    report: (error) => win.reportError(error),
  };
}
