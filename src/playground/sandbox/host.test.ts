// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

// jsdom has no state-preserving move; Chromium does, and the host only adopts sandboxes where it exists.
vi.hoisted(() => {
  Object.defineProperty(Element.prototype, 'moveBefore', { configurable: true, value: Element.prototype.insertBefore });
});

import { SandboxHost, type RunEvent } from './host';
import { handOver, openSandbox, parkingLot, peekHandedOver, startEarlyRun, takeHandedOver, type OpenedSandbox } from './spare';
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
      channel.port2.postMessage({ v: 1, type: 'alive', runId: msg.runId });
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

/**
 * Resolves once `count` messages have reached `port` after this call. Listeners run in the order they were
 * added, so one added after the early run's has seen a message only once the early run has too: a wait on
 * that, not on a few milliseconds of wall-clock time (20 ms were not always enough on a busy machine).
 */
function arrived(port: MessagePort, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    port.addEventListener('message', () => ++seen === count && resolve());
  });
}

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

  it('sends the run within the call when the spare has said hello, and waits for the hello when not', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const ready = fakeSandbox();
    const port = await ready.sandbox.port;
    const post = vi.spyOn(port, 'postMessage');
    const host = new SandboxHost({ src: '/sandbox/with-wire.html', container });
    host.adopt({ ...ready.sandbox, ready: port });
    const done = host.run('const a = 1;', () => {}, undefined, 'const a = 1;');
    // Not a microtask later: before anything else on the page (React rendering the click) gets to run.
    expect(post).toHaveBeenCalledTimes(1);
    expect(ready.sandbox.iframe.parentElement).toBe(container);
    await done;
    host.reset();

    const loading = fakeSandbox();
    const loadingPort = await loading.sandbox.port;
    const loadingPost = vi.spyOn(loadingPort, 'postMessage');
    const later = new SandboxHost({ src: '/sandbox/with-wire.html', container });
    later.adopt(loading.sandbox);
    const next = later.run('const a = 1;', () => {}, undefined, 'const a = 1;');
    expect(loadingPost).not.toHaveBeenCalled();
    await next;
    expect(loadingPost).toHaveBeenCalledTimes(1);
    later.reset();
  });

  it('marks a sandbox ready, with its port, when its own frame says hello', async () => {
    const opened = openSandbox('/sandbox/with-wire.html', parkingLot());
    const hello = (source: Window | null, origin = 'null') =>
      window.dispatchEvent(new MessageEvent('message', { data: { v: 1, type: 'hello' }, origin, source }));
    hello(window);
    hello(opened.iframe.contentWindow, 'https://elsewhere.example');
    await Promise.resolve();
    expect(opened.ready).toBeUndefined();
    hello(opened.iframe.contentWindow);
    expect(opened.ready).toBeDefined();
    expect(await opened.port).toBe(opened.ready);
    opened.ready?.close();
    opened.iframe.remove();
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

  it('takes over the run started before hydration, with what it sent so far, and sends no second run', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { sandbox, received } = fakeSandbox();
    handOver('pg', sandbox);
    startEarlyRun(peekHandedOver('pg')!, 'const a = 1;');
    // A second press before hydration does not start the run again.
    startEarlyRun(peekHandedOver('pg')!, 'const a = 1;');
    const port = await peekHandedOver('pg')!.port;
    // The sandbox answers (alive, console, done) before any host exists: its messages wait for the one that
    // takes the run over.
    const answered = arrived(port, 3);
    await vi.waitFor(() => expect(received).toEqual([{ v: 1, type: 'run', runId: 1, code: 'const a = 1;', js: 'const a = 1;' }]));
    await answered;
    const host = new SandboxHost({ src: '/sandbox/with-wire.html', container });
    host.adopt(takeHandedOver('pg'));
    const events: RunEvent[] = [];
    await host.run('const a: number = 1;', (e) => events.push(e), {}, 'const a = 1;');
    expect(events).toEqual([
      { v: 1, type: 'console', runId: 1, level: 'log', text: 'hi' },
      { v: 1, type: 'done', runId: 1 },
    ]);
    expect(received).toHaveLength(1);
    expect(sandbox.iframe.parentElement).toBe(container);
    expect(host.isLive(1)).toBe(true);
    host.reset();
  });

  it('keeps what an early run sent for the host, heartbeats aside, then passes everything on as it comes', async () => {
    const iframe = document.createElement('iframe');
    parkingLot().append(iframe);
    const channel = new MessageChannel();
    channel.port1.start();
    const sandbox: OpenedSandbox = { iframe, port: Promise.resolve(channel.port1) };
    startEarlyRun(sandbox, 'const a = 1;');
    await Promise.resolve();
    const sent = arrived(channel.port1, 3);
    for (const type of ['alive', 'done', 'alive']) channel.port2.postMessage({ v: 1, type, runId: 1 });
    await sent;
    const taken: unknown[] = [];
    sandbox.early!.take((data) => taken.push(data));
    expect(taken).toEqual([{ v: 1, type: 'done', runId: 1 }]);
    channel.port2.postMessage({ v: 1, type: 'alive', runId: 1 });
    await vi.waitFor(() => expect(taken).toHaveLength(2));
    expect(taken[1]).toEqual({ v: 1, type: 'alive', runId: 1 });
    channel.port1.close();
  });

  it('drops a sandbox running something else than the run asked for, and runs in a fresh one', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { sandbox } = fakeSandbox();
    startEarlyRun(sandbox, 'const a = 1;');
    const host = new SandboxHost({ src: '/sandbox/with-wire-compiler.html', container, stallMs: 50 });
    host.adopt(sandbox);
    const events: RunEvent[] = [];
    // Edited code (no precompiled js): the early run is not this run. The fresh frame never loads in jsdom.
    const done = host.run('const a = 2;', (e) => events.push(e), {});
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sandbox.iframe.isConnected).toBe(false);
    const frames = container.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.getAttribute('src')).toBe('/sandbox/with-wire-compiler.html');
    expect(events).toEqual([]);
    host.reset();
    void done;
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
