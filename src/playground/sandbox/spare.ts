/**
 * Opening a sandbox iframe and its handshake, apart from the host, so that the `client:interaction` directive
 * can start a playground's first sandbox the moment the reader shows intent, before the island's code (React,
 * the host) has even downloaded. The directive parks the frame and hands it over through a per-page registry;
 * the island's SandboxHost adopts it as its prepared spare (host.ts).
 *
 * Kept small and dependency-free: the directive ships inline on every docs page with a playground.
 */
import { SANDBOX_PROTOCOL_VERSION, type HostToSandbox } from './protocol';

export interface OpenedSandbox {
  readonly iframe: HTMLIFrameElement;
  /** Settles with the private port once the sandbox said hello; never settles if it does not load. */
  readonly port: Promise<MessagePort>;
  /**
   * The same port, set the moment it exists: a run in a sandbox that is ready can then be sent within the click
   * that asked for it, instead of after the microtasks a promise takes (React renders the click in one of them).
   */
  ready?: MessagePort;
  /** The run started in this sandbox before a host took it over (startEarlyRun), if any. */
  early?: EarlyRun;
}

/**
 * A run of the page's own compiled snippet that the directive started the moment Run was pressed, before the
 * island had hydrated, so that starting the realm and running overlap with hydration instead of following it.
 * What the sandbox sends waits here until the host takes the run over.
 */
export interface EarlyRun {
  readonly runId: number;
  /** The compiled code it runs: the host takes the run over only for the same code and default options. */
  readonly js: string;
  /** Hands over what the run sent so far, in order, then each later message as it comes. */
  take(onMessage: (data: unknown) => void): void;
}

/**
 * Runs `js` (the page's snippet compiled at build time) in `sandbox` as soon as it says hello, with default
 * options, as run `runId`. Does nothing when the sandbox has a run already.
 */
export function startEarlyRun(sandbox: OpenedSandbox, js: string, runId = 1): void {
  if (sandbox.early) return;
  const waiting: unknown[] = [];
  let sink: ((data: unknown) => void) | undefined;
  sandbox.early = {
    runId,
    js,
    take(onMessage) {
      sink = onMessage;
      for (const data of waiting.splice(0)) onMessage(data);
    },
  };
  void sandbox.port.then((port) => {
    port.addEventListener('message', (event: MessageEvent) => {
      if (sink) sink(event.data);
      // Heartbeats say the run is alive now; kept, they would pile up for as long as no host takes the run over.
      else if ((event.data as { type?: unknown } | null)?.type !== 'alive') waiting.push(event.data);
    });
    // `code` is what the reader sees; with `js` given the sandbox runs that and never compiles `code`.
    port.postMessage({ v: SANDBOX_PROTOCOL_VERSION, type: 'run', runId, code: js, js } satisfies HostToSandbox);
  });
}

/** The sandbox handed over for playground `id`, left in place (the directive may still start a run in it). */
export function peekHandedOver(id: string): OpenedSandbox | undefined {
  const sandbox = registry().get(id);
  return sandbox?.iframe.isConnected ? sandbox : undefined;
}

/**
 * True where DOM's state-preserving move (`moveBefore`) exists. Without it, moving a parked frame into the
 * playground would reload it, so a frame prepared ahead is worth nothing there.
 */
export const canMoveIframes = typeof Element !== 'undefined' && 'moveBefore' in Element.prototype;

/** Creates a sandbox iframe for `src` in `parent` and starts the handshake (protocol.ts, steps 1 and 2). */
export function openSandbox(src: string, parent: HTMLElement): OpenedSandbox {
  const iframe = document.createElement('iframe');
  // allow-scripts only: no allow-same-origin, so the snippet runs with an opaque origin.
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('title', 'Playground sandbox');
  iframe.setAttribute('aria-hidden', 'true');
  iframe.tabIndex = -1;
  iframe.className = 'rt-sandbox-frame';
  iframe.src = src;
  let opened: OpenedSandbox | undefined;
  const port = new Promise<MessagePort>((resolve) => {
    const onHello = (event: MessageEvent) => {
      if (event.source !== iframe.contentWindow || event.origin !== 'null') return;
      const data = event.data as { v?: unknown; type?: unknown } | null;
      if (data?.v !== SANDBOX_PROTOCOL_VERSION || data.type !== 'hello') return;
      window.removeEventListener('message', onHello);
      const channel = new MessageChannel();
      // An opaque origin cannot be named as a target; the message carries only the port.
      iframe.contentWindow?.postMessage({ v: SANDBOX_PROTOCOL_VERSION, type: 'connect' }, '*', [channel.port2]);
      channel.port1.start();
      if (opened) opened.ready = channel.port1;
      resolve(channel.port1);
    };
    window.addEventListener('message', onHello);
  });
  parent.append(iframe);
  opened = { iframe, port };
  return opened;
}

/** One hidden container per page for sandboxes prepared ahead, outside every playground. */
export function parkingLot(): HTMLElement {
  let lot = document.querySelector<HTMLElement>('body > .rt-sandbox-parking');
  if (!lot) {
    lot = document.createElement('div');
    lot.className = 'rt-sandbox-parking';
    lot.hidden = true;
    lot.setAttribute('aria-hidden', 'true');
    document.body.append(lot);
  }
  return lot;
}

/** The page's registry: the directive's inline script and the island's bundle are separate copies of this file. */
const REGISTRY = Symbol.for('roundtrip.sandbox.handedOver');
type Registry = Map<string, OpenedSandbox>;
function registry(): Registry {
  const g = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  return (g[REGISTRY] ??= new Map());
}

/** Leaves a prepared sandbox for playground `id`'s host to adopt. */
export function handOver(id: string, sandbox: OpenedSandbox): void {
  registry().get(id)?.iframe.remove();
  registry().set(id, sandbox);
}

/** The sandbox prepared for playground `id`, once (the caller owns it from then on). */
export function takeHandedOver(id: string): OpenedSandbox | undefined {
  const sandbox = registry().get(id);
  registry().delete(id);
  return sandbox?.iframe.isConnected ? sandbox : undefined;
}
