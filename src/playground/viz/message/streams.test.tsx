// @vitest-environment jsdom
/**
 * The Messages view reads each byte range as the protocol that carries it: HTTP/1 inside TLS records on an
 * https: connection (it dissected the records themselves, and every message of http-compare-page-load's
 * HTTP/1 runs came out "Rejected"), and the CONNECT exchange in front of a tunnel whose inside is HTTP/2
 * (the connection was skipped whole, because HTTP/2 starts on it later).
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Recording } from '../../recording/model';
import { recordSnippet } from '../run-snippet';
import { VIEWS } from '../views';
import { DirectionReader } from './streams';
import { dissect } from './anatomy';
import MessageInspector from './MessageInspector';

afterEach(cleanup);

const captions = (container: HTMLElement) => [...container.querySelectorAll('figcaption')].map((f) => f.textContent);
const connections = (container: HTMLElement) => [...container.querySelectorAll('option')].map((o) => o.textContent);
const messagesApplies = (recording: Recording) => VIEWS.find((v) => v.id === 'messages')!.applies(recording);

describe('Messages view, byte ranges by protocol', () => {
  it('reads HTTP/1 messages out of the TLS records of an https: connection', async () => {
    const { recording } = await recordSnippet('http-compare-page-load.ts');
    const first = recording.sources.findIndex((s) => s.label.startsWith('HTTP/1.1 persistent'));
    // The cursor on that run's last event: the view follows the connection it wrote on.
    const source = recording.sources[first]!;
    const cursor = recording.steps.findLastIndex((s) => s.sourceId === source.id && (source.events[s.index] as { type: string }).type === 'bytes-sent');
    const { container } = render(<MessageInspector recording={recording} cursor={cursor} />);
    const shown = captions(container);
    expect(shown[0]).toMatch(/^Request GET \/index\.html HTTP\/1\.1 \(\d+ bytes\)$/);
    const requests = shown.filter((c) => c!.startsWith('Request GET '));
    expect(requests.length).toBeGreaterThan(1);
    expect(shown.filter((c) => c!.startsWith('Response HTTP/1.1 200 OK'))).toHaveLength(requests.length);
    expect(shown.filter((c) => /Rejected|ClientHello|Finished/.test(c!))).toEqual([]);
    // The HTTP/2 and HTTP/3 runs have no HTTP/1 connection to offer.
    expect(connections(container).filter((c) => /^HTTP\/[23]/.test(c!))).toEqual([]);
  });

  it('takes the plaintext out of protected records: TLS 1.3 type byte and tag after it, TLS 1.2 nonce before and tag after', () => {
    const bin = (bytes: number[]) => String.fromCharCode(...bytes);
    const record = (type: number, payload: string) => bin([type, 3, 3, payload.length >> 8, payload.length & 0xff]) + payload;
    const zeros = (n: number) => '\0'.repeat(n);
    const hello = record(22, 'ClientHello');
    const changeCipherSpec = record(20, '\x01');
    const text = 'GET / HTTP/1.1\r\n';
    const tls13 = new DirectionReader();
    expect(tls13.read(hello)).toBe('');
    // The client's Finished, protected as application_data with the inner type handshake (22), carries no HTTP.
    expect(tls13.read(changeCipherSpec + record(23, `Finished${zeros(28)}\x16${zeros(16)}`))).toBe('');
    expect(tls13.read(record(23, `${text}\x17${zeros(16)}`) + record(23, `x${'\x17'}${zeros(16)}`))).toBe(`${text}x`);
    const tls12 = new DirectionReader();
    tls12.protocol = 'tls1.2';
    tls12.read(hello);
    expect(tls12.read(record(22, 'ClientKeyExchange') + changeCipherSpec + record(22, `${zeros(8)}Finished${zeros(8)}${zeros(16)}`))).toBe('');
    expect(tls12.read(record(23, `${zeros(8)}${text}${zeros(16)}`))).toBe(text);
  });

  it('never reads a TLS 1.3 server flight, protected records included, as HTTP', () => {
    const bin = (bytes: number[]) => String.fromCharCode(...bytes);
    const record = (type: number, payload: string) => bin([type, 3, 3, payload.length >> 8, payload.length & 0xff]) + payload;
    const zeros = (n: number) => '\0'.repeat(n);
    const server = new DirectionReader();
    const flight =
      record(22, `ServerHello${zeros(79)}`) +
      record(20, '\x01') +
      record(23, `EncryptedExtensions, Certificate, CertificateVerify, Finished${zeros(200)}\x16${zeros(16)}`);
    expect(server.read(flight)).toBe('');
    expect(server.read(record(23, `HTTP/1.1 200 OK\r\n\x17${zeros(16)}`))).toBe('HTTP/1.1 200 OK\r\n');
  });

  it('shows the CONNECT request and its 200 in front of an HTTP/2 tunnel, and the tunnel as tunnel bytes', async () => {
    const { recording } = await recordSnippet('http2-proxy-tunnel.ts');
    expect(messagesApplies(recording)).toBe(true);
    const { container } = render(<MessageInspector recording={recording} cursor={recording.steps.length - 1} />);
    // c2, the proxy's hop to the server, carries only the tunnel: HTTP/2 inside TLS.
    expect(connections(container)).toEqual([expect.stringMatching(/: c1$/)]);
    expect(captions(container)).toEqual([
      expect.stringMatching(/^Request CONNECT api\.example:443 HTTP\/1\.1 /),
      expect.stringMatching(/^Not HTTP\/1 Tunnel bytes after CONNECT/),
      expect.stringMatching(/^Response HTTP\/1\.1 200 Connection Established /),
      expect.stringMatching(/^Not HTTP\/1 Tunnel bytes after CONNECT/),
    ]);
    // The tunnel is cut into the TLS records the proxy relays, each named by what it carries.
    const parts = [...container.querySelectorAll('li')].map((li) => li.textContent);
    const tunnelled = (from: string) => parts.slice(parts.indexOf(from)).filter((t) => t?.startsWith('TLS '));
    // 59 bytes of CONNECT, then the ClientHello record (5 + 1,500 with the X25519MLKEM768 share = 1,505), the
    // ChangeCipherSpec record 6, the protected Finished 5 + 36 + 1 + 16 = 58, then the first application data.
    expect(tunnelled('TLS ClientHello (bytes 59–1563)').slice(0, 4)).toEqual([
      'TLS ClientHello (bytes 59–1563)',
      'TLS ChangeCipherSpec (bytes 1564–1569)',
      'TLS Finished (encrypted) (bytes 1570–1627)',
      'TLS application data (encrypted: the proxy relays it unread) (bytes 1628–1701)',
    ]);
    // 39 bytes of 200 response, then ServerHello 5 + 1,178 = 1,183, ChangeCipherSpec 6 and the protected rest
    // 3,162 (4,351).
    expect(tunnelled('TLS ServerHello (bytes 39–1221)').slice(0, 3)).toEqual([
      'TLS ServerHello (bytes 39–1221)',
      'TLS ChangeCipherSpec (bytes 1222–1227)',
      'TLS EncryptedExtensions, Certificate, CertificateVerify, Finished (encrypted) (bytes 1228–4389)',
    ]);
  });

  it('cuts a tunnel into TLS records only when the connection ran TLS, and says what is still arriving', () => {
    const head = 'CONNECT api.example:443 HTTP/1.1\r\nHost: api.example:443\r\n\r\n';
    const hello = `\x16\x03\x03\x00\x10ClientHello${'\0'.repeat(5)}`;
    // TLS 1.3: an application_data record before the client's Finished is its encrypted handshake.
    const finished = `\x14\x03\x03\x00\x01\x01\x17\x03\x03\x00\x1aFinished\0\x16${'\0'.repeat(16)}`;
    const bytes = Uint8Array.from(`${head}${hello}${finished}\x17\x03\x03\x00\x20abc`, (c) => c.charCodeAt(0));
    const labels = (tunnelTls?: 'tls1.3') =>
      dissect(bytes, 'request', tunnelTls ? { tunnelTls } : {})
        .at(-1)!
        .parts.map((p) => [p.label, p.start, p.end]);
    expect(labels('tls1.3')).toEqual([
      ['TLS ClientHello', head.length, head.length + 21],
      ['TLS ChangeCipherSpec', head.length + 21, head.length + 27],
      ['TLS Finished (encrypted)', head.length + 27, head.length + 58],
      ['TLS application data (encrypted: the proxy relays it unread), still arriving', head.length + 58, bytes.length],
    ]);
    expect(labels()).toEqual([['Tunnel bytes after CONNECT: not HTTP/1', head.length, bytes.length]]);
  });
});
