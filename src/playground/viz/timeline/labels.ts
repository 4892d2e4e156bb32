/**
 * Names for what a TCP segment carries, read from the bytes the application wrote ('bytes-sent').
 *
 * A segment only has a stream offset and a length. To label it "GET /index.html HTTP/1.1" or "HEADERS s1,
 * DATA s1" we replay each direction's writes and remember which byte range held which message:
 * - TLS records (RFC 8446 §5.1: type, legacy version 0x0303, 16-bit length) when the connection runs TLS;
 *   handshake records carry their messages' names in ASCII (see net/tls.ts), application data records carry
 *   the HTTP bytes inside what protection adds, and TLS 1.3's encrypted handshake records, though typed
 *   application data, are named as the handshake messages they carry (tls-records.ts);
 * - HTTP/1.x: a write that starts with a request line or status line (RFC 9112 §3, §4);
 * - HTTP/2: the connection preface (RFC 9113 §3.4) and 9-octet frame headers (§4.1).
 * Anything else is "data". Labels are for people: a message split across writes is named by its first one.
 *
 * Which protocol a byte range carries is decided per range, in stream order, not per connection: a connection
 * to a proxy starts in HTTP/1 (the client's CONNECT and the proxy's 200) and carries TLS and HTTP/2 only once
 * the tunnel is open (RFC 9110 §9.3.6), so a client's bytes are HTTP/2 frames from its preface on, and the
 * other side's once the server speaks HTTP/2 (it announced a session, or the client's preface has gone out).
 */

import { readTlsRecords } from 'roundtrip/wire';
import { TlsRecordReader, tlsRecordLabel, type TlsProtocol } from '../tls-records';

export type Category = 'tcp' | 'tls' | 'request' | 'response' | 'h2' | 'data' | 'ack' | 'quic';

export interface LabelledRange {
  readonly start: number;
  readonly end: number;
  readonly label: string;
  readonly category: Category;
}

// RFC 9113 §6 frame types by code.
const H2_FRAME_TYPES = ['DATA', 'HEADERS', 'PRIORITY', 'RST_STREAM', 'SETTINGS', 'PUSH_PROMISE', 'PING', 'GOAWAY', 'WINDOW_UPDATE', 'CONTINUATION'];
const H2_PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';
const REQUEST_LINE = /^([A-Z][A-Z0-9!#$%&'*+.^_`|~-]*) (\S+)(?: HTTP\/\d\.\d)?\r\n/;
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? \d{3}[^\r\n]*/;

function h2Frames(data: string, from: number): string[] {
  const names: string[] = [];
  let at = from;
  while (at + 9 <= data.length) {
    const length = (data.charCodeAt(at) << 16) | (data.charCodeAt(at + 1) << 8) | data.charCodeAt(at + 2);
    const type = data.charCodeAt(at + 3);
    const flags = data.charCodeAt(at + 4);
    const stream = ((data.charCodeAt(at + 5) & 0x7f) << 24) | (data.charCodeAt(at + 6) << 16) | (data.charCodeAt(at + 7) << 8) | data.charCodeAt(at + 8);
    const name = H2_FRAME_TYPES[type] ?? `type ${type}`;
    // SETTINGS and PING with ACK (0x1) are answers, worth telling apart from the originals.
    const ack = (type === 4 || type === 6) && flags & 1 ? ' ACK' : '';
    names.push(stream === 0 ? `${name}${ack}` : `${name} s${stream}`);
    at += 9 + length;
  }
  return names;
}

/** Labels an application-level chunk (HTTP/1 text or HTTP/2 frames). */
export function appLabel(data: string, http2: boolean): { label: string; category: Category } {
  if (data.startsWith(H2_PREFACE)) {
    const frames = h2Frames(data, H2_PREFACE.length);
    return { label: ['preface', ...frames].join(', '), category: 'h2' };
  }
  if (http2) {
    const frames = h2Frames(data, 0);
    if (frames.length > 0) {
      const shown = frames.length > 3 ? [...frames.slice(0, 3), `+${frames.length - 3}`] : frames;
      return { label: shown.join(', '), category: 'h2' };
    }
  }
  const status = STATUS_LINE.exec(data);
  if (status) return { label: status[0], category: 'response' };
  const request = REQUEST_LINE.exec(data);
  if (request) return { label: request[0].trimEnd(), category: 'request' };
  return { label: `data (${data.length} B)`, category: 'data' };
}

/**
 * Replays one direction's writes into labelled byte ranges. `tls` names the TLS the bytes are records of, if any.
 * Application bytes are read as HTTP/1 until this direction speaks HTTP/2: from a write that starts with the
 * client preface, or from `startHttp2()` (the server's side of a connection whose client sent its preface).
 */
export class StreamLabeller {
  readonly ranges: LabelledRange[] = [];
  #offset = 0;
  #http2 = false;
  /** Bytes of the last TLS record still to come in later writes. */
  #recordLeft = 0;
  readonly #records = new TlsRecordReader();

  /** True once this direction's application bytes are HTTP/2 frames. */
  get http2(): boolean {
    return this.#http2;
  }

  /** From the next write on, application bytes are HTTP/2 frames. */
  startHttp2(): void {
    this.#http2 = true;
  }

  #app(data: string): { label: string; category: Category } {
    if (data.startsWith(H2_PREFACE)) this.#http2 = true;
    return appLabel(data, this.#http2);
  }

  write(data: string, tls: TlsProtocol | undefined): void {
    // The rest of a record an earlier write began (a proxy relays a server's multi-KB flight segment by
    // segment): it belongs to that record's range.
    if (tls && this.#recordLeft > 0) {
      const take = Math.min(this.#recordLeft, data.length);
      const last = this.ranges[this.ranges.length - 1]!;
      this.ranges[this.ranges.length - 1] = { ...last, end: last.end + take };
      this.#offset += take;
      this.#recordLeft -= take;
      if (take === data.length) return;
      data = data.slice(take);
    }
    if (tls && data.length >= 5 && data.charCodeAt(1) === 3 && data.charCodeAt(2) === 3) {
      let at = 0;
      for (const record of readTlsRecords(data)) {
        const payload = data.slice(record.payloadStart, record.end);
        const content = this.#records.read(record.type, payload, tls);
        const named = content.kind === 'application-data' ? this.#app(content.plaintext) : { label: tlsRecordLabel(content), category: 'tls' as const };
        this.#push(record.end - record.start, named.label, named.category);
        this.#recordLeft = record.length - payload.length;
        at = record.end;
      }
      if (at < data.length) this.#push(data.length - at, `data (${data.length - at} B)`, 'data');
      return;
    }
    const named = this.#app(data);
    this.#push(data.length, named.label, named.category);
  }

  #push(length: number, label: string, category: Category): void {
    this.ranges.push({ start: this.#offset, end: this.#offset + length, label, category });
    this.#offset += length;
  }

  /** What the segment at [offset, offset + length) carries; `starts` when it holds the first byte of a message. */
  describe(offset: number, length: number): { label: string; category: Category; starts: boolean } {
    const ranges = this.ranges;
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = ranges[mid]!;
      if (offset < r.start) hi = mid - 1;
      else if (offset >= r.end) lo = mid + 1;
      else {
        let last = mid;
        while (last + 1 < ranges.length && ranges[last + 1]!.start < offset + length) last++;
        const starts = offset === r.start;
        const covered = ranges.slice(mid, last + 1);
        // A segment that starts a run of TLS records (a handshake flight: ServerHello, ChangeCipherSpec, the
        // encrypted rest) names each, in order, as Wireshark's Info column lists the records of a packet.
        if (starts && covered.length > 1 && covered.every((c) => c.category === 'tls' && c.label.startsWith('TLS '))) {
          return { label: `TLS ${covered.map((c) => c.label.slice(4)).join(', ')}`, category: 'tls', starts };
        }
        const more = last - mid;
        const label = `${starts ? r.label : `${r.label} (continued)`}${more > 0 ? ` +${more} more` : ''}`;
        return { label, category: r.category, starts };
      }
    }
    return { label: `${length} B`, category: 'data', starts: false };
  }
}
