/**
 * TLS as timed flights over any ByteStream (a TCP socket or a CONNECT tunnel), with no cryptography.
 *
 * The point is the cost in round trips before the first request byte can leave:
 * - TLS 1.2 (RFC 5246 §7.3) with an ECDHE key exchange (RFC 8422): ClientHello -> ServerHello, Certificate,
 *   ServerKeyExchange, ServerHelloDone -> ClientKeyExchange, ChangeCipherSpec, Finished -> ChangeCipherSpec,
 *   Finished. Browsers use TLS False Start (RFC 7918) when the server negotiated ECDHE with an AEAD cipher
 *   (the suites modelled here): the client sends application data right after its Finished, without waiting
 *   for the server's, so it sends data after 1 RTT. `falseStart: false` waits for the server's Finished: 2 RTT.
 * - TLS 1.3 (RFC 8446 §2): ClientHello (with key_share) -> ServerHello..Finished -> Finished. The client
 *   sends its Finished and its first request together, after 1 RTT.
 *
 * The flights travel as real record framing (RFC 8446 §5.1: type, legacy version 0x0303, 16-bit length,
 * at most 2^14 bytes of plaintext), laid out as a capture shows them, so they take bandwidth like any data.
 * A record's plaintext is the names of the messages it carries in ASCII, padded with zero bytes to the size
 * such messages have on the wire (`bytes` in the table, plus the certificate chain in the server's flight):
 * the sizes QUIC's handshake uses too (transport/tls-sizes.ts, http3/packets.ts QUIC_HANDSHAKE). Where the
 * handshake is protected, the record carries what protection adds, zero bytes where the cryptography would
 * put its output:
 * - TLS 1.3 (RFC 8446 §2, §5.2): the ClientHello and the ServerHello go in plaintext handshake records (type
 *   22); the server's EncryptedExtensions, Certificate, CertificateVerify and Finished, and the client's
 *   Finished, in protected records: outer type application_data (23), then the messages, the inner content
 *   type 22 (TLSInnerPlaintext.type) and a 16-byte tag. Both sides also send the middlebox-compatibility
 *   ChangeCipherSpec record (RFC 8446 Appendix D.4: type 20, the one byte 0x01, unprotected; the server right
 *   after its ServerHello, the client before its Finished): it is optional, but OpenSSL, BoringSSL and Go send
 *   it by default, so every capture has it. A receiver drops it unread (RFC 8446 §5).
 * - TLS 1.2 (RFC 5246 §7.1, §7.4.9): everything up to ChangeCipherSpec is plaintext handshake records; the
 *   ChangeCipherSpec record (type 20, 0x01) turns protection on, so each side's Finished (4-byte header, 12
 *   bytes of verify_data) goes in a handshake record (type 22: TLS 1.2 does not hide the type) with AES-GCM's
 *   explicit nonce and tag (RFC 5288 §3): 8 + 16 + 16 = 40 bytes of payload.
 * A group of messages larger than 2^14 bytes (a large certificate chain) spans several records. QUIC carries
 * the same messages in CRYPTO frames without records (RFC 9001 §4), so TCP+TLS costs a few bytes more than
 * QUIC for the same handshake: its record headers, tags and ChangeCipherSpec records.
 * The flights are written as 'handshake' (stream.ts), each in one write: TCP never loses them, as QUIC never
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
 * every HTTP/2 frame ready at that moment), so a large body goes in full 16 KiB records.
 *
 * The handshake is a table (ARCHITECTURE.md, 'State machines are data'): each row says what a side sends
 * when it has received a given flight (its handshake messages, from however many records they came in), the
 * records it sends it as, and whether it is then ready for application data. A flight not in the table is a
 * protocol error and resets the connection.
 */
import type { NetContext } from './tcp';
import { roundTime } from './clock';
import type { Side } from '../trace/events';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { asciiBytes, concatBytes, type ByteStream, type CloseInfo, type StreamState } from './stream';
import { parseTlsPartLabel, readTlsRecords, tlsPartLabel } from './tls-records';
import {
  TLS_CLIENT_HELLO_BYTES,
  TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES,
  TLS_FINISHED_BYTES,
  TLS_SERVER_AUTH_EXTRA_BYTES,
  TLS_SERVER_HELLO_BYTES,
  TLS_DEFAULT_KEY_SHARE,
  TLS_KEY_SHARE_EXTRA_BYTES,
  type TlsKeyShare,
} from '../transport/tls-sizes';

export type TlsVersion = '1.2' | '1.3';

const HANDSHAKE = 22;
const CHANGE_CIPHER_SPEC = 20;
const APPLICATION_DATA = 23;
/** The AEAD tag (AES-GCM, ChaCha20-Poly1305: 16 bytes), after TLS 1.3's inner content type. */
const TAG = 16;
const MAX_RECORD = 16384;
/**
 * What protection puts around an application-data record's plaintext, in bytes: before it, TLS 1.2 AES-GCM's
 * explicit nonce (RFC 5288 §3); after it, TLS 1.3's inner content type byte (RFC 8446 §5.2) and the 16-byte
 * AEAD tag. The views that read records back (the playground's Messages and Sequence) use this table too.
 */
export const TLS_RECORD_PROTECTION: Readonly<Record<TlsVersion, { readonly before: number; readonly after: number }>> = {
  '1.3': { before: 0, after: 1 + TAG },
  '1.2': { before: 8, after: TAG },
};
/** The largest plaintext one record carries (RFC 8446 §5.1, RFC 5246 §6.2.1). */
export const TLS_MAX_RECORD_PLAINTEXT = MAX_RECORD;

/** One record a flight is written as. */
interface FlightRecord {
  /** 'change_cipher_spec' is one byte, 0x01 (RFC 5246 §7.1); the others carry handshake messages. */
  readonly type: 'handshake' | 'change_cipher_spec';
  /** The handshake messages the record carries, comma-separated (its payload starts with them in ASCII). */
  readonly messages?: string;
  /** Size of those messages on the wire, bytes (record header and protection aside), the certificate chain aside. */
  readonly bytes?: number;
  /** The record carries the server's Certificate (RFC 8446 §4.4.2): the chain's size is added to `bytes`. */
  readonly certificate?: boolean;
  /** Sent under the handshake's keys: TLS 1.3 hides it as application_data, TLS 1.2 adds nonce and tag. */
  readonly protected?: boolean;
  /** The record carries a key share: what the key exchange adds is added to `bytes` (TLS_KEY_SHARE_EXTRA_BYTES). */
  readonly keyShare?: 'client' | 'server';
}

interface FlightRow {
  readonly version: TlsVersion;
  readonly side: Side;
  /** The flight received, its handshake messages in order; '' is the start (the client speaks first). */
  readonly received: string;
  /** The flight sent, as its 'handshake' trace event names it. */
  readonly send?: string;
  /** The records `send` is written as, in order. */
  readonly records?: readonly FlightRecord[];
  /** After this row the handshake is complete, and the side may send and receive application data. */
  readonly ready: boolean;
  /**
   * With False Start (RFC 7918 §3: ECDHE and an AEAD cipher), the client may send application data after this
   * row, before the handshake is complete.
   */
  readonly falseStart?: boolean;
}

export interface TlsStreamOptions {
  /** Server: size of its Certificate message, bytes. Default TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES (2,800). */
  readonly certificateChainBytes?: number;
  /**
   * The key exchange the ClientHello offers and, in TLS 1.3, the ServerHello answers (RFC 8446 §4.2.8).
   * Default TLS_DEFAULT_KEY_SHARE, X25519MLKEM768 as browsers offer it. A TLS 1.2 ServerHello has no key
   * share (its ECDHE point is in ServerKeyExchange), but the ClientHello is the same: it offers TLS 1.3 too.
   */
  readonly keyShare?: TlsKeyShare;
  /**
   * Client, TLS 1.2: send application data right after the client's Finished, without waiting for the
   * server's (TLS False Start, RFC 7918), as Chrome, Firefox and Safari do when the server negotiated ECDHE
   * with an AEAD cipher, which the handshake modelled here is: 1 RTT instead of 2. Default true.
   */
  readonly falseStart?: boolean;
}

// Sizes shared with QUIC's handshake (transport/tls-sizes.ts).
const CLIENT_HELLO = TLS_CLIENT_HELLO_BYTES;
const SERVER_HELLO = TLS_SERVER_HELLO_BYTES;
/** The server's messages besides its ServerHello and its certificate chain (added for `certificate` records). */
const SERVER_AUTH = TLS_SERVER_AUTH_EXTRA_BYTES;
const FINISHED = TLS_FINISHED_BYTES;
// TLS 1.2 as browsers negotiate it: ECDHE_RSA with AES-GCM (the suite Chrome's TLS guidance recommends to sites)
// and X25519, not RSA key exchange, which has no forward secrecy and which the IETF is deprecating for TLS 1.2
// (draft-ietf-tls-deprecate-obsolete-kex):
// - ServerKeyExchange (RFC 8422 §5.4): 4-byte header; ServerECDHParams: curve type 1, named curve 2, point
//   length 1, X25519 point 32; then the signature: algorithm 2, length 2, 2048-bit RSA signature 256.
// - ServerHelloDone (RFC 5246 §7.4.5): its 4-byte header alone.
// - ClientKeyExchange (RFC 8422 §5.7): 4-byte header, point length 1, the client's X25519 point 32.
// - Finished (RFC 5246 §7.4.9): 4-byte header, 12 bytes of verify_data.
const SERVER_KEY_EXCHANGE = 4 + (1 + 2 + 1 + 32) + (2 + 2 + 256);
const SERVER_HELLO_DONE = 4;
const CLIENT_KEY_EXCHANGE = 4 + 1 + 32;
const FINISHED_1_2 = 4 + 12;

const CHANGE_CIPHER_SPEC_RECORD: FlightRecord = { type: 'change_cipher_spec', messages: 'ChangeCipherSpec' };

export const TLS_FLIGHTS: readonly FlightRow[] = [
  {
    version: '1.2',
    side: 'client',
    received: '',
    send: 'ClientHello',
    records: [{ type: 'handshake', messages: 'ClientHello', bytes: CLIENT_HELLO, keyShare: 'client' }],
    ready: false,
  },
  {
    version: '1.2',
    side: 'server',
    received: 'ClientHello',
    send: 'ServerHello, Certificate, ServerKeyExchange, ServerHelloDone',
    records: [
      {
        type: 'handshake',
        messages: 'ServerHello, Certificate, ServerKeyExchange, ServerHelloDone',
        bytes: SERVER_HELLO + SERVER_KEY_EXCHANGE + SERVER_HELLO_DONE,
        certificate: true,
      },
    ],
    ready: false,
  },
  {
    version: '1.2',
    side: 'client',
    received: 'ServerHello, Certificate, ServerKeyExchange, ServerHelloDone',
    send: 'ClientKeyExchange, ChangeCipherSpec, Finished',
    records: [
      { type: 'handshake', messages: 'ClientKeyExchange', bytes: CLIENT_KEY_EXCHANGE },
      CHANGE_CIPHER_SPEC_RECORD,
      { type: 'handshake', messages: 'Finished', bytes: FINISHED_1_2, protected: true },
    ],
    ready: false,
    falseStart: true,
  },
  {
    version: '1.2',
    side: 'server',
    received: 'ClientKeyExchange, ChangeCipherSpec, Finished',
    send: 'ChangeCipherSpec, Finished',
    records: [CHANGE_CIPHER_SPEC_RECORD, { type: 'handshake', messages: 'Finished', bytes: FINISHED_1_2, protected: true }],
    ready: true,
  },
  { version: '1.2', side: 'client', received: 'ChangeCipherSpec, Finished', ready: true },
  {
    version: '1.3',
    side: 'client',
    received: '',
    send: 'ClientHello',
    records: [{ type: 'handshake', messages: 'ClientHello', bytes: CLIENT_HELLO, keyShare: 'client' }],
    ready: false,
  },
  {
    version: '1.3',
    side: 'server',
    received: 'ClientHello',
    send: 'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
    records: [
      { type: 'handshake', messages: 'ServerHello', bytes: SERVER_HELLO, keyShare: 'server' },
      CHANGE_CIPHER_SPEC_RECORD,
      {
        type: 'handshake',
        messages: 'EncryptedExtensions, Certificate, CertificateVerify, Finished',
        bytes: SERVER_AUTH,
        certificate: true,
        protected: true,
      },
    ],
    ready: false,
  },
  {
    version: '1.3',
    side: 'client',
    received: 'ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished',
    send: 'Finished',
    records: [CHANGE_CIPHER_SPEC_RECORD, { type: 'handshake', messages: 'Finished', bytes: FINISHED, protected: true }],
    ready: true,
  },
  { version: '1.3', side: 'server', received: 'Finished', ready: true },
];

/** The handshake messages a flight name lists, in order ('' lists none). */
const messagesOf = (flight: string): readonly string[] => (flight === '' ? [] : flight.split(', '));

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

/**
 * A protected record as AEAD protection sizes it, with zero bytes for the nonce and tag. TLS 1.3 (RFC 8446
 * §5.2): outer type application_data, the real type (`type`) as TLSInnerPlaintext.type after the plaintext.
 * TLS 1.2 AES-GCM (RFC 5288 §3): the real type stays in the header, the explicit nonce goes before.
 */
function protectedRecord(version: TlsVersion, type: number, plaintext: Uint8Array): Uint8Array {
  const { before, after } = TLS_RECORD_PROTECTION[version];
  const length = before + plaintext.length + after;
  // One allocation for the whole record (header, nonce, plaintext, trailer), as `record` would lay it out.
  const out = new Uint8Array(5 + length);
  out[0] = version === '1.3' ? APPLICATION_DATA : type;
  out[1] = 0x03;
  out[2] = 0x03;
  out[3] = length >> 8;
  out[4] = length & 0xff;
  out.set(plaintext, 5 + before);
  if (version === '1.3') out[5 + before + plaintext.length] = type; // TLSInnerPlaintext.type
  return out;
}

/**
 * A record's plaintext: its message names, then zero bytes up to `bytes`. A group of messages larger than a
 * record is cut into records of 2^14 bytes, each named with its part, "Certificate (1/2)", "Certificate (2/2)":
 * the receiver has the messages once the last part is in.
 */
function recordPlaintexts(messages: string, bytes: number): Uint8Array[] {
  const parts = Math.max(1, Math.ceil(bytes / MAX_RECORD));
  const out: Uint8Array[] = [];
  for (let i = 0; i < parts; i++) {
    const name = asciiBytes(tlsPartLabel(messages, i + 1, parts));
    const size = Math.min(MAX_RECORD, bytes - i * MAX_RECORD);
    if (name.length >= size) out.push(name);
    else {
      const plaintext = new Uint8Array(size);
      plaintext.set(name);
      out.push(plaintext);
    }
  }
  return out;
}

/** The messages a handshake record's plaintext completes: none for a part before the last. */
function completedMessages(plaintext: Uint8Array): readonly string[] {
  const end = plaintext.indexOf(0);
  const { messages, completes } = parseTlsPartLabel(String.fromCharCode(...(end < 0 ? plaintext : plaintext.subarray(0, end))));
  return completes ? messagesOf(messages) : [];
}

export class TlsStream implements ByteStream {
  readonly side: Side;
  readonly version: TlsVersion;
  readonly #inner: ByteStream;
  readonly #ctx: NetContext;
  #state: StreamState = 'connecting';
  #started: number | undefined;
  #buffer: Uint8Array = new Uint8Array(0);
  /** The handshake messages of the peer's flight received so far. */
  readonly #flight: string[] = [];
  /** TLS 1.2: the peer's ChangeCipherSpec has come, its records are protected from here on. */
  #peerProtected = false;
  readonly #pending: Uint8Array[] = [];
  #closeRequested: string | undefined;
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();
  readonly #certificateChainBytes: number;
  readonly #keyShare: TlsKeyShare;
  readonly #falseStart: boolean;
  /** The handshake's last row has run (with False Start the client is open before this). */
  #handshakeDone = false;

  constructor(inner: ByteStream, version: TlsVersion, ctx: NetContext, options: TlsStreamOptions = {}) {
    this.#inner = inner;
    this.#certificateChainBytes = options.certificateChainBytes ?? TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES;
    this.#keyShare = options.keyShare ?? TLS_DEFAULT_KEY_SHARE;
    this.#falseStart = options.falseStart ?? true;
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
    return protectedRecord(this.version, APPLICATION_DATA, plaintext);
  }

  /** The plaintext of a received protected record (`protectedRecord` undone). */
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
      // The flight's records go in one write, as one flight went before records were split out of it.
      this.#inner.write(concatBytes((row.records ?? []).flatMap((r) => this.#records(r))), 'handshake');
    }
    if (row.ready) this.#handshakeDone = true;
    if ((row.ready || (row.falseStart === true && this.#falseStart)) && this.#state !== 'open') this.#ready();
  }

  #records(spec: FlightRecord): Uint8Array[] {
    if (spec.type === 'change_cipher_spec') return [record(CHANGE_CIPHER_SPEC, Uint8Array.of(1))];
    const bytes =
      (spec.bytes ?? 0) + (spec.certificate ? this.#certificateChainBytes : 0) + (spec.keyShare ? TLS_KEY_SHARE_EXTRA_BYTES[this.#keyShare][spec.keyShare] : 0);
    return recordPlaintexts(spec.messages ?? '', bytes).map((plaintext) =>
      spec.protected ? protectedRecord(this.version, HANDSHAKE, plaintext) : record(HANDSHAKE, plaintext),
    );
  }

  /**
   * A handshake message the peer's flight brought: the flight is whole when its messages are a row's
   * `received`; messages no row starts with end the handshake.
   */
  #handshakeMessages(messages: readonly string[]): void {
    if (messages.length === 0) return;
    this.#flight.push(...messages);
    const rows = TLS_FLIGHTS.filter((r) => r.version === this.version && r.side === this.side && r.received !== '');
    const whole = rows.find((r) => r.received === this.#flight.join(', '));
    if (whole) {
      this.#step(this.#flight.splice(0).join(', '));
      return;
    }
    const starts = rows.some((r) => {
      const expected = messagesOf(r.received);
      return this.#flight.every((m, i) => expected[i] === m);
    });
    if (!starts) this.#step(this.#flight.splice(0).join(', ')); // not a row: #step aborts, naming what came
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
    const buffer = this.#buffer;
    for (const { type, payloadStart, end } of readTlsRecords(buffer, { completeOnly: true })) {
      const payload = buffer.subarray(payloadStart, end);
      this.#buffer = buffer.subarray(end);
      if (type === HANDSHAKE && !this.#handshakeDone) {
        // TLS 1.2 keeps the record type in clear; after the peer's ChangeCipherSpec its records are protected
        // (RFC 5246 §7.1): its Finished comes with an explicit nonce and a tag.
        this.#handshakeMessages(completedMessages(this.#peerProtected ? this.#unprotect(payload) : payload));
      } else if (type === CHANGE_CIPHER_SPEC && !this.#handshakeDone && payload.length === 1 && payload[0] === 1) {
        // TLS 1.2: a message of the flight, which turns protection on (RFC 5246 §7.1). TLS 1.3: the
        // middlebox-compatibility record, dropped unread (RFC 8446 §5, Appendix D.4).
        if (this.version === '1.2') {
          this.#peerProtected = true;
          this.#handshakeMessages(['ChangeCipherSpec']);
        }
      } else if (type === APPLICATION_DATA && this.version === '1.3' && !this.#handshakeDone) {
        // TLS 1.3 hides the handshake after ServerHello in application_data records (RFC 8446 §5.2); the
        // real type is the last byte before the tag (TLSInnerPlaintext.type).
        const inner = payload[payload.length - 1 - TAG];
        if (inner !== HANDSHAKE) {
          this.#inner.abort(`TLS 1.3 protected record of inner type ${inner} before the handshake is done (unexpected_message, RFC 8446 §5)`);
          return;
        }
        this.#handshakeMessages(completedMessages(this.#unprotect(payload)));
      } else if (type === APPLICATION_DATA && this.#state === 'open') {
        out.push(this.#unprotect(payload));
      } else {
        const section = this.version === '1.3' ? 'RFC 8446 §5' : 'RFC 5246 §7.2.2';
        this.#inner.abort(`TLS record type ${type} is not allowed now (unexpected_message, ${section})`);
        return;
      }
      if (this.#state === 'closed') return;
    }
    if (out.length > 0) this.#data.emit(out.length === 1 ? out[0]! : concatBytes(out));
  }
}
