import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { splitKeyLog } from './key-log-file';

const file = (name: string) => {
  const bytes = readFileSync(new URL(`../fixtures/capture/${name}`, import.meta.url));
  return { name, size: bytes.length, text: async () => bytes.toString('latin1') };
};

it('sets the key log aside from the capture dropped with it, in either order', async () => {
  for (const order of [
    ['tls13-h2.pcap', 'tls13-h2.keys'],
    ['tls13-h2.keys', 'tls13-h2.pcap'],
  ]) {
    const got = await splitKeyLog(order.map(file));
    expect(got.files.map((f) => f.name)).toEqual(['tls13-h2.pcap']);
    expect(got.keyLogFile?.name).toBe('tls13-h2.keys');
    expect(got.keyLog?.split('\n')[0]).toMatch(/^SERVER_HANDSHAKE_TRAFFIC_SECRET [0-9a-f]{64} /);
  }
});

it('leaves files alone when none is a key log, or when one file comes alone', async () => {
  expect((await splitKeyLog(['h2c.pcap', 'tls13-h2.curl-output.txt'].map(file))).files.map((f) => f.name)).toEqual(['h2c.pcap', 'tls13-h2.curl-output.txt']);
  const alone = await splitKeyLog([file('tls13-h2.keys')]);
  expect([alone.files.length, alone.keyLog]).toEqual([1, undefined]);
});

it('takes a key log dropped alone when a capture is already open', async () => {
  const got = await splitKeyLog([file('tls13-h2.keys')], { alone: true });
  expect([got.files.length, got.keyLogFile?.name]).toEqual([0, 'tls13-h2.keys']);
  expect((await splitKeyLog([file('h2c.pcap')], { alone: true })).files).toHaveLength(1);
});
