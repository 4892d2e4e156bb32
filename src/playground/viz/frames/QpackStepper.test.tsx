// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import { VIEWS } from '../views';
import QpackStepper from './QpackStepper';
import { recordingOf } from './test-recording';

let recording: Recording;

beforeAll(async () => {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1 }]))] });
  const sim = createSimulation({ server, httpVersion: '3', seed: 7 });
  await sim.fetch('/todos', { headers: { 'x-trace': 'abc' } });
  await sim.fetch('/todos', { headers: { 'x-trace': 'abc' } });
  recording = recordingOf([sim]);
});

afterEach(cleanup);

const litOffsets = (container: HTMLElement) =>
  [...container.querySelectorAll('[role="gridcell"][aria-selected="true"]')].map((el) => Number((el as HTMLElement).dataset.offset));

describe('QPACK stepper', () => {
  it('is offered for HTTP/3 recordings and not for HTTP/2 ones', async () => {
    const qpack = VIEWS.find((v) => v.id === 'qpack')!;
    expect(qpack.applies(recording)).toBe(true);
    const sim2 = createSimulation({ server: createServer({ routes: [http.get('/', () => new Response('x'))] }), httpVersion: '2' });
    await sim2.fetch('/');
    expect(qpack.applies(recordingOf([sim2]))).toBe(false);
  });

  it("shows the second request's section: Required Insert Count, Base, each line's bits, the table after it", () => {
    const { container } = render(<QpackStepper recording={recording} cursor={recording.steps.length - 1} />);
    const steps = within(screen.getByRole('list', { name: /Encoder instructions/ })).getAllByRole('listitem');
    expect(steps.length).toBe(6);
    fireEvent.click(within(steps[5]!).getByRole('button'));
    expect(screen.getByTestId('qpack-prefix').textContent).toMatch(/Required Insert Count 3 \(sent as 4\), Base 0/);
    const table = screen.getByTestId('qpack-dynamic-table');
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('td')!.textContent),
    ).toEqual(['2', '1', '0']);
    expect(table.textContent).toMatch(/Insert Count 3/);
    // Pointing at byte 0 of the section picks the Required Insert Count's part and lights that byte.
    fireEvent.mouseEnter(container.querySelector('[role="gridcell"][data-offset="0"]')!);
    expect(litOffsets(container)).toEqual([0]);
    expect(container.querySelector('tr.is-current')).not.toBeNull();
  });

  it('explains Set Dynamic Table Capacity bit by bit', () => {
    const { container } = render(<QpackStepper recording={recording} cursor={recording.steps.length - 1} />);
    const steps = within(screen.getByRole('list', { name: /Encoder instructions/ })).getAllByRole('listitem');
    fireEvent.click(within(steps[1]!).getByRole('button'));
    const cells = [...container.querySelectorAll('[role="gridcell"]')].slice(0, 3).map((el) => el.textContent);
    expect(cells).toEqual(['3f', 'e1', '1f']);
    expect(screen.getByRole('table', { name: /Set Dynamic Table Capacity/ }).textContent).toMatch(/4096/);
    expect(screen.getByTestId('qpack-dynamic-table').textContent).toMatch(/0 of 4096 bytes/);
  });
});
