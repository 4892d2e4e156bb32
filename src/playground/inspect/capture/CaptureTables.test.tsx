// @vitest-environment jsdom
/** The capture tables under a reading: each connection's segments, and TLS records. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptureTables } from './CaptureTables';
import { readCapture, readCaptureNow } from './index';

afterEach(cleanup);

const path = (name: string) => join(__dirname, '..', 'fixtures', 'capture', name);
const fixture = (name: string) => new Uint8Array(readFileSync(path(name)));
const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.children, (cell) => cell.textContent));

describe('segments', () => {
  it('lists the reordered, retransmitted and overlapping segments of the crafted capture, and marks them', () => {
    render(<CaptureTables capture={readCaptureNow(fixture('http1-retransmit.pcap')).capture} />);
    const [first] = screen.getAllByTestId('capture-segments');
    const table = rows(first!);
    // tcpdump -r: packets 6-9 are the server's response in two halves (88 and 87 bytes), out of order, then repeated.
    expect(table.slice(5, 9).map((r) => [r[0], r[2], r[3], r[4], r[6]])).toEqual([
      ['6', 'server', 'PSH, ACK', '88', '88'],
      ['7', 'server', 'PSH, ACK', '1', '87'],
      ['8', 'server', 'PSH, ACK', '1', '87'],
      ['9', 'server', 'PSH, ACK', '83', '93'],
    ]);
    expect(table[0]!.slice(2, 5)).toEqual(['client', 'SYN', '0']);
    const marked = within(first!)
      .getAllByRole('row')
      .filter((r) => r.className === 'rt-inspect-overrun')
      .map((r) => r.firstElementChild?.textContent);
    expect(marked).toEqual(['6', '7', '8', '9']);
  });
});

it('TLS: the records with what decryption gave', async () => {
  const keyLog = readFileSync(path('tls13-http1.keys'), 'utf8');
  render(<CaptureTables capture={(await readCapture(fixture('tls13-http1.pcap'), { keyLog })).capture} />);
  const tls = screen.getByTestId('capture-tls');
  expect(tls.querySelector('caption')?.textContent).toMatch(/TLS 1\.3; TLS_AES_128_GCM_SHA256; ALPN offered: http\/1\.1; 15 records, 11 of them encrypted/);
  expect(
    rows(tls)
      .map((r) => r[4])
      .slice(0, 4),
  ).toEqual([
    'handshake: ClientHello',
    'handshake: ServerHello',
    'change_cipher_spec (compatibility, RFC 8446 §D.4)',
    'handshake: EncryptedExtensions (decrypted)',
  ]);
});
