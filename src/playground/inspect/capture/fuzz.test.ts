/**
 * Damaged captures: the real fixtures cut short, with bytes changed, and their key logs with bytes changed,
 * each many times from a seeded generator. The reader never throws: what it cannot read it says, with a place.
 */
import { readFileSync } from 'node:fs';
import { createRandom } from 'roundtrip/wire';
import { describe, expect, it } from 'vitest';
import { readCapture, readCaptureNow } from './index';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/capture/${name}`, import.meta.url)));
const FILES = ['http1-ipv4.pcap', 'http1-ipv6-nano.pcapng', 'h2c.pcap', 'h2c-any-sll2.pcap', 'tls13-h2.pcap', 'http1-retransmit.pcap'];

describe('damaged capture files', () => {
  it('cut anywhere or with bytes changed, they are read as far as they go and never throw', () => {
    const random = createRandom('capture-fuzz');
    let located = 0;
    for (const name of FILES) {
      const whole = fixture(name);
      for (let i = 0; i < 150; i++) {
        const bytes = whole.slice(0, i % 3 === 0 ? random.int(whole.length) : whole.length);
        for (let k = random.int(8); k > 0 && bytes.length > 0; k--) bytes[random.int(bytes.length)] = random.int(256);
        const got = readCaptureNow(bytes);
        for (const p of got.problems) expect(p.message.length).toBeGreaterThan(10);
        if (got.problems.some((p) => p.where)) located++;
      }
    }
    // A file cut inside a packet record is named at its byte (a third of the 900 runs are cut, nearly all inside
    // one), and changed bytes often make a record or a message unreadable at a named place: 549 runs name one.
    expect(located).toBeGreaterThan(200);
  });

  it('a key log with changed bytes gives named problems, never an exception', async () => {
    const random = createRandom('keylog-fuzz');
    const capture = fixture('tls13-http1.pcap');
    const keys = readFileSync(new URL('../fixtures/capture/tls13-http1.keys', import.meta.url), 'utf8');
    for (let i = 0; i < 40; i++) {
      const chars = [...keys];
      for (let k = 1 + random.int(4); k > 0; k--) chars[random.int(chars.length)] = '0123456789abcdef '[random.int(17)]!;
      const got = await readCapture(capture, { keyLog: chars.join('') });
      const tls = got.capture.connections[0]!.tls!;
      const body = got.http1[0]?.segments.find((s) => s.from === 'server');
      // Either every record opened (a digit changed to itself) and the response is whole, or the page says why not.
      if (tls.problems.length === 0) expect(new TextDecoder().decode(body?.bytes).endsWith('hello over 1.1\n\r\n0\r\n\r\n')).toBe(true);
      else expect(tls.problems[0]).toMatch(/key log|decrypt/);
    }
  });
});
