/**
 * The TLS 1.3 handshake messages an Initial packet's CRYPTO frames carry (RFC 9001 §4: QUIC carries TLS
 * handshake messages without TLS records), read as far as a reader of a first flight wants: the
 * ClientHello's server name, ALPN protocols, versions, cipher suites, key shares and QUIC transport
 * parameters (RFC 8446 §4.1.2, RFC 6066 §3, RFC 7301 §3.1, RFC 9000 §18), and the ServerHello's choice.
 * Every length is checked against what encloses it; a message that does not fit says where, in offsets of
 * the CRYPTO stream.
 */

import { TLS_CIPHER_SUITES, TLS_EXTENSION_TYPES, TLS_HANDSHAKE_TYPES, TLS_NAMED_GROUPS } from 'roundtrip/wire';

/** QUIC transport parameters (RFC 9000 §18.2; 0x20 RFC 9221, 0x11 RFC 9368, 0x2ab2 RFC 9287). */
const TRANSPORT_PARAMETERS: Readonly<Record<number, string>> = {
  0: 'original_destination_connection_id',
  1: 'max_idle_timeout',
  2: 'stateless_reset_token',
  3: 'max_udp_payload_size',
  4: 'initial_max_data',
  5: 'initial_max_stream_data_bidi_local',
  6: 'initial_max_stream_data_bidi_remote',
  7: 'initial_max_stream_data_uni',
  8: 'initial_max_streams_bidi',
  9: 'initial_max_streams_uni',
  10: 'ack_delay_exponent',
  11: 'max_ack_delay',
  12: 'disable_active_migration',
  13: 'preferred_address',
  14: 'active_connection_id_limit',
  15: 'initial_source_connection_id',
  16: 'retry_source_connection_id',
  17: 'version_information',
  32: 'max_datagram_frame_size',
  10930: 'grease_quic_bit',
  // The codepoint drafts of version negotiation used before RFC 9368 (ngtcp2 0.12 still sends it).
  16741339: 'version_information (draft)',
};

/** Transport parameters whose value is a varint (RFC 9000 §18.2); the rest are bytes (connection IDs, tokens) or empty. */
const VARINT_PARAMETERS = new Set([0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0e, 0x20]);

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const code16 = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;
/** A reserved GREASE value (RFC 8701 §2): 0x?a?a with both bytes equal. */
const isGrease = (n: number): boolean => (n & 0x0f0f) === 0x0a0a && n >> 8 === (n & 0xff);
const named = (table: Readonly<Record<number, string>>, n: number): string => table[n] ?? (isGrease(n) ? `GREASE ${code16(n)}` : code16(n));

export interface TlsTransportParameter {
  readonly id: number;
  readonly name: string;
  /**
   * A number for the varint parameters (a decimal string past 2^53 - 1), hex for the others ('' for an empty
   * one such as disable_active_migration).
   */
  readonly value: number | string;
}

export interface TlsExtension {
  readonly type: number;
  readonly name: string;
  readonly length: number;
}

export interface TlsHelloReading {
  readonly type: 'ClientHello' | 'ServerHello';
  /** Where the message starts in the CRYPTO stream, and its length field (the body, without the 4-byte header). */
  readonly offset: number;
  readonly length: number;
  readonly random: string;
  readonly sessionId: string;
  readonly cipherSuites: readonly string[];
  readonly extensions: readonly TlsExtension[];
  readonly serverName?: string;
  readonly alpn?: readonly string[];
  readonly versions?: readonly string[];
  readonly groups?: readonly string[];
  /** The groups the key_share extension carries a key for. */
  readonly keyShares?: readonly string[];
  readonly transportParameters?: readonly TlsTransportParameter[];
}

export interface TlsMessageReading {
  readonly type: number;
  readonly name: string;
  readonly offset: number;
  readonly length: number;
  /** Whether the whole message is in the bytes given (a ClientHello may continue in the next Initial). */
  readonly complete: boolean;
  readonly hello?: TlsHelloReading;
}

class TlsReadError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A cursor over one message body; `base` turns its positions into CRYPTO stream offsets for errors. */
class Cursor {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    readonly base: number,
    from = 0,
    readonly end = bytes.length,
  ) {
    this.pos = from;
  }
  need(n: number, what: string): void {
    if (this.pos + n > this.end)
      throw new TlsReadError(
        `The ${what} at CRYPTO offset ${this.base + this.pos} needs ${n} bytes, but its enclosing field ends at ${this.base + this.end}.`,
        this.base + this.pos,
      );
  }
  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  u16(what: string): number {
    this.need(2, what);
    const v = (this.bytes[this.pos]! << 8) | this.bytes[this.pos + 1]!;
    this.pos += 2;
    return v;
  }
  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    this.pos += n;
    return this.bytes.subarray(this.pos - n, this.pos);
  }
  /** A vector with a 1- or 2-byte length (RFC 8446 §3.4), as a cursor over its contents. */
  vector(lengthBytes: 1 | 2, what: string): Cursor {
    const length = lengthBytes === 1 ? this.u8(`${what} length`) : this.u16(`${what} length`);
    this.need(length, what);
    const inner = new Cursor(this.bytes, this.base, this.pos, this.pos + length);
    this.pos += length;
    return inner;
  }
  get done(): boolean {
    return this.pos >= this.end;
  }
}

/** RFC 9000 §16 as a bigint: transport parameters may hold values up to 2^62 - 1, past a number's exact range. */
function varint(bytes: Uint8Array, pos: number, end: number): { value: bigint; next: number } | null {
  if (pos >= end) return null;
  const length = 1 << (bytes[pos]! >> 6);
  if (pos + length > end) return null;
  let value = BigInt(bytes[pos]! & 0x3f);
  for (let i = 1; i < length; i++) value = (value << 8n) | BigInt(bytes[pos + i]!);
  return { value, next: pos + length };
}

function readTransportParameters(c: Cursor): TlsTransportParameter[] {
  const out: TlsTransportParameter[] = [];
  while (!c.done) {
    const next = (what: string): number => {
      const r = varint(c.bytes, c.pos, c.end);
      if (!r || r.value > BigInt(Number.MAX_SAFE_INTEGER))
        throw new TlsReadError(`The transport parameter ${what} at CRYPTO offset ${c.base + c.pos} is cut off or too large (RFC 9000 §18).`, c.base + c.pos);
      c.pos = r.next;
      return Number(r.value);
    };
    const id = next('id');
    const length = next('length');
    const value = c.take(length, `transport parameter ${code16(id)}`);
    let shown: number | string = hex(value);
    const r = VARINT_PARAMETERS.has(id) ? varint(value, 0, value.length) : null;
    if (r && r.next === length) shown = r.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r.value) : r.value.toString();
    out.push({
      id,
      name: TRANSPORT_PARAMETERS[id] ?? (id % 31 === 27 ? `reserved 0x${id.toString(16)} (RFC 9000 §18.1)` : `0x${id.toString(16)}`),
      value: shown,
    });
  }
  return out;
}

function readHello(type: 1 | 2, body: Cursor, offset: number, length: number): TlsHelloReading {
  body.u16('legacy_version');
  const random = hex(body.take(32, 'random'));
  const session = body.vector(1, 'legacy_session_id');
  const sessionId = hex(session.take(session.end - session.pos, 'legacy_session_id'));
  const cipherSuites: string[] = [];
  if (type === 1) {
    const suites = body.vector(2, 'cipher_suites');
    while (!suites.done) cipherSuites.push(named(TLS_CIPHER_SUITES, suites.u16('cipher suite')));
    body.vector(1, 'legacy_compression_methods');
  } else {
    cipherSuites.push(named(TLS_CIPHER_SUITES, body.u16('cipher_suite')));
    body.u8('legacy_compression_method');
  }
  const extensions: TlsExtension[] = [];
  const hello: {
    serverName?: string;
    alpn?: string[];
    versions?: string[];
    groups?: string[];
    keyShares?: string[];
    transportParameters?: TlsTransportParameter[];
  } = {};
  const list = body.done ? undefined : body.vector(2, 'extensions');
  while (list && !list.done) {
    const extType = list.u16('extension type');
    const ext = list.vector(2, `extension ${named(TLS_EXTENSION_TYPES, extType)}`);
    extensions.push({ type: extType, name: named(TLS_EXTENSION_TYPES, extType), length: ext.end - ext.pos });
    switch (extType) {
      case 0: {
        // RFC 6066 §3: ServerNameList of (name_type, HostName); name_type 0 is host_name.
        if (ext.done) break;
        const names = ext.vector(2, 'server_name_list');
        while (!names.done) {
          const kind = names.u8('name_type');
          const name = names.vector(2, 'HostName');
          if (kind === 0) hello.serverName = new TextDecoder().decode(name.take(name.end - name.pos, 'HostName'));
        }
        break;
      }
      case 16: {
        // RFC 7301 §3.1: ProtocolNameList of 1-byte-length names.
        const names = ext.vector(2, 'protocol_name_list');
        hello.alpn = [];
        while (!names.done) {
          const name = names.vector(1, 'ProtocolName');
          hello.alpn.push(new TextDecoder().decode(name.take(name.end - name.pos, 'ProtocolName')));
        }
        break;
      }
      case 43: {
        // RFC 8446 §4.2.1: a list in a ClientHello, the one selected version in a ServerHello.
        const name = (v: number): string => (v === 0x0304 ? 'TLS 1.3' : v === 0x0303 ? 'TLS 1.2' : named({}, v));
        if (type === 1) {
          const versions = ext.vector(1, 'versions');
          hello.versions = [];
          while (!versions.done) hello.versions.push(name(versions.u16('version')));
        } else hello.versions = [name(ext.u16('selected_version'))];
        break;
      }
      case 10: {
        const groups = ext.vector(2, 'named_group_list');
        hello.groups = [];
        while (!groups.done) hello.groups.push(named(TLS_NAMED_GROUPS, groups.u16('named group')));
        break;
      }
      case 51: {
        // RFC 8446 §4.2.8: client_shares in a ClientHello, one server_share in a ServerHello.
        hello.keyShares = [];
        const shares = type === 1 ? ext.vector(2, 'client_shares') : ext;
        while (!shares.done) {
          const group = shares.u16('key share group');
          shares.vector(2, 'key_exchange');
          hello.keyShares.push(named(TLS_NAMED_GROUPS, group));
        }
        break;
      }
      case 57:
        hello.transportParameters = readTransportParameters(ext);
        break;
    }
  }
  return { type: type === 1 ? 'ClientHello' : 'ServerHello', offset, length, random, sessionId, cipherSuites, extensions, ...hello };
}

/**
 * The handshake messages in `crypto` (the CRYPTO stream's bytes from offset `base`): each with its type and
 * length, the Hellos read in full. A message that runs past the bytes given is listed as incomplete.
 * Throws an Error naming the CRYPTO offset for a length that does not fit inside its message.
 */
export function readTlsHandshake(crypto: Uint8Array, base = 0): TlsMessageReading[] {
  const out: TlsMessageReading[] = [];
  let pos = 0;
  while (pos + 4 <= crypto.length) {
    const type = crypto[pos]!;
    const length = (crypto[pos + 1]! << 16) | (crypto[pos + 2]! << 8) | crypto[pos + 3]!;
    const name = TLS_HANDSHAKE_TYPES[type] ?? `handshake type ${type}`;
    const complete = pos + 4 + length <= crypto.length;
    let hello: TlsHelloReading | undefined;
    if (complete && (type === 1 || type === 2)) {
      hello = readHello(type, new Cursor(crypto.subarray(pos + 4, pos + 4 + length), base + pos + 4), base + pos, length);
    }
    out.push({ type, name, offset: base + pos, length, complete, ...(hello ? { hello } : {}) });
    pos += 4 + length;
  }
  return out;
}

export { TlsReadError };
