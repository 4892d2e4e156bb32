// @vitest-environment jsdom
/**
 * The comparison snippets, run the way the playground runs them (compiled, executed with the instrumented
 * wire module, captured as sources, recorded by the host's store) and shown in the Compare view.
 */
import { readFileSync } from 'node:fs';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import * as wire from 'roundtrip/wire';
import * as query from 'roundtrip/query';
import * as playground from 'roundtrip/playground';
import { compileSnippet } from '../../sandbox/compile';
import { executeSnippet } from '../../sandbox/execute';
import { formatArgs } from '../../sandbox/format';
import { createCapture } from '../../sandbox/capture';
import { instrumentWireModule } from '../../sandbox/capture-wire';
import { RecordingStore } from '../recording';
import type { Recording } from '../../recording/model';
import CompareView from './CompareView';

afterEach(cleanup);

async function record(file: string): Promise<{ output: string[]; recording: Recording }> {
  const compiled = compileSnippet(readFileSync(`content/snippets/${file}`, 'utf8'));
  if (!compiled.ok) throw new Error(compiled.message);
  const store = new RecordingStore();
  const capture = createCapture({
    runId: 1,
    send: (m) => {
      if (m.type === 'viz-source') store.addSource(m.source);
      else if (m.type === 'viz-events') store.append(m.sourceId, m.events);
    },
    warn: () => {},
    schedule: (flush) => queueMicrotask(flush),
  });
  const modules = { 'roundtrip/wire': instrumentWireModule(wire, capture), 'roundtrip/query': query, 'roundtrip/playground': playground };
  const output: string[] = [];
  const log = (...args: unknown[]) => output.push(formatArgs(args));
  await executeSnippet(compiled.js, modules, { log, info: log, warn: log, error: log, debug: log });
  capture.flush();
  return { output, recording: store.snapshot() };
}

const labels = (container: HTMLElement) => [...container.querySelectorAll('tbody th')].map((th) => th.firstChild!.textContent);

describe('comparison snippets', () => {
  it('http-compare-page-load: seven labelled runs of one page, the fastest marked', async () => {
    const { output, recording } = await record('http-compare-page-load.ts');
    expect(recording.sources).toHaveLength(7);
    const { container } = render(<CompareView recording={recording} cursor={recording.steps.length - 1} />);
    const names = labels(container);
    expect(names).toEqual(output.map((line) => line.slice(0, line.indexOf(':'))));
    expect(names[0]).toBe('HTTP/1.0, a new connection per request');
    expect(names[6]).toBe('HTTP/3 (QUIC)');
    // The printed times are the ones the view shows, and the fastest printed run is the marked one.
    const printed = output.map((line) => Number(/: (\d+) ms/.exec(line)![1]));
    const best = printed.indexOf(Math.min(...printed));
    expect(container.querySelector('tr[data-source-id].is-fastest th')!.firstChild!.textContent).toBe(names[best]);
    // A connection per request for the short-lived run; one for HTTP/2 and HTTP/3.
    const connections = [...container.querySelectorAll('[data-col="connections"]')].map((td) => Number(td.textContent));
    expect(connections[0]).toBe(9);
    expect(connections[5]).toBe(1);
    expect(connections[6]).toBe(1);
    expect(connections[4]).toBe(6);
  });

  it('http3-vs-http2-loss: four labelled runs, losses counted only on the lossy ones', async () => {
    const { recording } = await record('http3-vs-http2-loss.ts');
    const { container } = render(<CompareView recording={recording} cursor={recording.steps.length - 1} />);
    expect(labels(container)).toEqual(['HTTP/2, no loss', 'HTTP/2, 10% loss', 'HTTP/3, no loss', 'HTTP/3, 10% loss']);
    const lost = [...container.querySelectorAll('[data-col="lost"]')].map((td) => Number(td.textContent));
    expect(lost[0]).toBe(0);
    expect(lost[2]).toBe(0);
    expect(lost[1]! + lost[3]!).toBeGreaterThan(0);
  });
});
