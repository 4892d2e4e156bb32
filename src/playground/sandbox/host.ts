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
 */
import { HEARTBEAT_MS, parseSandboxMessage, SANDBOX_PROTOCOL_VERSION, type HostToSandbox, type SandboxToHost } from './protocol';

export type RunEvent =
  | Exclude<SandboxToHost, { type: 'hello' } | { type: 'alive' } | { type: 'preview' }>
  | { type: 'timeout'; runId: number; message: string };

export interface SandboxHostOptions {
  /** URL of the sandbox page. */
  src: string;
  /** Element the (invisible) iframe is attached to. */
  container: HTMLElement;
  /** How long the sandbox may stop answering before the run is stopped. */
  stallMs?: number;
}

export class SandboxHost {
  #options: Required<SandboxHostOptions>;
  #iframe: HTMLIFrameElement | undefined;
  #port: Promise<MessagePort> | undefined;
  #nextRunId = 1;

  constructor(options: SandboxHostOptions) {
    this.#options = { stallMs: 2000, ...options };
  }

  #connect(): Promise<MessagePort> {
    if (this.#port) return this.#port;
    const iframe = document.createElement('iframe');
    // allow-scripts only: no allow-same-origin, so the snippet runs with an opaque origin.
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('title', 'Playground sandbox');
    iframe.setAttribute('aria-hidden', 'true');
    iframe.tabIndex = -1;
    iframe.className = 'rt-sandbox-frame';
    iframe.src = this.#options.src;
    this.#iframe = iframe;
    this.#port = new Promise<MessagePort>((resolve) => {
      const onHello = (event: MessageEvent) => {
        if (event.source !== iframe.contentWindow || event.origin !== 'null') return;
        if (parseSandboxMessage(event.data)?.type !== 'hello') return;
        window.removeEventListener('message', onHello);
        const channel = new MessageChannel();
        const connect: HostToSandbox = { v: SANDBOX_PROTOCOL_VERSION, type: 'connect' };
        // An opaque origin cannot be named as a target; the message carries only the port.
        iframe.contentWindow?.postMessage(connect, '*', [channel.port2]);
        // The preview follows the sandbox for as long as it lives: React renders after the snippet's last line.
        channel.port1.addEventListener('message', (e: MessageEvent) => {
          const msg = parseSandboxMessage(e.data);
          if (msg?.type === 'preview' && this.#iframe === iframe) this.setPreviewHeight(msg.height);
        });
        channel.port1.start();
        resolve(channel.port1);
      };
      window.addEventListener('message', onHello);
    });
    this.#options.container.append(iframe);
    return this.#port;
  }

  /** Drops the iframe (and whatever runs in it); the next run makes a new one. */
  reset(): void {
    void this.#port?.then((port) => port.close());
    this.#iframe?.remove();
    this.#iframe = undefined;
    this.#port = undefined;
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
  async run(code: string, onEvent: (event: RunEvent) => void): Promise<void> {
    this.reset();
    const port = await this.#connect();
    const runId = this.#nextRunId++;
    await new Promise<void>((resolve) => {
      let lastHeard = performance.now();
      let finished = false;
      const finish = (event: RunEvent) => {
        clearInterval(watchdog);
        finished = true;
        onEvent(event);
        resolve();
      };
      const onMessage = (e: MessageEvent) => {
        const msg = parseSandboxMessage(e.data);
        if (!msg || msg.type === 'hello' || msg.runId !== runId) return;
        lastHeard = performance.now();
        if (msg.type === 'alive' || msg.type === 'preview') return;
        if (msg.type === 'console') onEvent(msg);
        else if (!finished) finish(msg);
      };
      const watchdog = setInterval(() => {
        if (performance.now() - lastHeard < this.#options.stallMs) return;
        this.reset();
        const seconds = this.#options.stallMs / 1000;
        finish({
          type: 'timeout',
          runId,
          message: `Stopped: the snippet blocked for more than ${seconds} s without yielding (an infinite loop or runaway recursion?). The next run starts fresh.`,
        });
      }, HEARTBEAT_MS);
      port.addEventListener('message', onMessage);
      port.start();
      const message: HostToSandbox = { v: SANDBOX_PROTOCOL_VERSION, type: 'run', runId, code };
      port.postMessage(message);
    });
  }
}
