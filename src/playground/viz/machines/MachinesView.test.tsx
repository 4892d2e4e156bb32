// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLIENT_CONNECTION_TABLE,
  HTTP1_EVENT_TRANSITIONS,
  HTTP1_SETTLE_RULES,
  QUIC_RECV_TRANSITIONS,
  QUIC_SEND_TRANSITIONS,
  STREAM_TRANSITIONS,
  createServer,
  createSimulation,
  http,
  type TraceEventOf,
} from 'roundtrip/wire';
import { MUTATION_STATUS_TRANSITIONS, QUERY_STATUS_TRANSITIONS, QueryClient } from 'roundtrip/query';
import { summarizeMutation, summarizeQuery } from '../../sandbox/capture-query';
import type { QueryVizEvent, Recording, WireSource } from '../../recording/model';
import { recordingOf } from '../frames/test-recording';
import { MACHINES, type MachineId } from './definitions';
import { Diagram } from './Diagram';
import MachinesView, { nearestScroll } from './MachinesView';

afterEach(cleanup);

/** How many rows each engine table has, counted from the engine's own exports. */
const ENGINE_ROWS: Record<MachineId, number> = {
  'http1-client-role':
    HTTP1_EVENT_TRANSITIONS.filter((t) => t.role === 'client').length +
    HTTP1_SETTLE_RULES.filter((r) => r.role === 'client').reduce((n, r) => n + r.from.length, 0),
  'http1-server-role':
    HTTP1_EVENT_TRANSITIONS.filter((t) => t.role === 'server').length +
    HTTP1_SETTLE_RULES.filter((r) => r.role === 'server').reduce((n, r) => n + r.from.length, 0),
  'client-connection': CLIENT_CONNECTION_TABLE.length,
  'h2-stream': STREAM_TRANSITIONS.length,
  'quic-stream-send': QUIC_SEND_TRANSITIONS.length,
  'quic-stream-recv': QUIC_RECV_TRANSITIONS.length,
  query: QUERY_STATUS_TRANSITIONS.length,
  mutation: MUTATION_STATUS_TRANSITIONS.length,
};

describe('diagrams come from the tables', () => {
  for (const def of Object.values(MACHINES)) {
    it(`${def.id}: one labelled edge per table row, each between the row's states`, () => {
      const { container } = render(<Diagram def={def} current={undefined} fired={undefined} titleId="t" />);
      const labels = [...container.querySelectorAll('tspan[data-row]')].map((t) => t.getAttribute('data-row'));
      expect(labels).toHaveLength(ENGINE_ROWS[def.id]);
      expect(new Set(labels).size).toBe(labels.length);
      expect(labels.sort()).toEqual(def.rows.map((r) => r.id).sort());
      // Every path carries exactly the rows between its two states, and every row is on one path.
      const onPaths = [...container.querySelectorAll('path[data-edge]')].flatMap((p) => {
        const [from, to] = p.getAttribute('data-edge')!.split('>');
        const ids = p.getAttribute('data-rows')!.split(' ');
        for (const id of ids) expect(def.rows.find((r) => r.id === id)).toMatchObject({ from, to });
        return ids;
      });
      expect(onPaths.sort()).toEqual(labels);
    });
  }
});

describe('QUIC stream parts', () => {
  it("an aborted HTTP/3 fetch: the client's receiving part ends in Reset Read, on the row that fired", async () => {
    const server = createServer({ routes: [http.get('/slow', () => new Response('x'.repeat(3000)), { bytesPerTick: 100, tickMs: 10 })] });
    const sim = createSimulation({ server, httpVersion: '3', rtt: 100, bandwidth: Infinity, drive: 'manual', seed: 1 });
    const controller = new AbortController();
    const done = sim.fetch('https://api.example/slow', { signal: controller.signal }).catch(() => undefined);
    await sim.advance(255);
    controller.abort();
    await done;
    await sim.advance(1000);
    const recording = recordingOf([sim]);
    const last = recording.steps.length - 1;
    const { container } = render(<MachinesView recording={recording} cursor={last} />);
    const select = screen.getByLabelText('Machine') as HTMLSelectElement;
    const key = [...select.options].map((o) => o.value).find((v) => v.endsWith('/client/0/recv'))!;
    expect(key).toBeDefined();
    fireEvent.change(select, { target: { value: key } });
    expect(container.querySelector('svg[data-machine]')!.getAttribute('data-machine')).toBe('quic-stream-recv');
    expect(container.querySelector('.rt-sm-state.is-current')!.getAttribute('data-state')).toBe('reset_read');
    expect(container.querySelector('tr[aria-current="true"]')!.getAttribute('data-row')).toBe('reset_recvd:app_read_reset');
  });
});

describe('HTTP/1 and HTTP/2 machines at the cursor', () => {
  let h1: Recording;
  let h2: Recording;
  beforeAll(async () => {
    const server = createServer({ routes: [http.get('/todos', () => Response.json([1]))] });
    const a = createSimulation({ server, httpVersion: '1.1', seed: 1 });
    await a.fetch('/todos');
    await a.fetch('/todos', { headers: { connection: 'close' } });
    h1 = recordingOf([a]);
    const b = createSimulation({ server, httpVersion: '2', seed: 1 });
    await Promise.all([b.fetch('/todos'), b.fetch('/todos')]);
    h2 = recordingOf([b]);
  });

  const events = (r: Recording) => (r.sources[0] as WireSource).events;

  it('highlights the row of the last HTTP/1 transition at the cursor, in the table and the diagram', () => {
    const evs = events(h1);
    const transitions = h1.steps
      .map((s, step) => ({ step, e: evs[s.index]! }))
      .filter(
        (x): x is { step: number; e: TraceEventOf<'transition'> } =>
          x.e.type === 'transition' && x.e.machine === 'http1-client' && x.e.from.startsWith('client:'),
      );
    expect(transitions.length).toBeGreaterThan(6);
    const eventIds = new Set(HTTP1_EVENT_TRANSITIONS.map((t) => t.id));
    for (const { step, e } of transitions) {
      // Also one step later, where another event is at the cursor: the last transition stays highlighted.
      for (const cursor of [step, step + 1]) {
        const next = transitions.find((t) => t.step > step);
        if (cursor !== step && next?.step === cursor) continue;
        const { container, unmount } = render(<MachinesView recording={h1} cursor={cursor} />);
        fireEvent.change(screen.getByLabelText('Machine'), { target: { value: 'sim-1/c1/http1-client/client' } });
        const expected = eventIds.has(e.input) ? e.input : `${e.input}@${e.from.split(':')[1]}`;
        expect(container.querySelector('tr[aria-current="true"]')!.getAttribute('data-row')).toBe(expected);
        expect([...container.querySelectorAll('tspan.is-fired')].map((t) => t.getAttribute('data-row'))).toEqual([expected]);
        expect(container.querySelector('.rt-sm-state.is-current')!.getAttribute('data-state')).toBe(e.to.split(':')[1]);
        unmount();
      }
    }
  });

  it('follows the cursor to the instance whose transition is there (HTTP/2 stream, connection management)', () => {
    const evs = events(h2);
    const steps = h2.steps.map((s, step) => ({ step, e: evs[s.index]! }));
    const stream3 = steps.filter((x) => x.e.type === 'h2-stream-transition' && x.e.streamId === 3 && x.e.side === 'server');
    expect(stream3.length).toBeGreaterThanOrEqual(3);
    let stayed = 0;
    for (const { step, e } of stream3) {
      const t = e as TraceEventOf<'h2-stream-transition'>;
      const { container, unmount } = render(<MachinesView recording={h2} cursor={step} />);
      // Following: the picker keeps saying so, and the status line names the instance it followed.
      expect((screen.getByLabelText('Machine') as HTMLSelectElement).value).toBe('');
      expect(container.querySelector('[data-instance]')!.getAttribute('data-instance')).toBe('sim-1/c1/server/3');
      expect(container.querySelector('.rt-sm-status')!.textContent).toContain('server, stream 3');
      expect(container.querySelector('tr[aria-current="true"]')!.getAttribute('data-row')).toBe(`${t.from}:${t.input}:${t.direction}`);
      expect(container.querySelector('.rt-sm-state.is-current')!.getAttribute('data-state')).toBe(t.to);
      // The status line says the row in words, with the states as the diagram labels them, not its id.
      const said = screen.getByTestId('machine-fired').textContent;
      const label = (id: string) => MACHINES['h2-stream'].states.find((s) => s.id === id)!.label;
      expect(said).toBe(`${t.direction} ${t.input}, ${label(t.from)} → ${label(t.to)}`);
      expect(said).not.toContain(`${t.from}:`);
      unmount();
      // One step on, at an event that is no transition, the view stays with this stream.
      const next = steps[step + 1];
      if (next && next.e.type !== 'h2-stream-transition' && next.e.type !== 'transition') {
        const again = render(<MachinesView recording={h2} cursor={step + 1} />);
        expect(again.container.querySelector('[data-instance]')!.getAttribute('data-instance')).toBe('sim-1/c1/server/3');
        again.unmount();
        stayed++;
      }
    }
    expect(stayed).toBeGreaterThan(0);
    const evs1 = events(h1);
    const conn = h1.steps.map((s, step) => ({ step, e: evs1[s.index]! })).filter((x) => x.e.type === 'transition' && x.e.machine === 'client-connection');
    const last = conn[conn.length - 1]!;
    const e = last.e as TraceEventOf<'transition'>;
    const { container } = render(<MachinesView recording={h1} cursor={last.step} />);
    expect(container.querySelector('tr[aria-current="true"]')!.getAttribute('data-row')).toBe(`${e.from}:${e.input}`);
  });

  it('picking an instance pins it; picking "Follow the cursor" follows again', () => {
    const evs = events(h2);
    const first = h2.steps.findIndex((s) => evs[s.index]!.type === 'h2-stream-transition');
    const { container, rerender } = render(<MachinesView recording={h2} cursor={first} />);
    const select = screen.getByLabelText('Machine') as HTMLSelectElement;
    const followed = container.querySelector('[data-instance]')!.getAttribute('data-instance');
    const other = [...select.options].map((o) => o.value).find((v) => v !== '' && v !== followed)!;
    fireEvent.change(select, { target: { value: other } });
    expect(select.value).toBe(other);
    rerender(<MachinesView recording={h2} cursor={h2.steps.length - 1} />);
    expect(container.querySelector('[data-instance]')!.getAttribute('data-instance')).toBe(other);
    fireEvent.change(select, { target: { value: '' } });
    expect(select.value).toBe('');
    expect(screen.queryByRole('button', { name: 'Follow the cursor' })).toBeNull();
    rerender(<MachinesView recording={h2} cursor={first} />);
    expect(container.querySelector('[data-instance]')!.getAttribute('data-instance')).toBe(followed);
  });

  it('jumps the cursor to a row’s last firing', () => {
    const onCursor = vi.fn();
    render(<MachinesView recording={h2} cursor={h2.steps.length - 1} onCursor={onCursor} />);
    const button = screen.getAllByRole('button', { name: /times; go to the last/ })[0]!;
    fireEvent.click(button);
    expect(onCursor).toHaveBeenCalledTimes(1);
    const step = onCursor.mock.calls[0]![0] as number;
    const e = events(h2)[h2.steps[step]!.index]!;
    expect(['h2-stream-transition', 'transition']).toContain(e.type);
  });
});

describe('query and mutation machines', () => {
  it('recovers the reducer action of every cache update from the summaries', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 0 } } });
    const viz: QueryVizEvent[] = [];
    const truth: (string | undefined)[] = [];
    client.getQueryCache().subscribe((event) => {
      viz.push({ kind: 'query', at: viz.length, action: event.type, query: summarizeQuery(event.query) });
      truth.push(event.type === 'updated' ? event.action.type + (event.action.type === 'success' && event.action.manual ? ':manual' : '') : undefined);
    });
    client.getMutationCache().subscribe((event) => {
      if (event.mutation) viz.push({ kind: 'mutation', at: viz.length, action: event.type, mutation: summarizeMutation(event.mutation) });
      truth.push(undefined);
    });
    let calls = 0;
    await client.fetchQuery({ queryKey: ['todos'], queryFn: async () => (++calls === 1 ? Promise.reject(new Error('flaky')) : ['milk']) });
    await client.invalidateQueries({ queryKey: ['todos'], refetchType: 'none' });
    client.setQueryData(['todos'], ['bread']);
    await client
      .getMutationCache()
      .build(client, { mutationFn: async (v: number) => v * 2 })
      .execute(21);
    const source = { id: 'client-1', kind: 'query' as const, label: 'QueryClient 1', events: viz };
    const recording: Recording = { sources: [source], steps: viz.map((_, index) => ({ sourceId: 'client-1', index })) };

    // Every state change the view shows is the row of the action the reducer really ran.
    let checked = 0;
    for (let cursor = 0; cursor < viz.length; cursor++) {
      const action = truth[cursor];
      if (!action || viz[cursor]!.kind !== 'query') continue;
      const { container, unmount } = render(<MachinesView recording={recording} cursor={cursor} />);
      const row = container.querySelector('tr[aria-current="true"]')?.getAttribute('data-row');
      if (row) {
        const [, rowAction, ...rest] = row.split(':');
        expect(`${rowAction}${rest.includes('manual') ? ':manual' : ''}`, `step ${cursor}`).toBe(action);
        checked++;
      }
      unmount();
    }
    expect(checked).toBeGreaterThanOrEqual(5); // fetch, failed, success, invalidate, setQueryData

    const end = viz.length - 1;
    const { container } = render(<MachinesView recording={recording} cursor={end} />);
    fireEvent.change(screen.getByLabelText('Machine'), { target: { value: 'client-1/mutation/1' } });
    expect(container.querySelector('tr[aria-current="true"]')!.getAttribute('data-row')).toBe('pending:success');
    expect(container.querySelector('.rt-sm-state.is-current')!.getAttribute('data-state')).toBe('success');
  });
});

describe('keeping the current row in sight', () => {
  /** A scroll box 100 px tall at y 50 with a 1 px border, scrolled to `scrollTop`, and a row `top` px into it. */
  const at = (scrollTop: number, top: number, height = 20) => {
    const box = {
      scrollTop,
      clientHeight: 100,
      clientTop: 1,
      getBoundingClientRect: () => ({ top: 50, left: 0 }),
    } as unknown as HTMLElement;
    const row = { getBoundingClientRect: () => ({ top: 50 + 1 + top - scrollTop, height, left: 0, width: 10 }) } as unknown as Element;
    return nearestScroll(box, row, 'y');
  };
  it('stays put while the row is in sight, on opening too', () => {
    expect(at(0, 0)).toBe(0);
    expect(at(0, 80)).toBe(0);
    expect(at(40, 60)).toBe(40);
  });
  it('moves only as far as needed: the row at the bottom edge going down, at the top edge going up', () => {
    expect(at(0, 150)).toBe(70);
    expect(at(200, 120)).toBe(120);
    // Taller than the box: its top.
    expect(at(0, 150, 140)).toBe(150);
  });
});
