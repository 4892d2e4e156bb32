// @vitest-environment jsdom
import { Component, createElement, type ReactNode } from 'react';
import * as ReactDOMClient from 'react-dom/client';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { describeCaught, reportCaughtErrors } from './react-errors';

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? createElement('p', null, `fallback: ${this.state.error.message}`) : this.props.children;
  }
}
function Broken(): ReactNode {
  throw new Error('render failed');
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('reportCaughtErrors', () => {
  it('reports an error a boundary caught once, as handled, naming the boundary, and not through console.error', async () => {
    const lines: string[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const client = reportCaughtErrors(ReactDOMClient, (line) => lines.push(line));
      const container = document.createElement('div');
      await act(async () => (client.createRoot(container) as ReactDOMClient.Root).render(createElement(Boundary, null, createElement(Broken))));
      expect(container.textContent).toBe('fallback: render failed');
      expect(lines).toEqual(['Caught by the error boundary <Boundary>: Error: render failed']);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });

  it("leaves a snippet's own onCaughtError in charge", async () => {
    const lines: string[] = [];
    const own = vi.fn();
    const client = reportCaughtErrors(ReactDOMClient, (line) => lines.push(line));
    const container = document.createElement('div');
    await act(async () =>
      (client.createRoot(container, { onCaughtError: own }) as ReactDOMClient.Root).render(createElement(Boundary, null, createElement(Broken))),
    );
    expect(own).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([]);
  });

  it('describes what was thrown, Error or not', () => {
    expect(describeCaught('a string')).toBe('Caught by the error boundary: a string');
    expect(describeCaught(new TypeError('x'), {})).toBe('Caught by the error boundary: TypeError: x');
  });
});
