/**
 * Our capture readers against Wireshark's own dissectors (fixtures/capture/tshark/: tshark 4.0's output for
 * each fixture, recorded by record.sh): every TCP stream reassembled each way to the same bytes, TLS 1.3 and 1.2
 * decrypted with the key log to the same application data, and pcapng files written by editcap (Wireshark's
 * writer, not ours) read to the same packets, connections and times as the pcap they were made from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapture, readCapturePackets } from './index';

const dir = join(__dirname, '..', 'fixtures', 'capture');
const tshark = JSON.parse(readFileSync(join(dir, 'tshark', 'tshark.json'), 'utf8')) as Record<
  string,
  { tcp: { client: string; server: string }[]; tls?: { client: string; server: string } }
>;
const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const hex = (chunks: readonly { bytes: Uint8Array }[]) => chunks.map((c) => Buffer.from(c.bytes).toString('hex')).join('');

describe.each(Object.keys(tshark))('%s', (name) => {
  const expected = tshark[name]!;

  it('reassembles every TCP stream each way to the bytes tshark follows', () => {
    const read = readCapturePackets(file(`${name}.pcap`));
    expect(read.problems).toEqual([]);
    expect(read.connections.map((c) => ({ client: hex(c.chunks.client), server: hex(c.chunks.server) }))).toEqual(expected.tcp);
  });

  it("reads editcap's pcapng copy to the same packets, connections and times", () => {
    const pcap = readCapturePackets(file(`${name}.pcap`));
    const pcapng = readCapturePackets(file(`tshark/${name}.editcap.pcapng`));
    expect(pcapng.format).toBe('pcapng');
    expect(pcapng.problems).toEqual([]);
    const shape = (r: typeof pcap) => ({
      packets: r.packets,
      startedAt: r.startedAt?.slice(0, 23), // editcap keeps the timestamps; the precision written may differ
      duration: r.duration,
      connections: r.connections.map((c) => ({
        label: c.label,
        segments: c.segments.map((s) => [s.number, s.time, s.from, s.seq, s.length]),
        client: hex(c.chunks.client),
        server: hex(c.chunks.server),
      })),
    });
    expect(shape(pcapng)).toEqual(shape(pcap));
  });
});

describe.each(Object.keys(tshark).filter((name) => tshark[name]!.tls))('%s with its key log', (name) => {
  it('decrypts TLS to the application data tshark decrypts', async () => {
    const got = await readCapture(file(`${name}.pcap`), { keyLog: readFileSync(join(dir, `${name}.keys`), 'utf8') });
    const tls = got.capture.connections.find((c) => c.tls)?.tls;
    expect(tls?.problems).toEqual([]);
    expect({ client: hex(tls?.plaintext?.client ?? []), server: hex(tls?.plaintext?.server ?? []) }).toEqual(tshark[name]!.tls);
  });
});
