// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Simulation, TraceEvent } from 'roundtrip/wire';
import { stepOf, type Recording } from '../../recording/model';
import SequenceView from './SequenceView';
import { loadPage, PAGE, recordingOf } from './testing';

afterEach(cleanup);

let h1: Simulation;
let lossy: Simulation;
let h3: Simulation;
beforeAll(async () => {
  h1 = await loadPage({ httpVersion: '1.1', maxConnectionsPerOrigin: 2, label: 'HTTP/1.1' });
  lossy = await loadPage({ httpVersion: '1.1', loss: 0.15, seed: 4, label: 'lossy' });
  h3 = await loadPage({ httpVersion: '3', tls: '1.3', loss: 0.2, seed: 5, label: 'h3' });
});

const arrows = (container: HTMLElement) => container.querySelectorAll('.rt-tl-arrow');
const n = (events: readonly TraceEvent[], pred: (e: TraceEvent) => boolean) => events.filter(pred).length;
const last = (r: Recording) => r.steps.length - 1;

describe('SequenceView', () => {
  it('draws an arrow per handshake step and segment, and the ACKs on request', () => {
    const recording = recordingOf([{ sim: h1 }]);
    const { container } = render(<SequenceView recording={recording} cursor={last(recording)} />);
    const events = h1.trace.events;
    const handshakes = n(events, (e) => e.type === 'handshake');
    const segments = n(events, (e) => e.type === 'segment-sent');
    expect(arrows(container)).toHaveLength(handshakes + segments);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show ACKs' }));
    expect(arrows(container)).toHaveLength(handshakes + segments + n(events, (e) => e.type === 'ack'));
    expect(screen.getByRole('button', { name: /c1 client to server, GET \/index\.html HTTP\/1\.1/ })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /c\d server to client, HTTP\/1\.1 200 OK, bytes/ })).toHaveLength(PAGE.length);
  });

  it('draws lost packets short of the receiver with a mark, and marks retransmissions', () => {
    const recording = recordingOf([{ sim: lossy }]);
    const { container } = render(<SequenceView recording={recording} cursor={last(recording)} />);
    const events = lossy.trace.events;
    const lostCount = n(events, (e) => e.type === 'packet-lost');
    expect(lostCount).toBeGreaterThan(0);
    const lost = container.querySelectorAll('.rt-tl-arrow.is-lost');
    expect(lost).toHaveLength(lostCount);
    for (const g of lost) {
      expect(g.querySelector('.rt-tl-lost-mark')).not.toBeNull();
      expect(g.querySelector('.rt-tl-head')).toBeNull();
      // The line stops before the far lane: its end is short of where the arrow would arrive.
      const line = g.querySelector('.rt-tl-line')!;
      const [x1, x2] = [Number(line.getAttribute('x1')), Number(line.getAttribute('x2'))];
      expect(Math.abs(x2 - x1)).toBeGreaterThan(0);
      expect(g.getAttribute('aria-label')).toMatch(/LOST/);
    }
    const arrived = container.querySelector('.rt-tl-arrow:not(.is-lost):not(.rt-tl-cat-tcp)')!;
    const lostLine = lost[0]!.querySelector('.rt-tl-line')!;
    const fullLine = arrived.querySelector('.rt-tl-line')!;
    const span = (l: Element) => Math.abs(Number(l.getAttribute('x2')) - Number(l.getAttribute('x1')));
    expect(span(lostLine)).toBeLessThan(span(fullLine) * 0.7);
    expect(container.querySelectorAll('.rt-tl-arrow.is-retransmission')).toHaveLength(n(events, (e) => e.type === 'segment-sent' && e.retransmission));
    expect(container.querySelectorAll('.rt-tl-mark-rto')).toHaveLength(n(events, (e) => e.type === 'retransmit' && e.reason === 'timeout'));
    expect(container.querySelectorAll('.rt-tl-mark-loss-detected')).toHaveLength(n(events, (e) => e.type === 'retransmit' && e.reason !== 'timeout'));
  });

  it('gives a burst of arrows one label instead of a pile of overlapping ones', () => {
    const sim = h3;
    const recording = recordingOf([{ sim }]);
    const { container } = render(<SequenceView recording={recording} cursor={last(recording)} />);
    const texts = [...container.querySelectorAll('.rt-tl-label')].map((t) => t.textContent);
    // After the document, the page asks for its other resources at once: one label speaks for all of them.
    const burst = PAGE.length - 2;
    expect(texts).toContain(`HEADERS s4: GET ${PAGE[1]} (+${burst} more)`);
    expect(texts.filter((t) => t!.startsWith('HEADERS s8: GET'))).toEqual([]);
    // A different kind of message leaving with it keeps a label of its own: HTTP/3 sends the first request
    // with the client's handshake Finished.
    expect(texts).toContain('Finished');
    expect(texts).toContain(`HEADERS s0: GET ${PAGE[0]}`);
    // Each arrow still has its own accessible name.
    expect(screen.getAllByRole('button', { name: /client to server, QUIC 1rtt packet \d+ \(\d+ B\): STREAM 8 @0\+/ }).length).toBeGreaterThan(0);
  });

  it('draws QUIC packets and their losses', () => {
    const recording = recordingOf([{ sim: h3 }]);
    const { container } = render(<SequenceView recording={recording} cursor={last(recording)} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show ACKs' }));
    const events = h3.trace.events;
    expect(arrows(container)).toHaveLength(n(events, (e) => e.type === 'quic-packet-sent'));
    const dropped = events.flatMap((e) => (e.type === 'quic-datagram-dropped' ? e.packetNumbers : [])).length;
    expect(container.querySelectorAll('.rt-tl-arrow.is-lost')).toHaveLength(dropped);
  });

  it('draws only what happened up to the cursor and highlights the cursor event', () => {
    const recording = recordingOf([{ sim: h1 }]);
    const events = h1.trace.events;
    const fifthSegment = events.map((e, i) => [e, i] as const).filter(([e]) => e.type === 'segment-sent')[4]![1];
    const { container } = render(<SequenceView recording={recording} cursor={fifthSegment} />);
    const upTo = events.slice(0, fifthSegment + 1);
    expect(arrows(container)).toHaveLength(n(upTo, (e) => e.type === 'handshake' || e.type === 'segment-sent'));
    const current = container.querySelector('[aria-current="step"]')!;
    expect(current.getAttribute('data-item')).toBe(String(fifthSegment));
    // It was just sent: still in flight, no arrowhead yet.
    expect(current.classList.contains('is-flight')).toBe(true);
    expect(current.querySelector('.rt-tl-head')).toBeNull();
    expect(screen.getByTestId('sequence-caption').textContent).toContain(current.getAttribute('aria-label')!);
  });

  it('moves the cursor to an arrow that is clicked or activated with Enter', () => {
    // Two interleaved sources, so a step index is not the event index.
    const recording = recordingOf([{ sim: h3 }, { sim: h1 }], true);
    const onCursor = vi.fn();
    const { container } = render(<SequenceView recording={recording} cursor={last(recording)} onCursor={onCursor} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Simulation' }), { target: { value: 'sim-2' } });
    const request = screen.getByRole('button', { name: /GET \/index\.html HTTP\/1\.1/ });
    const index = Number(request.getAttribute('data-item'));
    fireEvent.click(request);
    expect(onCursor).toHaveBeenLastCalledWith(stepOf(recording, 'sim-2', index));
    expect(stepOf(recording, 'sim-2', index)).not.toBe(index);

    // Roving focus: one tab stop, arrow keys move, Enter activates.
    const tabbable = container.querySelectorAll('[data-item][tabindex="0"]');
    expect(tabbable).toHaveLength(1);
    request.focus();
    fireEvent.keyDown(request, { key: 'ArrowDown' });
    const next = document.activeElement!;
    expect(Number(next.getAttribute('data-item'))).toBeGreaterThan(index);
    fireEvent.keyDown(next, { key: 'Enter' });
    expect(onCursor).toHaveBeenLastCalledWith(stepOf(recording, 'sim-2', Number(next.getAttribute('data-item'))));
  });

  it('follows the simulation of the cursor step', () => {
    const recording = recordingOf([
      { sim: h1, label: 'first' },
      { sim: h3, label: 'second' },
    ]);
    render(<SequenceView recording={recording} cursor={last(recording)} />);
    expect(screen.getByRole('group', { name: /Sequence diagram of second/ })).toBeTruthy();
    cleanup();
    render(<SequenceView recording={recording} cursor={3} />);
    expect(screen.getByRole('group', { name: /Sequence diagram of first/ })).toBeTruthy();
  });
});
