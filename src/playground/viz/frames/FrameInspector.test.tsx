// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, createSimulation, http, type TraceEventOf } from 'roundtrip/wire';
import type { Recording, WireSource } from '../../recording/model';
import FrameInspector, { FrameDetail } from './FrameInspector';
import { HEX_LIMIT } from './HexDump';
import { flatten, frameTree } from './model';
import { recordingOf } from './test-recording';

let recording: Recording;

beforeAll(async () => {
  const server = createServer({
    routes: [
      http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP/2' }])),
      http.post('/todos', async (request) => Response.json(await request.json(), { status: 201 })),
    ],
  });
  const sim = createSimulation({ server, httpVersion: '2', seed: 7 });
  await Promise.all([sim.fetch('/todos'), sim.fetch('/todos', { method: 'POST', body: '{"title":"milk"}', headers: { 'content-type': 'application/json' } })]);
  await sim.fetch('/todos?page=2', { headers: { 'x-trace': 'abc' } });
  recording = recordingOf([sim]);
});

afterEach(cleanup);

const wireEvents = () => (recording.sources[0] as WireSource).events;
const frameEvents = () => wireEvents().filter((e): e is TraceEventOf<'h2-frame'> => e.type === 'h2-frame');
const litOffsets = (container: HTMLElement) =>
  [...container.querySelectorAll('[role="gridcell"][aria-selected="true"]')].map((el) => Number((el as HTMLElement).dataset.offset));
const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

describe('FrameInspector', () => {
  it('lays frames out in one lane per stream, stream 0 first', () => {
    render(<FrameInspector recording={recording} cursor={recording.steps.length - 1} />);
    const table = screen.getByRole('table');
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    const clientStreams = [
      ...new Set(
        frameEvents()
          .filter((e) => e.side === 'client')
          .map((e) => e.streamId),
      ),
    ].sort((a, b) => a - b);
    expect(heads.slice(2)).toEqual(clientStreams.map((s) => (s === 0 ? 'Stream 0 (connection)' : `Stream ${s}`)));
    expect(clientStreams.length).toBeGreaterThanOrEqual(4); // 0, 1, 3, 5
    // Every frame of the client endpoint is a row, its button in the column of its stream.
    const rows = within(table).getAllByRole('row').slice(1);
    const clientFrames = frameEvents().filter((e) => e.side === 'client');
    expect(rows).toHaveLength(clientFrames.length);
    rows.forEach((row, i) => {
      // Empty lanes are spanned by one cell, so the column is the sum of the spans before the frame's cell.
      const cells = within(row).getAllByRole('cell') as HTMLTableCellElement[];
      const at = cells.findIndex((c) => c.querySelector('button'));
      const col = cells.slice(0, at).reduce((n, c) => n + c.colSpan, 0);
      expect(col - 2).toBe(clientStreams.indexOf(clientFrames[i]!.streamId));
      expect(cells.reduce((n, c) => n + c.colSpan, 0)).toBe(clientStreams.length + 2);
      expect(cells[at]!.textContent).toContain(clientFrames[i]!.frameType);
    });
  });

  it('follows the cursor and moves it when a frame is clicked', () => {
    const onCursor = vi.fn();
    const steps = recording.steps;
    const target = steps.findIndex((s) => {
      const e = wireEvents()[s.index]!;
      return e.type === 'h2-frame' && e.frameType === 'DATA' && e.side === 'client';
    });
    const { rerender } = render(<FrameInspector recording={recording} cursor={target} onCursor={onCursor} />);
    const current = screen.getByRole('table').querySelector('tr[aria-current="true"]')!;
    expect(current.textContent).toContain('DATA');
    const first = screen.getAllByRole('button', { name: /SETTINGS/ })[0]!;
    fireEvent.click(first);
    const firstStep = steps.findIndex((s) => {
      const e = wireEvents()[s.index]!;
      return e.type === 'h2-frame' && e.side === 'client';
    });
    expect(onCursor).toHaveBeenCalledWith(firstStep);
    rerender(<FrameInspector recording={recording} cursor={firstStep} onCursor={onCursor} />);
    expect(screen.getByRole('table').querySelector('tr[aria-current="true"]')!.textContent).toContain('SETTINGS');
    // Between frames the view stays with the endpoint and frame of the latest one.
    const events = wireEvents();
    const at = steps.findIndex((st, i) => {
      const e = events[st.index]!;
      const next = steps[i + 1] && events[steps[i + 1]!.index]!;
      return e.type === 'h2-frame' && e.side === 'server' && e.frameType === 'HEADERS' && next !== undefined && next.type !== 'h2-frame';
    });
    expect(at).toBeGreaterThan(0);
    rerender(<FrameInspector recording={recording} cursor={at + 1} onCursor={onCursor} />);
    expect((screen.getByLabelText(/Endpoint/) as HTMLSelectElement).value).toBe('sim-1/c1/server');
    const row = screen.getByRole('table').querySelector('tr[aria-current="true"]')!;
    expect(row.textContent).toContain('HEADERS');
  });

  it('hovering or focusing a field lights exactly its bytes, for every field of every frame', () => {
    const seen = new Set<string>();
    for (const ev of frameEvents().filter((e) => e.side === 'client')) {
      if (seen.has(ev.frameType + ev.flags.join())) continue;
      seen.add(ev.frameType + ev.flags.join());
      const { container, unmount } = render(<FrameDetail frame={{ event: ev, index: 0 }} />);
      for (const r of ev.ranges) {
        const button = [...container.querySelectorAll<HTMLElement>('[data-field]')].find((b) => b.dataset.field === r.field)!;
        expect(button, r.field).toBeDefined();
        fireEvent.mouseEnter(button);
        expect(litOffsets(container), `${ev.frameType} ${r.field}`).toEqual(range(r.start, r.end));
        fireEvent.focus(button);
        expect(litOffsets(container)).toEqual(range(r.start, r.end));
      }
      unmount();
    }
    expect(seen.size).toBeGreaterThanOrEqual(4);
  });

  it('hovering a byte selects the field it belongs to; the keyboard walks the bytes', () => {
    const headers = frameEvents().find((e) => e.side === 'client' && e.frameType === 'HEADERS' && e.hpack && e.hpack.length > 2)!;
    const { container } = render(<FrameDetail frame={{ event: headers, index: 0 }} />);
    const cell = (i: number) => container.querySelector(`[role="gridcell"][data-offset="${i}"]`) as HTMLElement;
    fireEvent.mouseEnter(cell(4));
    expect(container.querySelector('[data-field][aria-current="true"]')!.getAttribute('data-field')).toBe('flags');
    expect(litOffsets(container)).toEqual([4]);
    // A byte of the field block selects the HPACK representation it is part of.
    const step = headers.hpack![1]!;
    fireEvent.mouseEnter(cell(9 + step.start));
    expect(container.querySelector('[data-field][aria-current="true"]')!.getAttribute('data-field')).toBe('hpack[1]');
    expect(litOffsets(container)).toEqual(range(9 + step.start, 9 + step.end));
    const grid = screen.getByRole('grid');
    fireEvent.keyDown(grid, { key: 'Home' });
    expect(grid.getAttribute('aria-activedescendant')).toBe(cell(0).id);
    expect(litOffsets(container)).toEqual([0, 1, 2]); // Length
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    fireEvent.keyDown(grid, { key: 'ArrowRight' });
    expect(grid.getAttribute('aria-activedescendant')).toBe(cell(3).id);
    expect(container.querySelector('[data-field][aria-current="true"]')!.getAttribute('data-field')).toBe('type');
  });

  it('names each flag bit of the frame type and reads values from the bytes', () => {
    const headers = frameEvents().find((e) => e.frameType === 'HEADERS' && e.flags.includes('END_STREAM'))!;
    const nodes = flatten(frameTree(headers));
    const bits = nodes.filter((n) => n.id.startsWith('flags.')).map((n) => [n.id, n.value]);
    expect(bits).toEqual([
      ['flags.END_STREAM', 'set'],
      ['flags.END_HEADERS', 'set'],
      ['flags.PADDED', 'not set'],
      ['flags.PRIORITY', 'not set'],
    ]);
    expect(nodes.find((n) => n.id === 'length')!.value).toBe(String(headers.length));
    expect(nodes.find((n) => n.id === 'streamId')!.value).toBe(String(headers.streamId));
    const settings = frameEvents().find((e) => e.frameType === 'SETTINGS' && e.length > 0)!;
    const setting = flatten(frameTree(settings)).find((n) => n.id === 'settings[0]')!;
    expect(setting.label).toMatch(/^Setting: [A-Z_]+$/);
    expect(Object.values(settings.fields)).toContain(Number(setting.value));
  });

  it('a field block split over CONTINUATION links the representations inside each fragment; big frames draw in part', async () => {
    const server = createServer({ routes: [http.get('/todos', () => Response.json([]))] });
    const sim = createSimulation({ server, httpVersion: '2', seed: 1 });
    // '|' takes 11 bits in the Huffman code: 20,000 of them overflow one 16,384-octet HEADERS frame.
    await sim.fetch('/todos', { headers: { 'x-big': '|'.repeat(20000), 'x-after': 'tail' } });
    const sent = sim.trace.events.filter((e): e is TraceEventOf<'h2-frame'> => e.type === 'h2-frame' && e.side === 'client' && e.direction === 'sent');
    const headers = sent.find((e) => e.frameType === 'HEADERS')!;
    const continuation = sent.find((e) => e.frameType === 'CONTINUATION')!;
    expect(headers.hpack).toBeUndefined();
    expect(continuation.hpack).toBeDefined();
    const fragment = continuation.ranges.find((r) => r.field === 'headerBlockFragment')!;
    const steps = flatten(frameTree(continuation)).filter((n) => n.id.startsWith('hpack['));
    expect(steps).toHaveLength(continuation.hpack!.length);
    const before = headers.ranges.find((r) => r.field === 'headerBlockFragment')!.end - 9;
    continuation.hpack!.forEach((step, i) => {
      const node = steps[i]!;
      if (step.start >= before) {
        // Wholly inside this fragment: the node points at exactly the step's bytes.
        expect([node.start, node.end]).toEqual([fragment.start + step.start - before, fragment.start + step.end - before]);
      } else {
        expect(node.start).toBeUndefined();
      }
    });
    expect(steps[steps.length - 1]!.label).toBe('x-after: tail');
    // Only the first HEX_LIMIT bytes of a big frame are drawn until asked.
    const { container } = render(<FrameDetail frame={{ event: continuation, index: 0 }} />);
    expect(continuation.data.length).toBeGreaterThan(HEX_LIMIT);
    expect(container.querySelectorAll('[role="gridcell"]')).toHaveLength(HEX_LIMIT);
    fireEvent.click(screen.getByRole('button', { name: `Show all ${continuation.data.length.toLocaleString('en')} bytes` }));
    expect(container.querySelectorAll('[role="gridcell"]')).toHaveLength(continuation.data.length);
  }, 60_000);

  it('on a long endpoint renders a window of rows (spacers keep the scroll height), and says how many there are', async () => {
    const server = createServer({ routes: [http.get('/n/:i', (_r, { params }) => Response.json({ i: params.i }))] });
    const sim = createSimulation({ server, httpVersion: '2', seed: 3 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => sim.fetch(`/n/${i}`)));
    const long = recordingOf([sim]);
    const frames = (long.sources[0] as WireSource).events.filter((e) => e.type === 'h2-frame' && e.side === 'client');
    render(<FrameInspector recording={long} cursor={long.steps.length - 1} />);
    const table = screen.getByRole('table');
    const rows = table.querySelectorAll('tbody tr[data-pos]');
    expect(frames.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(frames.length / 2);
    expect(table.getAttribute('aria-rowcount')).toBe(String(frames.length + 1));
    // The followed (last) frame is among the rendered rows, at its place in the whole list.
    const current = table.querySelector('tr[aria-current="true"]')!;
    expect(current.getAttribute('aria-rowindex')).toBe(String(frames.length + 1));
    expect(table.querySelectorAll('.rt-fi-spacer')).toHaveLength(1);
  });
});
