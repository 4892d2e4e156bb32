/**
 * TLS 1.2 records opened with the master secret an NSS key log gives (`CLIENT_RANDOM <client random>
 * <master secret>`), for the AEAD suites browsers and curl pick:
 *
 * - the key block is PRF(master_secret, "key expansion", server_random + client_random) (RFC 5246 §6.3), the
 *   PRF being P_SHA256, or P_SHA384 for the *_SHA384 suites (§5); AEAD suites have no MAC keys, so it holds the
 *   client's and the server's write keys, then their IVs;
 * - AES-GCM (RFC 5288 §3): a 4-byte IV from the key block, then 8 explicit bytes at the start of each record,
 *   make the nonce; ChaCha20-Poly1305 (RFC 7905 §2): a 12-byte IV XOR the 64-bit sequence number;
 * - the additional data is seq_num, type, version and the plaintext's length (RFC 5246 §6.2.3.3);
 * - each side's records are protected from its ChangeCipherSpec on, the sequence number starting at 0 there
 *   (its Finished is record 0).
 */
import { aesGcmOpen, chacha20Poly1305Open, type HkdfHash, hkdfExtract, TLS_CIPHER_SUITES, TLS_HANDSHAKE_TYPES } from 'roundtrip/wire';
import { concat } from '../bytes';
import type { Side, StreamChunk } from './tcp';
import { handshakeMessages, records, type TlsReading } from './tls';

interface Tls12Suite {
  readonly id: number;
  /** From roundtrip/wire's TLS_CIPHER_SUITES, the one table of suite names. */
  readonly name: string;
  readonly keyLength: number;
  readonly hash: HkdfHash;
  readonly aead: 'gcm' | 'chacha';
}

export const TLS12_AEAD_SUITES: readonly Tls12Suite[] = Object.freeze([
  { id: 0x009c, name: TLS_CIPHER_SUITES[0x009c]!, keyLength: 16, hash: 'SHA-256', aead: 'gcm' },
  { id: 0x009d, name: TLS_CIPHER_SUITES[0x009d]!, keyLength: 32, hash: 'SHA-384', aead: 'gcm' },
  { id: 0xc02b, name: TLS_CIPHER_SUITES[0xc02b]!, keyLength: 16, hash: 'SHA-256', aead: 'gcm' },
  { id: 0xc02c, name: TLS_CIPHER_SUITES[0xc02c]!, keyLength: 32, hash: 'SHA-384', aead: 'gcm' },
  { id: 0xc02f, name: TLS_CIPHER_SUITES[0xc02f]!, keyLength: 16, hash: 'SHA-256', aead: 'gcm' },
  { id: 0xc030, name: TLS_CIPHER_SUITES[0xc030]!, keyLength: 32, hash: 'SHA-384', aead: 'gcm' },
  { id: 0xcca8, name: TLS_CIPHER_SUITES[0xcca8]!, keyLength: 32, hash: 'SHA-256', aead: 'chacha' },
  { id: 0xcca9, name: TLS_CIPHER_SUITES[0xcca9]!, keyLength: 32, hash: 'SHA-256', aead: 'chacha' },
]);

const bytesOf = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

/** PRF(secret, label, seed) = P_hash(secret, label + seed), `length` bytes (RFC 5246 §5). HMAC is HKDF-Extract's. */
export async function tls12Prf(secret: Uint8Array, label: string, seed: Uint8Array, length: number, hash: HkdfHash): Promise<Uint8Array> {
  const labelled = concat([new TextEncoder().encode(label), seed]);
  const hmac = (data: Uint8Array) => hkdfExtract(secret, data, hash);
  const out: Uint8Array[] = [];
  let a = labelled;
  let have = 0;
  while (have < length) {
    a = await hmac(a);
    const block = await hmac(concat([a, labelled]));
    out.push(block);
    have += block.length;
  }
  return concat(out).subarray(0, length);
}

function seqBytes(seq: bigint): Uint8Array {
  const out = new Uint8Array(8);
  for (let i = 0; i < 8; i++) out[7 - i] = Number((seq >> BigInt(8 * i)) & 0xffn);
  return out;
}

export async function decryptTls12(
  chunks: Readonly<Record<Side, readonly StreamChunk[]>>,
  reading: TlsReading,
  keyLog: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>,
): Promise<TlsReading> {
  const problems = [...reading.problems];
  const fail = (message: string): TlsReading => ({ ...reading, problems: [...problems, message], summary: `${reading.summary}; not decrypted: ${message}` });
  const suite = TLS12_AEAD_SUITES.find((s) => s.id === reading.cipherSuite);
  if (!suite)
    return fail(
      `cipher suite 0x${(reading.cipherSuite ?? 0).toString(16).padStart(4, '0')} is not decrypted here: only the TLS 1.2 AEAD suites (AES-GCM, ChaCha20-Poly1305) are.`,
    );
  const master = reading.clientRandom ? keyLog.get(reading.clientRandom)?.get('CLIENT_RANDOM') : undefined;
  if (!master)
    return fail(
      `the key log has no CLIENT_RANDOM line for this connection's client random (${reading.clientRandom?.slice(0, 16) ?? '?'}…): was it written by the same run?`,
    );
  if (master.length !== 48)
    return fail(`the key log's master secret for this connection is ${master.length} bytes; a TLS 1.2 master secret is 48 (RFC 5246 §8.1).`);
  if (!reading.serverRandom) return fail('the ServerHello (and its random, which the keys depend on) was not captured.');
  const ivLength = suite.aead === 'gcm' ? 4 : 12;
  const block = await tls12Prf(
    master,
    'key expansion',
    concat([bytesOf(reading.serverRandom), bytesOf(reading.clientRandom!)]),
    2 * (suite.keyLength + ivLength),
    suite.hash,
  );
  const keys: Record<Side, { key: Uint8Array; iv: Uint8Array }> = {
    client: { key: block.subarray(0, suite.keyLength), iv: block.subarray(2 * suite.keyLength, 2 * suite.keyLength + ivLength) },
    server: { key: block.subarray(suite.keyLength, 2 * suite.keyLength), iv: block.subarray(2 * suite.keyLength + ivLength) },
  };
  const plaintext: Record<Side, StreamChunk[]> = { client: [], server: [] };
  const opened = new Map<string, string>();
  for (const side of ['client', 'server'] as const) {
    const { key, iv } = keys[side];
    let protectedNow = false;
    let seq = 0n;
    for (const r of records(side, chunks[side], [])) {
      if (r.type === 20) {
        protectedNow = true;
        continue;
      }
      if (!protectedNow) continue;
      let nonce: Uint8Array;
      let sealed: Uint8Array;
      if (suite.aead === 'gcm') {
        nonce = concat([iv, r.body.subarray(0, 8)]);
        sealed = r.body.subarray(8);
      } else {
        nonce = iv.slice();
        const s = seqBytes(seq);
        for (let i = 0; i < 8; i++) nonce[4 + i]! ^= s[i]!;
        sealed = r.body;
      }
      const length = sealed.length - 16;
      const aad = concat([seqBytes(seq), new Uint8Array([r.type, r.header[1]!, r.header[2]!, (length >> 8) & 0xff, length & 0xff])]);
      const open = suite.aead === 'gcm' ? await aesGcmOpen(key, nonce, sealed, aad) : chacha20Poly1305Open(key, nonce, sealed, aad);
      if (!open) {
        problems.push(
          `The ${side}'s record at byte ${r.offset} of its stream does not decrypt (its authentication tag does not check, record ${seq} after its ChangeCipherSpec): the key log is not this connection's, or bytes were changed. The rest of the ${side}'s records are left encrypted.`,
        );
        break;
      }
      seq++;
      const where = `${side}|${r.offset}`;
      if (r.type === 23) {
        plaintext[side].push({ bytes: open, time: r.time });
        opened.set(where, `application data, ${open.length} bytes (decrypted)`);
      } else if (r.type === 22)
        opened.set(
          where,
          `handshake: ${[...handshakeMessages(open)].map((m) => TLS_HANDSHAKE_TYPES[m.type] ?? `type ${m.type}`).join(', ') || '(part of a message)'} (decrypted)`,
        );
      else if (r.type === 21) opened.set(where, `alert ${open[0] === 2 ? 'fatal' : 'warning'} ${open[1]} (decrypted)`);
    }
  }
  return {
    ...reading,
    records: reading.records.map((r) => (opened.has(`${r.from}|${r.offset}`) ? { ...r, what: opened.get(`${r.from}|${r.offset}`)! } : r)),
    summary: `${reading.summary}; ${opened.size} records decrypted with the key log (${suite.name})`,
    plaintext,
    problems,
  };
}
