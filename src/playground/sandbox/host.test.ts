// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

// jsdom has no state-preserving move; Chromium does, and the host only adopts sandboxes where it exists.
vi.hoisted(() => {
  Object.defineProperty(Element.prototype, 'moveBefore', { configurable: true, value: Element.prototype.insertBefore });
});

import { SandboxHost, type RunEvent } from './host';
import { handOver, parkingLot, takeHandedOver, type OpenedSandbox } from './spare';
import { parseHostMessage, type HostToSandbox } from './protocol';

/** A sandbox opened ahead whose "realm" is this test: it answers a run with one console line and done. */
function fakeSandbox(): { sandbox: OpenedSandbox; received: HostToSandbox[] } {
  const iframe = document.createElement('iframe');
  parkingLot().append(iframe);
  const channel = new MessageChannel();
  const received: HostToSandbox[] = [];
  channel.port2.onmessage = (e: MessageEvent) => {
    const msg = parseHostMessage(e.data);
    if (!msg) return;
    received.push(msg);
    if (msg.type === 'run') {
      channel.port2.postMessage({ v: 1, type: 'console', runId: msg.runId, level: 'log', text: 'hi' });
      channel.port2.postMessage({ v: 1, type: 'done', runId: msg.runId });
    }
  };
  channel.port1.start();
  return { sandbox: { iframe, port: Promise.resolve(channel.port1) }, received };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('SandboxHost with a sandbox opened ahead', () => {
  it('runs in the adopted sandbox, moved into the playground, sending precompiled code along', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { sandbox, received } = fakeSandbox();
    handOver('pg', sandbox);
    const src = vi.fn(() => '/sandbox/index.html');
    const host = new SandboxHost({ src, container });
    host.adopt(takeHandedOver('pg'));
    const events: RunEvent[] = [];
    await host.run('const a: number = 1;', (e) => events.push(e), undefined, 'const a = 1;');
    expect(events.map((e) => e.type)).toEqual(['console', 'done']);
    expect(received).toEqual([{ v: 1, type: 'run', runId: 1, code: 'const a: number = 1;', js: 'const a = 1;' }]);
    expect(sandbox.iframe.parentElement).toBe(container);
    // No second sandbox was opened for this run (the next one is prepared after it, from `src`).
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    host.reset();
  });

  it('keeps its own spare and drops a second sandbox offered', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const host = new SandboxHost({ src: '/sandbox/index.html#wire', container });
    host.prewarm();
    const spare = parkingLot().querySelector('iframe');
    expect(spare?.getAttribute('src')).toBe('/sandbox/index.html#wire');
    const { sandbox } = fakeSandbox();
    host.adopt(sandbox);
    expect(sandbox.iframe.isConnected).toBe(false);
    expect(spare?.isConnected).toBe(true);
    host.reset();
    expect(spare?.isConnected).toBe(false);
  });

  it('hands over a sandbox once, and not one that left the page', () => {
    const first = fakeSandbox().sandbox;
    handOver('a', first);
    const second = fakeSandbox().sandbox;
    handOver('a', second);
    // Replaced: the older frame is gone rather than left running in the parking lot.
    expect(first.iframe.isConnected).toBe(false);
    expect(takeHandedOver('a')).toBe(second);
    expect(takeHandedOver('a')).toBeUndefined();
    const gone = fakeSandbox().sandbox;
    handOver('b', gone);
    gone.iframe.remove();
    expect(takeHandedOver('b')).toBeUndefined();
  });
});
