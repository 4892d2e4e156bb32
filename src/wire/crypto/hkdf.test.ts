import { describe, expect, it } from 'vitest';
import { WireError } from '../errors';
import { hkdfExpand, hkdfExpandLabel, hkdfExtract, hkdfLabel } from './hkdf';
import { hex, RFC9001_A1, RFC9001_A5, RFC9001_DCID, toHex } from './testing';

const empty = new Uint8Array(0);

describe('HKDF (RFC 5869 Appendix A, SHA-256 cases)', () => {
  it('A.1: basic case', async () => {
    const ikm = new Uint8Array(22).fill(0x0b);
    const prk = await hkdfExtract(hex('000102030405060708090a0b0c'), ikm);
    expect(toHex(prk)).toBe('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5');
    const okm = await hkdfExpand(prk, hex('f0f1f2f3f4f5f6f7f8f9'), 42);
    expect(toHex(okm)).toBe('3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865');
  });

  it('A.3: empty salt and info (the salt stands for 32 zero bytes)', async () => {
    const prk = await hkdfExtract(empty, new Uint8Array(22).fill(0x0b));
    expect(toHex(prk)).toBe('19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04');
    const okm = await hkdfExpand(prk, empty, 42);
    expect(toHex(okm)).toBe('8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8');
  });

  it("refuses an output longer than 255 x HashLen as the caller's error", async () => {
    const prk = new Uint8Array(32);
    await expect(hkdfExpand(prk, empty, 255 * 32 + 1)).rejects.toMatchObject({ code: 'hkdf-length', side: 'local' });
    await expect(hkdfExpand(new Uint8Array(16), empty, 16)).rejects.toBeInstanceOf(WireError);
    // The longest output is still given, and its first block is T(1).
    const long = await hkdfExpand(prk, empty, 255 * 32);
    expect(long.length).toBe(8160);
    expect(toHex(long.subarray(0, 32))).toBe(toHex(await hkdfExpand(prk, empty, 32)));
  });

  it('SHA-384 gives 48-byte pseudorandom keys (TLS_AES_256_GCM_SHA384)', async () => {
    const prk = await hkdfExtract(empty, new Uint8Array(48), 'SHA-384');
    expect(prk.length).toBe(48);
    const okm = await hkdfExpandLabel(prk, 'key', empty, 32, 'SHA-384');
    expect(okm.length).toBe(32);
    expect(toHex(okm)).not.toBe(toHex(await hkdfExpandLabel(await hkdfExtract(empty, new Uint8Array(32)), 'key', empty, 32)));
  });
});

describe('HKDF-Expand-Label (RFC 8446 §7.1) with QUIC v1 labels (RFC 9001 Appendix A.1)', () => {
  it('builds HkdfLabel byte for byte', () => {
    expect(toHex(hkdfLabel('client in', empty, 32))).toBe(RFC9001_A1.labels['client in']);
    expect(toHex(hkdfLabel('server in', empty, 32))).toBe(RFC9001_A1.labels['server in']);
    expect(toHex(hkdfLabel('quic key', empty, 16))).toBe(RFC9001_A1.labels['quic key']);
    expect(toHex(hkdfLabel('quic iv', empty, 12))).toBe(RFC9001_A1.labels['quic iv']);
    expect(toHex(hkdfLabel('quic hp', empty, 16))).toBe(RFC9001_A1.labels['quic hp']);
    // Length 258 = 0x0102, label "tls13 x" (7 bytes), context 0xabcd (2 bytes).
    expect(toHex(hkdfLabel('x', hex('abcd'), 258))).toBe('0102' + '07746c7331332078' + '02abcd');
  });

  it('refuses a context over 255 bytes', () => {
    expect(() => hkdfLabel('key', new Uint8Array(256), 16)).toThrow(/context of at most 255/);
  });

  it('derives the Initial secrets and keys of A.1', async () => {
    const initial = await hkdfExtract(hex('38762cf7f55934b34d179ae6a4c80cadccbb7f0a'), RFC9001_DCID);
    expect(toHex(initial)).toBe(RFC9001_A1.initialSecret);
    for (const [side, label] of [
      ['client', 'client in'],
      ['server', 'server in'],
    ] as const) {
      const secret = await hkdfExpandLabel(initial, label, empty, 32);
      expect(toHex(secret)).toBe(RFC9001_A1[side].secret);
      expect(toHex(await hkdfExpandLabel(secret, 'quic key', empty, 16))).toBe(RFC9001_A1[side].key);
      expect(toHex(await hkdfExpandLabel(secret, 'quic iv', empty, 12))).toBe(RFC9001_A1[side].iv);
      expect(toHex(await hkdfExpandLabel(secret, 'quic hp', empty, 16))).toBe(RFC9001_A1[side].hp);
    }
  });

  it('derives the ChaCha20 1-RTT keys of A.5 (32-byte key and hp, and the key-update secret)', async () => {
    const secret = hex(RFC9001_A5.secret);
    expect(toHex(await hkdfExpandLabel(secret, 'quic key', empty, 32))).toBe(RFC9001_A5.key);
    expect(toHex(await hkdfExpandLabel(secret, 'quic iv', empty, 12))).toBe(RFC9001_A5.iv);
    expect(toHex(await hkdfExpandLabel(secret, 'quic hp', empty, 32))).toBe(RFC9001_A5.hp);
    expect(toHex(await hkdfExpandLabel(secret, 'quic ku', empty, 32))).toBe(RFC9001_A5.ku);
  });
});
