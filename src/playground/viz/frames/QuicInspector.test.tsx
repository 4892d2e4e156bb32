// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import { VIEWS } from '../views';
import FramesView from './FrameInspector';
import { quicConnections } from './quic-model';
import { recordingOf } from './test-recording';

let recording: Recording;

beforeAll(async () => {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([{ id: 1, title: 'Learn HTTP/3' }]))] });
  const sim = createSimulation({ server, httpVersion: '3', seed: 7 });
  await sim.fetch('/todos');
  recording = recordingOf([sim]);
});

afterEach(cleanup);

const litOffsets = (container: HTMLElement) =>
  [...container.querySelectorAll('[role="gridcell"][aria-selected="true"]')].map((el) => Number((el as HTMLElement).dataset.offset));
const range = (start: number, end: number) => Array.from({ length: end - start }, (_, i) => start + i);

describe('Frames view on an HTTP/3 run', () => {
  it('is offered for HTTP/3 recordings', () => {
    expect(VIEWS.find((v) => v.id === 'frames')!.applies(recording)).toBe(true);
  });

  it('lists every packet sent up to the cursor, both sides, with space and packet number', () => {
    const packets = quicConnections(recording)[0]!.packets;
    render(<FramesView recording={recording} cursor={recording.steps.length - 1} />);
    const rows = within(screen.getByRole('table', { name: 'QUIC packets' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.length).toBe(packets.length);
    expect(rows[0]!.textContent).toContain('client →');
    expect(rows[0]!.textContent).toContain('Initial');
    expect(rows.some((r) => r.textContent?.includes('← server') && r.textContent.includes('Handshake'))).toBe(true);
    expect(rows.filter((r) => r.classList.contains('is-later')).length).toBe(0);
  });

  it('dims the packets not yet sent at the cursor and selects the latest sent', () => {
    const packets = quicConnections(recording)[0]!.packets;
    render(<FramesView recording={recording} cursor={packets[2]!.step} />);
    const rows = within(screen.getByRole('table', { name: 'QUIC packets' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.length).toBe(packets.length);
    expect(rows.filter((r) => r.classList.contains('is-later')).length).toBe(packets.length - 3);
    expect(rows[2]!.getAttribute('aria-selected')).toBe('true');
  });

  it('lights the bytes of the field under the pointer and picks the field of the byte under the pointer', () => {
    const conn = quicConnections(recording)[0]!;
    const pos = conn.packets.findIndex((p) => p.event.from === 'client' && p.event.frames.some((f) => f.startsWith('STREAM 0 ')));
    const { container } = render(<FramesView recording={recording} cursor={conn.packets[pos]!.step} />);
    const headers = screen.getByRole('button', { name: /HTTP\/3 HEADERS/ });
    fireEvent.mouseEnter(headers);
    const lit = litOffsets(container);
    expect(lit.length).toBeGreaterThan(2);
    expect(lit).toEqual(range(lit[0]!, lit[0]! + lit.length));
    // The first lit byte is the HEADERS frame type, 0x01 (RFC 9114 §7.2.2).
    expect(conn.packets[pos]!.bytes[lit[0]!]).toBe(0x01);
    // Pointing at byte 0 picks the first byte's field (its bit fields share the byte); at the HEADERS' first
    // byte, the HEADERS' type and length.
    fireEvent.mouseEnter(container.querySelector('[role="gridcell"][data-offset="0"]')!);
    expect(container.querySelector('[data-field="first-byte"]')!.getAttribute('aria-current')).toBe('true');
    fireEvent.mouseEnter(container.querySelector(`[role="gridcell"][data-offset="${lit[0]}"]`)!);
    expect(container.querySelector('[aria-current="true"]')!.textContent).toMatch(/^Type and Length/);
  });

  it('lists the streams with the HTTP/3 frames on them, control and QPACK streams included', () => {
    render(<FramesView recording={recording} cursor={recording.steps.length - 1} />);
    const streams = screen.getByRole('region', { name: 'Streams' });
    const text = (id: string) => streams.querySelector(`[data-stream="${id}"]`)?.textContent ?? '';
    expect(text('client-0')).toMatch(/request.*HEADERS/);
    expect(text('server-0')).toMatch(/HEADERS.*DATA/);
    expect(text('client-2')).toMatch(/control.*SETTINGS/);
    expect(text('server-3')).toMatch(/control.*SETTINGS/);
  });

  it("shows the client's first Initial protected, and opening it again gives the same bytes", async () => {
    const conn = quicConnections(recording)[0]!;
    const { container } = render(<FramesView recording={recording} cursor={conn.packets[0]!.step} />);
    fireEvent.click(screen.getByRole('radio', { name: /Protected/ }));
    expect((await screen.findByTestId('round-trip')).textContent).toMatch(/byte for byte/);
    const cells = [...container.querySelectorAll('[role="gridcell"]')].slice(0, 5).map((el) => el.textContent);
    // Bytes 1-4 are the version, never protected: 00 00 00 01.
    expect(cells.slice(1, 5)).toEqual(['00', '00', '00', '01']);
    // The packet number sits after 26 header bytes; its protected form is lit when pointed at.
    fireEvent.mouseEnter(screen.getByRole('button', { name: /Protected Packet Number/ }));
    expect(litOffsets(container)).toEqual([26]);
  });
});
