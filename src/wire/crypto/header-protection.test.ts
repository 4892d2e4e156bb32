import { describe, expect, it } from 'vitest';
import { aesEncryptBlock, aesHeaderMask, chacha20HeaderMask } from './header-protection';
import { hex, RFC9001_A1, RFC9001_A2, RFC9001_A3, RFC9001_A5, toHex } from './testing';

describe('header protection masks (RFC 9001 §5.4)', () => {
  it('AES-ECB of one block: FIPS-197 Appendix C.1 (AES-128)', async () => {
    const out = await aesEncryptBlock(hex('000102030405060708090a0b0c0d0e0f'), hex('00112233445566778899aabbccddeeff'));
    expect(toHex(out)).toBe('69c4e0d86a7b0430d8cdb78070b4c55a');
  });

  it('AES-ECB of one block: FIPS-197 Appendix C.3 (AES-256)', async () => {
    const key = hex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    expect(toHex(await aesEncryptBlock(key, hex('00112233445566778899aabbccddeeff')))).toBe('8ea2b7ca516745bfeafc49904b496089');
  });

  it('A.2 client Initial and A.3 server Initial masks (AES, §5.4.3)', async () => {
    expect(toHex(await aesHeaderMask(hex(RFC9001_A1.client.hp), hex(RFC9001_A2.sample)))).toBe(RFC9001_A2.mask);
    expect(toHex(await aesHeaderMask(hex(RFC9001_A1.server.hp), hex(RFC9001_A3.sample)))).toBe(RFC9001_A3.mask);
  });

  it('A.5 short-header mask (ChaCha20, §5.4.4)', () => {
    expect(toHex(chacha20HeaderMask(hex(RFC9001_A5.hp), hex(RFC9001_A5.sample)))).toBe(RFC9001_A5.mask);
  });

  it('refuses a sample that is not 16 bytes', async () => {
    await expect(aesHeaderMask(hex(RFC9001_A1.client.hp), new Uint8Array(15))).rejects.toMatchObject({ code: 'hp-sample-length' });
    expect(() => chacha20HeaderMask(hex(RFC9001_A5.hp), new Uint8Array(17))).toThrow(/16 bytes/);
  });
});
