/**
 * Opening a sandbox iframe and its handshake, apart from the host, so that the `client:interaction` directive
 * can start a playground's first sandbox the moment the reader shows intent, before the island's code (React,
 * the host) has even downloaded. The directive parks the frame and hands it over through a per-page registry;
 * the island's SandboxHost adopts it as its prepared spare (host.ts).
 *
 * Kept small and dependency-free: the directive ships inline on every docs page with a playground.
 */
import { SANDBOX_PROTOCOL_VERSION } from './protocol';

export interface OpenedSandbox {
  readonly iframe: HTMLIFrameElement;
  /** Settles with the private port once the sandbox said hello; never settles if it does not load. */
  readonly port: Promise<MessagePort>;
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
      resolve(channel.port1);
    };
    window.addEventListener('message', onHello);
  });
  parent.append(iframe);
  return { iframe, port };
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
