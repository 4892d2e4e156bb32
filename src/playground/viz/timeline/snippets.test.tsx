// @vitest-environment jsdom
/**
 * The comparison snippets, run the way the playground runs them (compiled, executed with the instrumented
 * wire module, captured as sources, recorded by the host's store) and shown in the Compare view.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { recordSnippet as record } from '../run-snippet';
import CompareView from './CompareView';

afterEach(cleanup);

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
