/**
 * The host side of the sandbox: owns one iframe, does the handshake, runs code and streams back what happened.
 *
 * Every run gets a fresh iframe, so a fresh JavaScript realm: nothing a previous run left behind (timers, React
 * roots, the query library's per-realm managers) can change what this run does, and a run replays exactly.
 *
 * While a run is in flight the sandbox sends a heartbeat. A run whose sandbox falls silent for `stallMs`
 * (an infinite loop or runaway recursion blocks its thread) gets its iframe thrown away and replaced, so the
 * next run starts clean, and the reader is told why. A run that is merely waiting (timers, promises) keeps
 * beating and is left alone.
 *
 * Starting a realm (loading and running the sandbox runtime) is most of the time between Run and the first
 * output, so after each run the host prepares the next sandbox in the background: a spare iframe parked in a
 * hidden container, moved into place when Run is pressed with `moveBefore` (DOM's state-preserving move, so the
 * spare's document survives the move; with `append` it would reload). Browsers without `moveBefore` start a
 * sandbox per run as before. The first spare may come from the `client:interaction` directive, which opens it
 * on the reader's first sign of intent (spare.ts); `adopt` takes it over. If Run was pressed before the island
 * hydrated, that sandbox is already running the page's snippet (spare.ts startEarlyRun): the first run takes
 * that run over, output so far included, rather than starting the same one again.
 */
import type { DevtoolsAction } from '../recording/model';
import { HEARTBEAT_MS, parseSandboxMessage, SANDBOX_PROTOCOL_VERSION, type HostToSandbox, type SandboxToHost } from './protocol';
import { canMoveIframes, openSandbox, parkingLot, type EarlyRun, type OpenedSandbox } from './spare';

export type RunEvent =
  | Exclude<SandboxToHost, { type: 'hello' } | { type: 'alive' } | { type: 'preview' }>
  | { type: 'timeout'; runId: number; message: string };

export interface SandboxHostOptions {
  /**
   * URL of the sandbox page, or a function giving it at the time a sandbox opens (the address names the chunks
   * to load ahead, which depend on the code: chunks.mjs sandboxSrc).
   */
  src: string | (() => string);
  /** Element the (invisible) iframe is attached to. */
  container: HTMLElement;
  /** How long the sandbox may stop answering before the run is stopped. */
  stallMs?: number;
}

type MovableParent = HTMLElement & { moveBefore(node: Node, child: Node | null): void };

/** How long after a run the next sandbox starts loading at the earliest: a few frames of drawing its output. */
const PREWARM_DELAY_MS = 250;

/** Calls `task` once the page has had PREWARM_DELAY_MS to draw and is then idle (or a second later at most). */
function whenSettled(task: () => void): void {
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 1000 });
    else task();
  }, PREWARM_DELAY_MS);
}

export class SandboxHost {
  #options: Required<SandboxHostOptions>;
  #iframe: HTMLIFrameElement | undefined;
  #port: Promise<MessagePort> | undefined;
  #nextRunId = 1;
  /** The run whose sandbox is alive, and the port to it: devtools actions go there. */
  #live: { runId: number; port: MessagePort } | undefined;
  /** A fresh sandbox loading (or loaded) in the parking lot, for the next run. */
  #spare: OpenedSandbox | undefined;

  constructor(options: SandboxHostOptions) {
    this.#options = { stallMs: 2000, ...options };
  }

  /** A run already going in the current sandbox (the adopted spare's early run), for `run` to take over. */
  #early: EarlyRun | undefined;

  /**
   * The spare's port when the spare has said hello already (and runs nothing, or the run about to start), taken
   * into place without waiting; undefined otherwise (then `#connect`).
   */
  #connectNow(wanted: (early: EarlyRun) => boolean): MessagePort | undefined {
    const spare = this.#spare;
    if (this.#port || !spare?.ready || !spare.iframe.isConnected || (spare.early && !wanted(spare.early))) return undefined;
    this.#spare = undefined;
    this.#use(spare);
    return spare.ready;
  }

  /** Makes `spare`, which said hello, the current sandbox: moved into the playground, its document kept. */
  #use(spare: OpenedSandbox): void {
    (this.#options.container as MovableParent).moveBefore(spare.iframe, null);
    this.#iframe = spare.iframe;
    this.#port = spare.port;
    this.#early = spare.early;
  }

  /** `wanted`: whether a spare's early run is the run about to start; a spare running anything else is dropped. */
  async #connect(wanted: (early: EarlyRun) => boolean): Promise<MessagePort> {
    if (this.#port) return this.#port;
    let spare = this.#spare;
    this.#spare = undefined;
    if (spare?.early && !wanted(spare.early)) {
      spare.iframe.remove();
      spare = undefined;
    }
    if (spare?.iframe.isConnected) {
      const ready = await Promise.race([spare.port, new Promise<undefined>((resolve) => setTimeout(resolve, this.#options.stallMs))]);
      if (ready) {
        this.#use(spare);
        return ready;
      }
      // A spare that never said hello (its process is stuck, or it failed to load): start afresh.
      spare.iframe.remove();
    }
    const opened = this.#open(this.#options.container);
    this.#iframe = opened.iframe;
    this.#port = opened.port;
    return this.#port;
  }

  /** Opens a sandbox in `parent` whose preview (once it is this host's current frame) sizes the frame. */
  #open(parent: HTMLElement): OpenedSandbox {
    const { src } = this.#options;
    return this.#watch(openSandbox(typeof src === 'function' ? src() : src, parent));
  }

  /** The preview follows the sandbox for as long as it lives: React renders after the snippet's last line. */
  #watch(sandbox: OpenedSandbox): OpenedSandbox {
    void sandbox.port.then((port) =>
      port.addEventListener('message', (e: MessageEvent) => {
        const msg = parseSandboxMessage(e.data);
        if (msg?.type === 'preview' && this.#iframe === sandbox.iframe) this.setPreviewHeight(msg.height);
      }),
    );
    return sandbox;
  }

  /**
   * Takes over a sandbox opened ahead (by the directive, spare.ts) as the next run's spare. Dropped when this
   * host has a spare already or the browser cannot move frames without reloading them.
   */
  adopt(sandbox: OpenedSandbox | undefined): void {
    if (!sandbox) return;
    if (this.#spare || !canMoveIframes || !sandbox.iframe.isConnected) {
      sandbox.iframe.remove();
      return;
    }
    this.#spare = this.#watch(sandbox);
  }

  /** Starts loading the next run's sandbox now, so Run does not wait for a realm to start. */
  prewarm(): void {
    if (!canMoveIframes || this.#spare) return;
    this.#spare = this.#open(parkingLot());
  }

  /** Drops the current iframe (and whatever runs in it); the next run takes the spare or makes a new one. */
  #dropCurrent(): void {
    void this.#port?.then((port) => port.close());
    this.#iframe?.remove();
    this.#iframe = undefined;
    this.#port = undefined;
    this.#live = undefined;
    this.#early = undefined;
  }

  /** Drops every iframe this host made, the spare included. */
  reset(): void {
    this.#dropCurrent();
    void this.#spare?.port.then((port) => port.close());
    this.#spare?.iframe.remove();
    this.#spare = undefined;
  }

  /** True while run `runId`'s sandbox lives (until the next run, a reset, or a stopped run). */
  isLive(runId: number): boolean {
    return this.#live?.runId === runId;
  }

  /**
   * Sends a query devtools action to source `sourceId` of run `runId`. False (nothing sent) when that run's
   * sandbox is gone: a newer run replaced it or it was stopped.
   */
  devtools(runId: number, sourceId: string, action: DevtoolsAction): boolean {
    const live = this.#live;
    if (!live || live.runId !== runId) return false;
    const message: HostToSandbox = { v: SANDBOX_PROTOCOL_VERSION, type: 'devtools', runId, sourceId, action };
    live.port.postMessage(message);
    return true;
  }

  /**
   * Shows the sandbox frame as a live preview `height` pixels tall (what the snippet rendered), or hides it
   * again with 0. A hidden frame stays out of the accessibility tree and the tab order.
   */
  setPreviewHeight(height: number): void {
    const iframe = this.#iframe;
    if (!iframe) return;
    const visible = height > 0;
    iframe.toggleAttribute('data-visible', visible);
    iframe.style.height = visible ? `${height}px` : '';
    iframe.setAttribute('title', visible ? 'Preview of what the snippet rendered' : 'Playground sandbox');
    if (visible) iframe.removeAttribute('aria-hidden');
    else iframe.setAttribute('aria-hidden', 'true');
    iframe.tabIndex = visible ? 0 : -1;
  }

  /**
   * Runs `code` in a fresh sandbox; `onEvent` receives output, then one of done, error or timeout (the returned
   * promise settles then). Console output that comes later (a React component logging as it renders, a click
   * in the preview) still reaches `onEvent` until the next run replaces the sandbox.
   */
  async run(
    code: string,
    onEvent: (event: RunEvent) => void,
    options?: Readonly<Record<string, unknown>>,
    /** `code` compiled already (the page's own snippet, at build time): the sandbox skips its compiler. */
    js?: string,
  ): Promise<void> {
    this.#dropCurrent();
    const wanted = (early: EarlyRun) => js !== undefined && early.js === js && Object.keys(options ?? {}).length === 0;
    // With a spare that is ready, the run message goes out before this call returns (the caller's click has not
    // even been rendered yet); otherwise once a sandbox has said hello.
    const port = this.#connectNow(wanted) ?? (await this.#connect(wanted));
    const early = this.#early;
    this.#early = undefined;
    const runId = early ? early.runId : this.#nextRunId;
    this.#nextRunId = runId + 1;
    this.#live = { runId, port };
    await new Promise<void>((resolve) => {
      let lastHeard = performance.now();
      let finished = false;
      const finish = (event: RunEvent) => {
        finished = true;
        onEvent(event);
        resolve();
        // After the run's own work, not during it: the next sandbox loads while the reader reads the output.
        // Not at once either: a new sandbox is a new renderer process, and on a small machine starting it
        // competes with drawing this run's output (a run taken over from the directive finishes before the
        // visualizers have even loaded). Not after a stopped run: a sandbox made now could land in the stuck
        // one's process.
        if (event.type !== 'timeout') whenSettled(() => this.prewarm());
      };
      const onMessage = (data: unknown) => {
        const msg = parseSandboxMessage(data);
        if (!msg || msg.type === 'hello' || msg.runId !== runId) return;
        lastHeard = performance.now();
        if (msg.type === 'alive' || msg.type === 'preview') return;
        // Output and visualizer events keep coming after 'done' (timers, a live query client), like console output.
        if (msg.type === 'console' || msg.type === 'options' || msg.type === 'viz-source' || msg.type === 'viz-events') onEvent(msg);
        else if (!finished) finish(msg);
      };
      // The watchdog outlives 'done': a microtask that re-queues itself lets the run finish, then holds the
      // sandbox's thread forever. It watches until the sandbox goes (reset, the next run).
      const watchdog = setInterval(() => {
        if (!this.isLive(runId)) {
          clearInterval(watchdog);
          return;
        }
        // A hidden tab throttles timers on both sides (to once a second, then once a minute), so silence
        // proves nothing there; the count starts again when the reader comes back.
        if (document.visibilityState === 'hidden') lastHeard = performance.now();
        if (performance.now() - lastHeard < this.#options.stallMs) return;
        clearInterval(watchdog);
        // The spare goes too: it may share the stuck frame's renderer process and never finish loading.
        this.reset();
        // So does every other sandbox on the page (other playgrounds' spares, ones warmed on view): the browser
        // groups sandboxed frames of one site into one process, which lives, stuck, while any frame is in it, and
        // the page hung with it (e2e playground-skeleton: a page with two playgrounds stopped answering). Each
        // host opens a new one on its next run; one that is running now is stopped by its own watchdog.
        for (const frame of document.querySelectorAll('iframe.rt-sandbox-frame')) frame.remove();
        const seconds = this.#options.stallMs / 1000;
        const stopped: RunEvent = {
          type: 'timeout',
          runId,
          message: `Stopped: the snippet blocked for more than ${seconds} s without yielding (an infinite loop or runaway recursion?). The next run starts fresh.`,
        };
        if (finished) onEvent(stopped);
        else finish(stopped);
      }, HEARTBEAT_MS);
      if (early) {
        early.take(onMessage);
        return;
      }
      port.addEventListener('message', (e: MessageEvent) => onMessage(e.data));
      port.start();
      const message: HostToSandbox = {
        v: SANDBOX_PROTOCOL_VERSION,
        type: 'run',
        runId,
        code,
        ...(js !== undefined ? { js } : {}),
        ...(options ? { options: { ...options } } : {}),
      };
      port.postMessage(message);
    });
  }
}
