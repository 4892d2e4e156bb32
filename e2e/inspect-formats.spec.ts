/**
 * /inspect/ and the formats of issue #30 items 1 and 9, each file opened as a reader would: curl -v logs read
 * as heads whose bodies curl left out (and replayed as curl saw them), curl --trace-ascii logs, one whole
 * packet's hex, a pcap file named for what it is, an xxd typo located, and HAR checks that do not claim "no
 * errors" for JSON that does not parse. The fixtures were made on loopback with curl, tcpdump, python's
 * http.server and nghttpd (see src/playground/inspect/inspect.test.ts and packet.test.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { playground } from './helpers';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../src/playground/inspect/fixtures', name));

/** Opens a file through the page's file chooser, the way a reader would. */
async function open(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId('inspect-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  return page.getByTestId('inspect-result');
}

async function paste(page: Page, text: string) {
  await page.getByLabel(/Paste bytes, text or a HAR/).fill(text);
  await page.getByRole('button', { name: 'Inspect', exact: true }).click();
  return page.getByTestId('inspect-result');
}

test('curl -v with its progress meter: the head is whole, the body said to be left out, and Replay answers 200', async ({ page }) => {
  await page.goto('/inspect/');
  const result = await open(page, 'curl-v-meter.txt', fixture('curl-v-meter.txt'));
  await expect(result).toHaveAttribute('data-format', 'curl');
  await expect(page.locator('[data-verdict="server-strict"]')).toContainText('1 whole message read (its head only: curl did not print the body)');
  await expect(result).toContainText("The 200 response's body is not in curl's log: Content-Length says 157 bytes");
  await expect(result).toContainText('progress meter');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);

  await page.getByRole('button', { name: 'Replay in playground' }).click();
  const replay = await page.getByTestId('inspect-replay').getAttribute('href');
  await page.goto(replay!);
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  await expect(pg.output).toContainText('GET / -> 200 0 bytes');
});

test('curl --trace-ascii, one whole packet, a pcap file: each read as what it is', async ({ page }) => {
  await page.goto('/inspect/');
  let result = await open(page, 'curl-trace-ascii-post.txt', fixture('curl-trace-ascii-post.txt'));
  await expect(result).toHaveAttribute('data-format', 'curl');
  await expect(page.locator('[data-verdict="client-strict"]')).toContainText('1 whole message read.');
  await expect(page.locator('[data-verdict="server-strict"]')).toContainText('1 whole message read.');

  result = await open(page, 'packet.txt', fixture('packet-ipv4-http1-request.hexstream.txt'));
  await expect(result).toHaveAttribute('data-format', 'http1');
  await expect(result).toContainText('127.0.0.1:41074 is the client, 127.0.0.1:18400 the server');

  result = await open(page, 'packet6.txt', fixture('packet-ipv6-h2-server.hexstream.txt'));
  await expect(result).toHaveAttribute('data-format', 'h2');
  await expect(result).toContainText('[::1]:18401 is the server');

  // A pcap file's global header (tcpdump -i lo -w on x86) and nothing after it.
  const pcap = Buffer.from('d4c3b2a10200040000000000000000000000040001000000', 'hex');
  result = await open(page, 'empty.pcap', pcap);
  await expect(result).toHaveAttribute('data-format', 'pcap');
  await expect(result).not.toContainText('Not recognized');
});

test('an xxd typo is located, and HAR JSON that does not parse gets no "no errors"', async ({ page }) => {
  await page.goto('/inspect/');
  // Opened as a file, an xxd dump is the bytes it writes; pasted with one digit changed, the digit is named.
  const opened = await open(page, 'h2-client.xxd.txt', fixture('h2-client.xxd.txt'));
  await expect(opened).toHaveAttribute('data-format', 'h2');
  await expect(page.getByTestId('inspect-problem')).toHaveCount(0);
  const xxd = fixture('h2-client.xxd.txt').toString('utf8').replace('00000010: 0d0a 534d', '00000010: 0d0a 544d');
  await paste(page, xxd);
  await expect(page.getByTestId('inspect-problem')).toContainText('line 2, column 16');
  await expect(page.getByTestId('inspect-problem')).toContainText('shows "S"');

  await paste(page, fixture('chromium.har').toString('utf8').slice(0, 2000));
  await expect(page.getByTestId('inspect-problem')).toContainText('not valid JSON');
  await expect(page.getByTestId('inspect-har-checks')).toContainText('1 error');
  await expect(page.getByTestId('inspect-har-checks')).not.toContainText('no errors');
});
