/**
 * Which bytes of a recorded connection are HTTP/1, decided per byte range rather than per connection.
 *
 * 'bytes-sent' holds what went onto the TCP connection. On a connection that runs TLS from its first byte
 * (https:), that is TLS records (RFC 8446 §5.1); the HTTP/1 messages are the application data inside them, as
 * a browser's DevTools shows them. A connection to a proxy starts in plain HTTP/1 (a CONNECT and its 200, RFC
 * 9110 §9.3.6) and carries the tunnel's TLS after it: those bytes stay as they went, and the message reader
 * shows them as tunnel bytes. A connection whose client opened with the HTTP/2 preface is not HTTP/1 at all
 * (the Frames view draws it), even when the same simulation's other connections are.
 *
 * Kept free of the views' code: the view list (views.ts) asks it whether the Messages view applies.
 */
import type { Source } from '../../recording/model';
import { readTlsRecords } from 'roundtrip/wire';
import { TlsRecordReader, tlsProtocolOf, type TlsProtocol } from '../tls-records';

type WireEvents = Extract<Source, { kind: 'wire' }>['events'];

const TLS_HANDSHAKE = 22;
const H2_PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

/**
 * The application data inside a write of TLS records, protection removed: handshake records carry none, TLS
 * 1.3's encrypted ones (application_data on the outside) included.
 */
function applicationData(data: string, protocol: TlsProtocol, records: TlsRecordReader): string {
  let out = '';
  for (const r of readTlsRecords(data)) {
    const content = records.read(r.type, data.slice(r.payloadStart, r.end), protocol);
    if (content.kind === 'application-data') out += content.plaintext;
  }
  return out;
}

/**
 * Reads one direction of a connection, write by write: a direction whose first write starts with a TLS
 * handshake record is read through its records from then on; any other keeps its bytes as they are (a
 * tunnel's TLS after a CONNECT included). A record may span writes (a proxy relays a 1,505-byte hybrid
 * ClientHello segment by segment): its bytes wait until the record is whole.
 */
export class DirectionReader {
  #tls: boolean | undefined;
  /** The start of a record whose end has not come yet. */
  #partial = '';
  readonly #records = new TlsRecordReader();
  /** Which TLS the connection's handshake events named (the records look alike: both say 0x0303). */
  protocol: TlsProtocol = 'tls1.3';

  /** The HTTP-level bytes of one write ('' for a TLS handshake flight, or for the start of a record). */
  read(data: string): string {
    if (this.#tls === undefined) this.#tls = data.charCodeAt(0) === TLS_HANDSHAKE && readTlsRecords(data, { check: true }).length > 0;
    if (!this.#tls) return data;
    const bytes = this.#partial + data;
    const whole = readTlsRecords(bytes, { check: true, completeOnly: true });
    const end = whole.length > 0 ? whole[whole.length - 1]!.end : 0;
    this.#partial = bytes.slice(end);
    // Bytes that cannot start a record are not TLS: handed on as they are, as before the records began.
    if (this.#partial.length >= 5 && readTlsRecords(this.#partial, { check: true }).length === 0) {
      const rest = this.#partial;
      this.#partial = '';
      return applicationData(bytes.slice(0, end), this.protocol, this.#records) + rest;
    }
    return applicationData(bytes.slice(0, end), this.protocol, this.#records);
  }
}

/**
 * Ids of the connections in `events` that carried HTTP/1, in order of their first bytes: every connection
 * with bytes on it except those whose client opened with the HTTP/2 preface.
 */
export function http1ConnectionIds(events: WireEvents): string[] {
  const seen = new Set<string>();
  const readers = new Map<string, DirectionReader>();
  const decided = new Set<string>();
  const http2 = new Set<string>();
  const protocols = new Map<string, TlsProtocol>();
  for (const e of events) {
    const tls = tlsProtocolOf(e);
    if (tls && 'connectionId' in e) protocols.set(e.connectionId, tls);
    if (e.type !== 'bytes-sent') continue;
    seen.add(e.connectionId);
    if (e.from !== 'client' || decided.has(e.connectionId)) continue;
    let reader = readers.get(e.connectionId);
    if (!reader) readers.set(e.connectionId, (reader = new DirectionReader()));
    reader.protocol = protocols.get(e.connectionId) ?? reader.protocol;
    const bytes = reader.read(e.data);
    if (bytes.length === 0) continue; // a TLS handshake flight: the client's first HTTP bytes are still to come
    decided.add(e.connectionId);
    if (bytes.startsWith(H2_PREFACE.slice(0, Math.min(bytes.length, H2_PREFACE.length)))) http2.add(e.connectionId);
  }
  return [...seen].filter((id) => !http2.has(id));
}
