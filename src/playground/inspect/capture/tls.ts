/**
 * TLS in a capture: the records of each direction (RFC 8446 §5.1), the handshake messages sent in the clear
 * (ClientHello, ServerHello: versions, cipher suite, the ALPN protocols offered), and, with the secrets an
 * NSS key log gives (SSLKEYLOGFILE), TLS 1.3 records opened (AES-GCM through WebCrypto, or ChaCha20-Poly1305):
 *
 * - each direction's handshake records are protected with [sender]_handshake_traffic_secret, its
 *   application data with [sender]_application_traffic_secret_0, and each KeyUpdate (RFC 8446 §4.6.3) moves
 *   to the next secret: HKDF-Expand-Label(secret, "traffic upd", "", Hash.length) (§7.2);
 * - a record's key and IV are HKDF-Expand-Label(secret, "key" | "iv", "", length) (§7.3), its nonce the IV
 *   XOR the record's 64-bit sequence number, which starts at 0 under each key (§5.3);
 * - the additional data is the 5-byte record header (§5.2); the plaintext ends with the real content type,
 *   then any zero padding (TLSInnerPlaintext, §5.4).
 *
 * The server's EncryptedExtensions carry the ALPN protocol it chose (RFC 7301 §3.1), which says whether the
 * application data is HTTP/1.1 or HTTP/2.
 */
import { aesGcmOpen, chacha20Poly1305Open, type HkdfHash, hkdfExpandLabel, TLS_CIPHER_SUITES, TLS_HANDSHAKE_TYPES } from 'roundtrip/wire';
import type { Side, StreamChunk } from './tcp';
import { decryptTls12 } from './tls12';

export interface TlsRecord {
  readonly from: Side;
  /** Offset of the record header in its side's stream. */
  readonly offset: number;
  readonly type: number;
  readonly length: number;
  /** ms since the capture began: when its last byte was captured. */
  readonly time: number;
  /** What it is: 'handshake: ClientHello', 'application data (encrypted)', 'handshake: Finished (decrypted)'. */
  readonly what: string;
}

export interface TlsReading {
  readonly records: readonly TlsRecord[];
  /** "TLS 1.3, TLS_AES_128_GCM_SHA256, ALPN offered h2, http/1.1; ..." */
  readonly summary: string;
  readonly version?: string;
  readonly cipherSuite?: number;
  readonly clientRandom?: string;
  readonly serverRandom?: string;
  readonly sni?: string;
  readonly alpnOffered: readonly string[];
  /** The protocol the server chose (from EncryptedExtensions, so known only once decrypted). */
  readonly alpn?: string;
  /** The application data, decrypted, per side, with the time of the record that carried each piece. */
  readonly plaintext?: Readonly<Record<Side, readonly StreamChunk[]>>;
  readonly problems: readonly string[];
}

export const TLS_CONTENT_TYPES: Readonly<Record<number, string>> = Object.freeze({
  20: 'change_cipher_spec',
  21: 'alert',
  22: 'handshake',
  23: 'application data',
});

type Open = (key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array, aad: Uint8Array) => Promise<Uint8Array | null> | Uint8Array | null;

export interface Tls13Suite {
  /** The code point (RFC 8446 §B.4). */
  readonly id: number;
  /** From roundtrip/wire's TLS_CIPHER_SUITES, the one table of suite names. */
  readonly name: string;
  readonly keyLength: number;
  readonly hash: HkdfHash;
  readonly hashLength: number;
  readonly open: Open;
}

/**
 * The TLS 1.3 cipher suites this reader opens. AES-GCM goes through WebCrypto; ChaCha20-Poly1305 (RFC 8439),
 * which WebCrypto lacks, through roundtrip/wire's own.
 */
export const TLS13_SUITES: readonly Tls13Suite[] = Object.freeze([
  { id: 0x1301, name: TLS_CIPHER_SUITES[0x1301]!, keyLength: 16, hash: 'SHA-256', hashLength: 32, open: aesGcmOpen },
  { id: 0x1302, name: TLS_CIPHER_SUITES[0x1302]!, keyLength: 32, hash: 'SHA-384', hashLength: 48, open: aesGcmOpen },
  { id: 0x1303, name: TLS_CIPHER_SUITES[0x1303]!, keyLength: 32, hash: 'SHA-256', hashLength: 32, open: chacha20Poly1305Open },
]);

/** A suite's name from the one TLS name table, or its code point for one the table lacks. */
export const suiteName = (s: number) => TLS_CIPHER_SUITES[s] ?? `cipher suite 0x${s.toString(16).padStart(4, '0')}`;

// HelloRetryRequest is a ServerHello with this random (RFC 8446 §4.1.3).
const HRR_RANDOM = 'cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

/** A side's stream as one array, and the time at which each byte was captured. */
function joined(chunks: readonly StreamChunk[]): { bytes: Uint8Array; timeAt: (offset: number) => number } {
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.bytes.length, 0));
  const ends: number[] = [];
  let at = 0;
  for (const c of chunks) {
    bytes.set(c.bytes, at);
    at += c.bytes.length;
    ends.push(at);
  }
  return {
    bytes,
    timeAt: (offset) => {
      // The first chunk ending after `offset` (binary search: a long capture has thousands).
      let lo = 0;
      let hi = ends.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ends[mid]! > offset) hi = mid;
        else lo = mid + 1;
      }
      return chunks[lo]?.time ?? 0;
    },
  };
}

export interface RawRecord {
  from: Side;
  offset: number;
  type: number;
  header: Uint8Array;
  body: Uint8Array;
  time: number;
}

export function records(from: Side, chunks: readonly StreamChunk[], problems: string[]): RawRecord[] {
  const { bytes, timeAt } = joined(chunks);
  const out: RawRecord[] = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const length = (bytes[at + 3]! << 8) | bytes[at + 4]!;
    if (!TLS_CONTENT_TYPES[type] || bytes[at + 1] !== 3) {
      problems.push(
        `The ${from}'s byte ${at} starts no TLS record (content type ${type}, version ${bytes[at + 1]}.${bytes[at + 2]}): the rest of its stream is not read.`,
      );
      return out;
    }
    // A TLSCiphertext is at most 2^14 + 256 bytes (RFC 8446 §5.2).
    if (length > 16384 + 256) problems.push(`The ${from}'s record at byte ${at} is ${length} bytes, over the 16,640 RFC 8446 §5.2 allows (record_overflow).`);
    if (at + 5 + length > bytes.length) {
      problems.push(`The ${from}'s last record (at byte ${at}, ${length} bytes) is cut: the capture holds ${bytes.length - at - 5} of its bytes.`);
      return out;
    }
    out.push({ from, offset: at, type, header: bytes.subarray(at, at + 5), body: bytes.subarray(at + 5, at + 5 + length), time: timeAt(at + 4 + length) });
    at += 5 + length;
  }
  if (at < bytes.length) problems.push(`The ${from}'s stream ends inside a record header (${bytes.length - at} bytes after byte ${at}).`);
  return out;
}

/** Handshake messages in a run of handshake bytes (type, 24-bit length, body); a message may span records. */
export function* handshakeMessages(bytes: Uint8Array): Generator<{ type: number; body: Uint8Array; end: number }> {
  let at = 0;
  while (at + 4 <= bytes.length) {
    const length = (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (at + 4 + length > bytes.length) return;
    yield { type: bytes[at]!, body: bytes.subarray(at + 4, at + 4 + length), end: at + 4 + length };
    at += 4 + length;
  }
}

/** Extensions (type, length, data) from `at`, where a 2-byte total length comes first. */
function extensions(body: Uint8Array, at: number): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  if (at + 2 > body.length) return out;
  const end = Math.min(body.length, at + 2 + ((body[at]! << 8) | body[at + 1]!));
  for (let i = at + 2; i + 4 <= end; ) {
    const type = (body[i]! << 8) | body[i + 1]!;
    const length = (body[i + 2]! << 8) | body[i + 3]!;
    out.set(type, body.subarray(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return out;
}

/** ALPN's ProtocolNameList (RFC 7301 §3.1): a 2-byte length, then names each with a 1-byte length. */
function alpnNames(data: Uint8Array | undefined): string[] {
  if (!data || data.length < 2) return [];
  const names: string[] = [];
  for (let i = 2; i < data.length; ) {
    const n = data[i]!;
    names.push(new TextDecoder().decode(data.subarray(i + 1, i + 1 + n)));
    i += 1 + n;
  }
  return names;
}

interface Hello {
  clientRandom?: string;
  serverRandom?: string;
  /** TLS 1.2 and older: the ALPN protocol the ServerHello chose (TLS 1.3 puts it in EncryptedExtensions). */
  alpn?: string;
  sni?: string;
  alpnOffered: string[];
  cipherSuite?: number;
  version?: string;
  retry?: boolean;
}

function readHello(type: number, body: Uint8Array, hello: Hello): void {
  if (body.length < 38) return;
  const sessionLength = body[34]!;
  if (type === 1) {
    hello.clientRandom = hex(body.subarray(2, 34));
    let at = 35 + sessionLength;
    at += 2 + ((body[at]! << 8) | body[at + 1]!);
    at += 1 + body[at]!;
    const ext = extensions(body, at);
    hello.alpnOffered = alpnNames(ext.get(16));
    const sni = ext.get(0);
    // server_name (RFC 6066 §3): list length (2), name type (1), host name length (2), host name.
    if (sni && sni.length > 5) hello.sni = new TextDecoder().decode(sni.subarray(5, 5 + ((sni[3]! << 8) | sni[4]!)));
  } else if (type === 2) {
    hello.retry = hex(body.subarray(2, 34)) === HRR_RANDOM;
    if (!hello.retry) hello.serverRandom = hex(body.subarray(2, 34));
    const at = 35 + sessionLength;
    hello.cipherSuite = (body[at]! << 8) | body[at + 1]!;
    const ext = extensions(body, at + 3);
    const chosen = alpnNames(ext.get(16))[0];
    if (chosen) hello.alpn = chosen;
    const v = ext.get(43);
    // supported_versions in a ServerHello is the one version chosen (RFC 8446 §4.2.1); without it, TLS 1.2 or older.
    const version = v && v.length === 2 ? (v[0]! << 8) | v[1]! : (body[0]! << 8) | body[1]!;
    hello.version = version === 0x0304 ? 'TLS 1.3' : version === 0x0303 ? 'TLS 1.2' : `TLS version 0x${version.toString(16)}`;
  }
}

/** The records and what the clear handshake says, without any key. */
export function readTlsConnection(chunks: Readonly<Record<Side, readonly StreamChunk[]>>): TlsReading {
  const problems: string[] = [];
  const raw = [...records('client', chunks.client, problems), ...records('server', chunks.server, problems)].sort((a, b) => a.time - b.time);
  const hello: Hello = { alpnOffered: [] };
  const out: TlsRecord[] = [];
  let encrypted = 0;
  for (const r of raw) {
    let what = TLS_CONTENT_TYPES[r.type]!;
    if (r.type === 22) {
      const names: string[] = [];
      for (const m of handshakeMessages(r.body)) {
        readHello(m.type, m.body, hello);
        names.push(m.type === 2 && hello.retry ? 'HelloRetryRequest' : (TLS_HANDSHAKE_TYPES[m.type] ?? `type ${m.type}`));
      }
      what = `handshake: ${names.join(', ') || '(part of a message)'}`;
    } else if (r.type === 23) {
      encrypted++;
      what = 'application data (encrypted)';
    } else if (r.type === 20) what = 'change_cipher_spec (compatibility, RFC 8446 §D.4)';
    else if (r.type === 21 && r.body.length === 2) what = `alert ${r.body[0] === 2 ? 'fatal' : 'warning'} ${r.body[1]}`;
    out.push({ from: r.from, offset: r.offset, type: r.type, length: r.body.length, time: r.time, what });
  }
  const suite = hello.cipherSuite !== undefined ? suiteName(hello.cipherSuite) : undefined;
  const summary = [
    hello.version ?? 'no ServerHello captured',
    ...(suite ? [suite] : []),
    ...(hello.sni ? [`server name ${hello.sni}`] : []),
    `ALPN offered: ${hello.alpnOffered.join(', ') || 'none'}${hello.alpn ? `, ServerHello chose ${hello.alpn}` : ''}`,
    `${out.length} records, ${encrypted} of them encrypted (${hello.version === 'TLS 1.3' ? 'the TLS 1.3 handshake after ServerHello, then the application data' : 'the application data'})`,
  ].join('; ');
  return {
    records: out,
    summary,
    ...(hello.version ? { version: hello.version } : {}),
    ...(hello.cipherSuite !== undefined ? { cipherSuite: hello.cipherSuite } : {}),
    ...(hello.clientRandom ? { clientRandom: hello.clientRandom } : {}),
    ...(hello.serverRandom ? { serverRandom: hello.serverRandom } : {}),
    ...(hello.alpn ? { alpn: hello.alpn } : {}),
    ...(hello.sni ? { sni: hello.sni } : {}),
    alpnOffered: hello.alpnOffered,
    problems,
  };
}

/**
 * Whether a dropped file is an NSS key log (what SSLKEYLOGFILE makes curl, Firefox and Chrome write): its
 * first line that is not a comment is `LABEL <64 hex digits> <hex>`. The page takes such a file, dropped with
 * a capture, as the capture's key log.
 */
export function isKeyLog(text: string): boolean {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.startsWith('#'));
  return first !== undefined && /^[A-Z][A-Z_0-9]* [0-9a-fA-F]{64} [0-9a-fA-F]{32,}\s*$/.test(first);
}

/** NSS key log lines: `LABEL <client random hex> <secret hex>`; '#' starts a comment. Keyed by client random. */
export function parseKeyLog(text: string): Map<string, Map<string, Uint8Array>> {
  const out = new Map<string, Map<string, Uint8Array>>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Z_0-9]+) ([0-9a-fA-F]{64}) ([0-9a-fA-F]+)\s*$/.exec(line.trim());
    if (!m || m[3]!.length % 2) continue;
    const random = m[2]!.toLowerCase();
    if (!out.has(random)) out.set(random, new Map());
    out.get(random)!.set(
      m[1]!,
      Uint8Array.from(m[3]!.match(/../g)!, (h) => Number.parseInt(h, 16)),
    );
  }
  return out;
}

interface Keys {
  key: Uint8Array;
  iv: Uint8Array;
  seq: bigint;
  secret: Uint8Array;
}

type Suite = (typeof TLS13_SUITES)[number];

async function keysFor(secret: Uint8Array, suite: Suite): Promise<Keys> {
  const empty = new Uint8Array(0);
  return {
    key: await hkdfExpandLabel(secret, 'key', empty, suite.keyLength, suite.hash),
    iv: await hkdfExpandLabel(secret, 'iv', empty, 12, suite.hash),
    seq: 0n,
    secret,
  };
}

function nonce(keys: Keys): Uint8Array {
  const n = keys.iv.slice();
  for (let i = 0; i < 8; i++) n[11 - i]! ^= Number((keys.seq >> BigInt(8 * i)) & 0xffn);
  return n;
}

/** TLSInnerPlaintext: the content, then the real type, then zeros (RFC 8446 §5.4). */
export function unpad(inner: Uint8Array): { type: number; content: Uint8Array } | undefined {
  let i = inner.length - 1;
  while (i >= 0 && inner[i] === 0) i--;
  return i < 0 ? undefined : { type: inner[i]!, content: inner.subarray(0, i) };
}

/**
 * The reading with the records opened: each side's handshake records under its handshake traffic secret until
 * its Finished, then its application data under its traffic secrets. Fails softly: a missing secret or a record
 * whose tag does not check is named, and the rest of that side is left encrypted.
 */
export async function decryptTls(
  chunks: Readonly<Record<Side, readonly StreamChunk[]>>,
  reading: TlsReading,
  keyLog: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>,
): Promise<TlsReading> {
  const problems = [...reading.problems];
  const fail = (message: string): TlsReading => ({ ...reading, problems: [...problems, message], summary: `${reading.summary}; not decrypted: ${message}` });
  if (reading.version === 'TLS 1.2') return decryptTls12(chunks, reading, keyLog);
  if (reading.version !== 'TLS 1.3') return fail('only TLS 1.3 and 1.2 are decrypted here (this connection is neither, or its ServerHello was not captured).');
  const suite = TLS13_SUITES.find((x) => x.id === reading.cipherSuite);
  if (!suite) return fail(`${suiteName(reading.cipherSuite ?? 0)} is not decrypted here: only ${TLS13_SUITES.map((x) => x.name).join(', ')} are.`);
  const secrets = reading.clientRandom ? keyLog.get(reading.clientRandom) : undefined;
  if (!secrets)
    return fail(`the key log has no line for this connection's client random (${reading.clientRandom?.slice(0, 16) ?? '?'}…): was it written by the same run?`);
  const names = {
    client: ['CLIENT_HANDSHAKE_TRAFFIC_SECRET', 'CLIENT_TRAFFIC_SECRET_0'],
    server: ['SERVER_HANDSHAKE_TRAFFIC_SECRET', 'SERVER_TRAFFIC_SECRET_0'],
  } as const;
  const plaintext: Record<Side, StreamChunk[]> = { client: [], server: [] };
  const opened = new Map<string, string>();
  let alpn: string | undefined;
  for (const side of ['client', 'server'] as const) {
    const [hsName, appName] = names[side];
    const hs = secrets.get(hsName);
    const app = secrets.get(appName);
    if (!hs || !app) {
      problems.push(`The key log lacks ${!hs ? hsName : appName} for this connection: the ${side}'s records stay encrypted.`);
      continue;
    }
    // A traffic secret is Hash.length bytes (RFC 8446 §7.1): 48 for SHA-384 suites, 32 for SHA-256 ones.
    const short = [hs, app].find((s) => s.length !== suite.hashLength);
    if (short) {
      problems.push(
        `The key log's ${short === hs ? hsName : appName} for this connection is ${short.length} bytes, but ${suite.name} uses ${suite.hashLength}-byte secrets: the ${side}'s records stay encrypted.`,
      );
      continue;
    }
    let keys = await keysFor(hs, suite);
    let phase: 'handshake' | 'application' = 'handshake';
    let handshake = new Uint8Array(0);
    const sideProblems: string[] = [];
    for (const r of records(side, chunks[side], sideProblems)) {
      if (r.type !== 23) continue;
      const inner = await suite.open(keys.key, nonce(keys), r.body, r.header);
      if (!inner) {
        problems.push(
          `The ${side}'s record at byte ${r.offset} of its stream does not decrypt (its authentication tag does not check under the ${phase} key, record ${keys.seq} under it): the key log is not this connection's, or bytes were changed. The rest of the ${side}'s records are left encrypted.`,
        );
        break;
      }
      keys.seq++;
      const content = unpad(inner);
      if (!content) {
        problems.push(`The ${side}'s record at byte ${r.offset} decrypts to only zeros: it has no content type (RFC 8446 §5.4).`);
        break;
      }
      const key = `${side}|${r.offset}`;
      if (content.type === 23) {
        plaintext[side].push({ bytes: content.content, time: r.time });
        opened.set(key, `application data, ${content.content.length} bytes (decrypted)`);
      } else if (content.type === 21) opened.set(key, `alert ${content.content[0] === 2 ? 'fatal' : 'warning'} ${content.content[1]} (decrypted)`);
      else if (content.type === 22) {
        const all = new Uint8Array(handshake.length + content.content.length);
        all.set(handshake);
        all.set(content.content, handshake.length);
        let used = 0;
        const seen: string[] = [];
        let next: Keys | undefined;
        for (const m of handshakeMessages(all)) {
          used = m.end;
          seen.push(TLS_HANDSHAKE_TYPES[m.type] ?? `type ${m.type}`);
          if (m.type === 8) alpn = alpnNames(extensions(m.body, 0).get(16))[0];
          if (m.type === 20 && phase === 'handshake') {
            phase = 'application';
            next = await keysFor(app, suite);
          } else if (m.type === 24 && phase === 'application') {
            // KeyUpdate: this side's next records use the next generation of its traffic secret (RFC 8446 §7.2).
            next = await keysFor(await hkdfExpandLabel(keys.secret, 'traffic upd', new Uint8Array(0), suite.hashLength, suite.hash), suite);
          }
        }
        handshake = all.subarray(used);
        opened.set(key, `handshake: ${seen.join(', ') || '(part of a message)'} (decrypted)`);
        if (next) keys = next;
      }
    }
    problems.push(...sideProblems.filter((p) => !reading.problems.includes(p)));
  }
  const decrypted = opened.size;
  return {
    ...reading,
    records: reading.records.map((r) => (opened.has(`${r.from}|${r.offset}`) ? { ...r, what: opened.get(`${r.from}|${r.offset}`)! } : r)),
    summary: `${reading.summary}; ${decrypted} records decrypted with the key log${alpn ? `, ALPN chose ${alpn} (in EncryptedExtensions)` : ''}`,
    ...(alpn ? { alpn } : {}),
    plaintext,
    problems,
  };
}
