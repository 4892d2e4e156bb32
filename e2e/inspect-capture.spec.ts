/**
 * /inspect/ with capture files (issue #30 item 12): a tcpdump capture opened through the file chooser is read
 * as connections, reassembled both ways, with the segments listed and the conversation drawn in the views.
 * The fixtures were made on loopback with tcpdump, curl, nghttp and nghttpd (src/playground/inspect/fixtures/
 * capture/make.sh; capture.test.ts checks them against tcpdump's own reading).
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../src/playground/inspect/fixtures/capture', name));

async function open(page: Page, name: string) {
  await page.getByTestId('inspect-file').setInputFiles({ name, mimeType: 'application/vnd.tcpdump.pcap', buffer: fixture(name) });
  return page.getByTestId('inspect-result');
}

test('an h2c capture: one connection, its segments, its frames in the views, Replay offered', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await open(page, 'h2c.pcapng');
  await expect(result).toHaveAttribute('data-format', 'pcap');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);
  const tables = page.getByTestId('capture-tables');
  await expect(tables).toContainText('pcapng: 15 packets, 1 TCP connection');
  await expect(tables).toContainText('127.0.0.1:45298 -> 127.0.0.1:18503: h2c');
  await expect(page.getByTestId('capture-segments').getByRole('row')).toHaveCount(16);
  await expect(page.getByRole('button', { name: 'Replay in playground' })).toBeVisible();
});

test('a capture with a reordered and retransmitted response: the segments say what reassembly did', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await open(page, 'http1-retransmit.pcap');
  await expect(result).toHaveAttribute('data-format', 'pcap');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);
  const first = page.getByTestId('capture-segments').first();
  await expect(first).toContainText('ahead of a gap: bytes 1-87 are missing');
  await expect(first).toContainText('retransmission (bytes 1-87 came before)');
  await expect(first.locator('tr.rt-inspect-overrun')).toHaveCount(4);
});

test('a TLS capture without its key log: the handshake records, and the rest said to be encrypted', async ({ page }) => {
  await page.goto('/inspect/');
  await open(page, 'tls13-h2.pcap');
  await expect(page.getByTestId('capture-tls')).toContainText('handshake: ClientHello');
  await expect(page.getByTestId('capture-tls')).toContainText('TLS_AES_256_GCM_SHA384');
  await expect(page.getByTestId('inspect-result')).toContainText('TLS application data is encrypted');
});

test('a TLS 1.3 capture with its key log, chosen together or after it: decrypted in the page and read as the HTTP ALPN named', async ({ page }) => {
  await page.goto('/inspect/');
  await page.getByTestId('inspect-file').setInputFiles([
    { name: 'tls13-h2.pcap', mimeType: 'application/vnd.tcpdump.pcap', buffer: fixture('tls13-h2.pcap') },
    { name: 'tls13-h2.keys', mimeType: 'text/plain', buffer: fixture('tls13-h2.keys') },
  ]);
  const tls = page.getByTestId('capture-tls');
  await expect(tls).toContainText('ALPN chose h2');
  await expect(tls).toContainText('handshake: EncryptedExtensions (decrypted)');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Replay in playground' })).toBeVisible();

  await open(page, 'tls13-http1.pcap');
  await expect(page.getByTestId('capture-tls')).not.toContainText('(decrypted)');
  await page.getByTestId('inspect-file').setInputFiles({ name: 'tls13-http1.keys', mimeType: 'text/plain', buffer: fixture('tls13-http1.keys') });
  await expect(page.getByTestId('capture-tls')).toContainText('ALPN chose http/1.1');
  await expect(page.getByTestId('capture-tls')).toContainText('application data, 159 bytes (decrypted)');
});

test('a QUIC capture: its datagrams read as QUIC, the Initials opened in the page', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await open(page, 'quic-h3.pcap');
  await expect(result).toHaveAttribute('data-format', 'pcap');
  await expect(result).toContainText('ClientHello');
  await expect(result).toContainText('h3');
});
