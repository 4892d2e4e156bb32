/**
 * TLS as timed flights over any ByteStream (a TCP socket or a CONNECT tunnel), with no cryptography.
 *
 * The point is the cost in round trips before the first request byte can leave:
 * - TLS 1.2 (RFC 5246 §7.3): ClientHello -> ServerHello..ServerHelloDone -> ClientKeyExchange,
 *   ChangeCipherSpec, Finished -> ChangeCipherSpec, Finished. The client sends data after 2 RTT.
 * - TLS 1.3 (RFC 8446 §2): ClientHello (with key_share) -> ServerHello..Finished -> Finished. The client
 *   sends its Finished and its first request together, after 1 RTT.
 *
 * The flights travel as real record framing (RFC 8446 §5.1: type, legacy version 0x0303, 16-bit length,
 * at most 2^14 bytes of payload), so they take bandwidth like any data. Their payloads are the message
 * names in ASCII, padded with zero bytes to the size such messages have on the wire (`bytes` in the
 * table, plus the certificate chain in the server's flight): the sizes QUIC's handshake uses too
 * (transport/tls-sizes.ts, http3/packets.ts QUIC_HANDSHAKE), so the two stacks carry the same handshake.
 * The server's flight (a few KB with its certificate chain) is one record, which TCP carries in as many
 * segments as it takes. The flights are written as 'handshake' (stream.ts): TCP never loses them, as QUIC never
 * loses its handshake packets, so loss falls on application data alone in both. Application data is NOT
 * encrypted: readers can see in the trace what TLS would hide. Session resumption and 0-RTT are not modelled.
 *
 * Application data records cost what protected records cost on the wire, with zero bytes where the
 * cryptography would put its output, so the sizes are exact and the run deterministic:
 * - TLS 1.3 (RFC 8446 §5.2): header 5 + plaintext + content type 1 + AEAD tag 16 (AES-GCM, ChaCha20-Poly1305):
 *   22 bytes per record.
 * - TLS 1.2 with AES-GCM (RFC 5288 §3, RFC 5246 §6.2.3.3): header 5 + explicit nonce 8 + plaintext + tag 16:
 *   29 bytes per record.
 * Each write is cut into records of at most 2^14 bytes of plaintext (RFC 8446 §5.1), as OpenSSL and
 * BoringSSL cut an SSL_write: the simulated HTTP servers write what they have in one call (a response, or
 * every HTTP/2 frame ready at that moment), so a large body goes in full 16 KiB records. The handshake
 * records keep their plain 5-byte headers (their messages' sizes already stand for what is sent).
 *
 * The handshake is a table (ARCHITECTURE.md, 'State machines are data'): each row says what a side sends
 * when it receives a given flight, and whether it is then ready for application data. A flight not in the
 * table is a protocol error and resets the connection.
 */
import type { NetContext } from './tcp';
import { roundTime } from './clock';
import type { Side } from '../trace/events';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { asciiBytes, concatBytes, type ByteStream, type CloseInfo, type StreamState } from './stream';
import {
  TLS_CLIENT_HELLO_BYTES,
  TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES,
  TLS_FINISHED_BYTES,
  TLS_SERVER_AUTH_EXTRA_BYTES,
  TLS_SERVER_HELLO_BYTES,
} from '../transport/tls-sizes';

export type TlsVersion = '1.2' | '1.3';

const HANDSHAKE = 22;
const APPLICATION_DATA = 23;
const MAX_RECORD = 16384;
/**
 * What protection puts around an application-data record's plaintext, in bytes: before it, TLS 1.2 AES-GCM's
 * explicit nonce (RFC 5288 §3); after it, TLS 1.3's inner content type byte (RFC 8446 §5.2) and the 16-byte
 * AEAD tag. The views that read records back (the playground's Messages and Sequence) use this table too.
 */
export const TLS_RECORD_PROTECTION: Readonly<Record<TlsVersion, { readonly before: number; readonly after: number }>> = {
  '1.3': { before: 0, after: 1 + 16 },
  '1.2': { before: 8, after: 16 },
};
/** The largest plaintext one record carries (RFC 8446 §5.1, RFC 5246 §6.2.1). */
export const TLS_MAX_RECORD_PLAINTEXT = MAX_RECORD;

interface FlightRow {
  readonly version: TlsVersion;
  readonly side: Side;
  /** The flight received; '' is the start (the client speaks first). */
  readonly received: string;
  readonly send?: string;
  /** Size of the flight's messages on the wire, bytes (record headers aside), its certificate chain aside. */
  readonly bytes?: number;
  /** The flight carries the server's Certificate (RFC 8446 §4.4.2): the chain's size is added to `bytes`. */
  readonly certificate?: boolean;
  readonly ready: boolean;
}

export interface TlsStreamOptions {
  /** Server: size of its Certificate message, bytes. Default TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES (2,800). */
  readonly certificateChainBytes?: number;
}

// Sizes shared with QUIC's handshake (transport/tls-sizes.ts).
const CLIENT_HELLO = TLS_CLIENT_HELLO_BYTES;
const SERVER_HELLO = TLS_SERVER_HELLO_BYTES;
/** The server's messages besides its ServerHello and its certificate chain (added for `certificate` rows). */
const SERVER_AUTH = TLS_SERVER_AUTH_EXTRA_BYTES;
const FINISHED = TLS_FINISHED_BYTES;
// TLS 1.2: RSA key exchange (a 2048-bit encrypted premaster secret, RFC 5246 §7.4.7.1), ChangeCipherSpec and Finished.
const CLIENT_KEY_EXCHANGE = 262 + 6 + 16;
const CHANGE_CIPHER_SPEC_FINISHED = 6 + 16;

export const TLS_FLIGHTS: readonly FlightRow[] = [
  { version: '1.2', side: 'client', received: '', send: 'ClientHello', bytes: CLIENT_HELLO, ready: false },
  {
    version: '1.2',
    side: 'server',
    received: 'ClientHello',
    send: 'ServerHello, Certificate, ServerHelloDone',
    bytes: SERVER_HELLO + SERVER_AUTH,
    certificate: true,
    ready: false,
  },
  {
    version: '1.2',
    side: 'client',
    received: 'ServerHello, Certificate, ServerHelloDone',
    send: 'ClientKeyExchange, ChangeCipherSpec, Finished',
    bytes: CLIENT_KEY_EXCHANGE,
    ready: false,
  },
  {
    version: '1.2',
    side: 'server',
    received: 'ClientKeyExchange, ChangeCipherSpec, Finished',
    send: 'ChangeCipherSpec, Finished',
    bytes: CHANGE_CIPHER_SPEC_FINISHED,
    ready: true,
  },
  { version: '1.2', side: 'client', received: 'ChangeCipherSpec, Finished', ready: true },
  { version: '1.3', side: 'client', received: '', send: 'ClientHello', bytes: CLIENT_HELLO, ready: false },
  {
    version: '1.3',
    side: 'server',
    received: 'ClientHello',
    send: 'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
    bytes: SERVER_HELLO + SERVER_AUTH,
    certificate: true,
    ready: false,
  },
  {
    version: '1.3',
    side: 'client',
    received: 'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
    send: 'Finished',
    bytes: FINISHED,
    ready: true,
  },
  { version: '1.3', side: 'server', received: 'Finished', ready: true },
];

function record(type: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out[0] = type;
  out[1] = 0x03;
  out[2] = 0x03;
  out[3] = payload.length >> 8;
  out[4] = payload.length & 0xff;
  out.set(payload, 5);
  return out;
}

/** A flight's record payload: the message names, then zero bytes up to `bytes`. */
function flightBytes(messages: string, bytes: number): Uint8Array {
  const name = asciiBytes(messages);
  if (name.length >= bytes) return name;
  const out = new Uint8Array(bytes);
  out.set(name);
  return out;
}

export class TlsStream implements ByteStream {
  readonly side: Side;
  readonly version: TlsVersion;
  readonly #inner: ByteStream;
  readonly #ctx: NetContext;
  #state: StreamState = 'connecting';
  #started: number | undefined;
  #buffer: Uint8Array = new Uint8Array(0);
  readonly #pending: Uint8Array[] = [];
  #closeRequested: string | undefined;
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();
  readonly #certificateChainBytes: number;

  constructor(inner: ByteStream, version: TlsVersion, ctx: NetContext, options: TlsStreamOptions = {}) {
    this.#inner = inner;
    this.#certificateChainBytes = options.certificateChainBytes ?? TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES;
    this.side = inner.side;
    this.version = version;
    this.#ctx = ctx;
    inner.onData((bytes) => this.#receive(bytes));
    inner.onClose((info) => {
      this.#state = 'closed';
      this.#closed.emit(info);
    });
    if (this.side === 'client') {
      if (inner.state === 'open') this.#step('');
      else inner.onOpen(() => this.#step(''));
    }
  }

  get connectionId(): string {
    return this.#inner.connectionId;
  }
  get state(): StreamState {
    return this.#state;
  }

  onOpen(listener: () => void): Unsubscribe {
    return this.#opened.subscribe(listener);
  }
  onData(listener: (bytes: Uint8Array) => void): Unsubscribe {
    return this.#data.subscribe(listener);
  }
  onClose(listener: (info: CloseInfo) => void): Unsubscribe {
    return this.#closed.subscribe(listener);
  }

  write(bytes: Uint8Array): void {
    if (this.#state === 'closed' || this.#closeRequested !== undefined) return;
    if (this.#state !== 'open') {
      this.#pending.push(bytes.slice());
      return;
    }
    for (let at = 0; at < bytes.length; at += MAX_RECORD) this.#inner.write(this.#protect(bytes.subarray(at, at + MAX_RECORD)));
  }

  /** An application-data record as protection would size it: zero bytes for the nonce, content type and tag. */
  #protect(plaintext: Uint8Array): Uint8Array {
    const { before, after } = TLS_RECORD_PROTECTION[this.version];
    const length = before + plaintext.length + after;
    // One allocation for the whole record (header, nonce, plaintext, trailer), as `record` would lay it out.
    const out = new Uint8Array(5 + length);
    out[0] = APPLICATION_DATA;
    out[1] = 0x03;
    out[2] = 0x03;
    out[3] = length >> 8;
    out[4] = length & 0xff;
    out.set(plaintext, 5 + before);
    if (this.version === '1.3') out[5 + before + plaintext.length] = APPLICATION_DATA; // TLSInnerPlaintext.type
    return out;
  }

  /** The plaintext of a received application-data record (`#protect` undone). */
  #unprotect(payload: Uint8Array): Uint8Array {
    const { before, after } = TLS_RECORD_PROTECTION[this.version];
    return payload.subarray(before, payload.length - after);
  }

  close(reason?: string): void {
    if (this.#state === 'open') this.#inner.close(reason);
    else this.#closeRequested = reason ?? 'closed by application';
  }

  abort(reason?: string): void {
    this.#inner.abort(reason);
  }

  #protocol(): 'tls1.2' | 'tls1.3' {
    return this.version === '1.2' ? 'tls1.2' : 'tls1.3';
  }

  #step(received: string): void {
    const row = TLS_FLIGHTS.find((r) => r.version === this.version && r.side === this.side && r.received === received);
    if (!row) {
      this.#inner.abort(`TLS ${this.version} ${this.side} did not expect "${received}" (handshake_failure)`);
      return;
    }
    this.#started ??= this.#ctx.clock.now();
    if (row.send !== undefined) {
      this.#ctx.trace.emit({ type: 'handshake', connectionId: this.connectionId, protocol: this.#protocol(), step: row.send, from: this.side });
      const bytes = (row.bytes ?? 0) + (row.certificate ? this.#certificateChainBytes : 0);
      this.#inner.write(record(HANDSHAKE, flightBytes(row.send, bytes)), 'handshake');
    }
    if (row.ready) this.#ready();
  }

  #ready(): void {
    this.#state = 'open';
    this.#ctx.trace.emit({
      type: 'tls-established',
      connectionId: this.connectionId,
      protocol: this.#protocol(),
      side: this.side,
      tlsMs: roundTime(this.#ctx.clock.now() - (this.#started ?? this.#ctx.clock.now())),
    });
    this.#opened.emit();
    for (const bytes of this.#pending.splice(0)) this.write(bytes);
    if (this.#closeRequested !== undefined) this.#inner.close(this.#closeRequested);
  }

  #receive(bytes: Uint8Array): void {
    this.#buffer = this.#buffer.length === 0 ? bytes : concatBytes([this.#buffer, bytes]);
    const out: Uint8Array[] = [];
    while (this.#buffer.length >= 5) {
      const length = (this.#buffer[3]! << 8) | this.#buffer[4]!;
      if (this.#buffer.length < 5 + length) break;
      const type = this.#buffer[0]!;
      const payload = this.#buffer.subarray(5, 5 + length);
      this.#buffer = this.#buffer.subarray(5 + length);
      if (type === HANDSHAKE && this.#state !== 'open') {
        const end = payload.indexOf(0);
        this.#step(String.fromCharCode(...(end < 0 ? payload : payload.subarray(0, end))));
      } else if (type === APPLICATION_DATA && this.#state === 'open') {
        out.push(this.#unprotect(payload));
      } else {
        this.#inner.abort(`TLS record type ${type} is not allowed now (unexpected_message, RFC 8446 §5)`);
        return;
      }
      if (this.#state === 'closed') return;
    }
    if (out.length > 0) this.#data.emit(out.length === 1 ? out[0]! : concatBytes(out));
  }
}
