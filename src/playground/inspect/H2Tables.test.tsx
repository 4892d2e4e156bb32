// @vitest-environment jsdom
/** The HTTP/2 tables the page shows under a reading: both sides of a connection, or one sender's flow control. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { H2Connection, H2OneSide } from './H2Tables';
import { inspect } from './inspect';

afterEach(cleanup);

const text = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8').trim();
const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.children, (cell) => cell.textContent));

describe('both sides pasted', () => {
  const r = inspect({ text: `client:\n${text('h2-client.hexstream.txt')}\nserver:\n${text('h2-server.hexstream.txt')}\n` });

  it("lists each stream with its request, status, DATA both ways and both endpoints' states", () => {
    render(<H2Connection connection={r.h2Connection!} />);
    expect(rows(screen.getByTestId('inspect-h2-streams'))).toEqual([
      ['13', 'GET /todos/1', '200', '0', '60', 'closed', 'closed'],
      ['15', 'GET /todos', '200', '0', '185', 'closed', 'closed'],
    ]);
  });

  it("shows flow control for each direction, the server's DATA counted against the client's windows", () => {
    render(<H2Connection connection={r.h2Connection!} />);
    const server = screen.getByTestId('inspect-flow-server');
    expect(server.querySelector('caption')?.textContent).toMatch(/server's DATA, against the windows the client gave/);
    const connectionRow = rows(server).find((cells) => cells[0] === 'connection');
    expect(connectionRow?.[1]).toBe('245');
    expect(screen.getByTestId('inspect-flow-client')).toBeTruthy();
  });
});

it('one side: an overrun window is marked in its row, with the doubt one side leaves', () => {
  const h2 = { sender: 'server' as const, preface: false, frames: 13, blocks: 1, flow: [{ streamId: 1, dataSent: 202_632, windowLeft: -137_097, granted: 0 }] };
  render(<H2OneSide h2={h2} />);
  const [row] = rows(screen.getByTestId('inspect-flow'));
  expect(row).toEqual(['1', '202,632', '-137,097 (overrun, unless the peer gave more credit)', '0']);
});
