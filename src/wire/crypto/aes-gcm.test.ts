import { describe, expect, it } from 'vitest';
import { aesGcmOpen, aesGcmSeal } from './aes-gcm';
import { hex, RFC9001_A1, RFC9001_A3, toHex } from './testing';

const empty = new Uint8Array(0);

/** The nonce of RFC 9001 §5.3: the IV XORed with the packet number, left-padded to 12 bytes. */
function nonceFor(iv: Uint8Array, packetNumber: number): Uint8Array {
  const out = new Uint8Array(iv);
  for (let i = 11, pn = packetNumber; pn > 0; i--, pn = Math.floor(pn / 256)) out[i]! ^= pn % 256;
  return out;
}

describe('AES-GCM seal and open (RFC 5116 AEAD_AES_128_GCM)', () => {
  it("GCM test case 2 of McGrew and Viega's specification: zero key, zero IV, one zero block", async () => {
    const sealed = await aesGcmSeal(new Uint8Array(16), new Uint8Array(12), new Uint8Array(16), empty);
    expect(toHex(sealed)).toBe('0388dace60b6a392f328c2b971b2fe78' + 'ab6e47d42cec13bdf53a67b21257bddf');
  });

  it('GCM test case 4: 60 bytes of plaintext and 20 of associated data', async () => {
    const key = hex('feffe9928665731c6d6a8f9467308308');
    const iv = hex('cafebabefacedbaddecaf888');
    const aad = hex('feedfacedeadbeeffeedfacedeadbeefabaddad2');
    const plaintext = hex('d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39');
    const sealed = await aesGcmSeal(key, iv, plaintext, aad);
    expect(toHex(sealed)).toBe(
      '42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091' +
        '5bc94fbc3221a5db94fae95ae7121a47',
    );
    expect(toHex((await aesGcmOpen(key, iv, sealed, aad))!)).toBe(toHex(plaintext));
  });

  it('RFC 9001 A.3: the server Initial payload under the server key, the unprotected header as associated data', async () => {
    const key = hex(RFC9001_A1.server.key);
    const nonce = nonceFor(hex(RFC9001_A1.server.iv), 1);
    const header = hex(RFC9001_A3.unprotectedHeader);
    const packet = hex(RFC9001_A3.packet);
    const sealed = await aesGcmSeal(key, nonce, hex(RFC9001_A3.payload), header);
    expect(toHex(sealed)).toBe(toHex(packet.subarray(header.length)));
    expect(toHex((await aesGcmOpen(key, nonce, packet.subarray(header.length), header))!)).toBe(toHex(hex(RFC9001_A3.payload)));
  });

  it('open gives null, not an exception, for a flipped tag bit, other associated data, a wrong key or a short input', async () => {
    const key = hex(RFC9001_A1.server.key);
    const nonce = nonceFor(hex(RFC9001_A1.server.iv), 1);
    const header = hex(RFC9001_A3.unprotectedHeader);
    const sealed = hex(RFC9001_A3.packet).subarray(header.length);
    const flipped = new Uint8Array(sealed);
    flipped[flipped.length - 1]! ^= 0x01;
    expect(await aesGcmOpen(key, nonce, flipped, header)).toBeNull();
    expect(await aesGcmOpen(key, nonce, sealed, hex(RFC9001_A3.protectedHeader))).toBeNull();
    expect(await aesGcmOpen(hex(RFC9001_A1.client.key), nonce, sealed, header)).toBeNull();
    expect(await aesGcmOpen(key, nonce, sealed.subarray(0, 15), header)).toBeNull();
  });

  it('rejects a key or nonce of the wrong size as a caller error', async () => {
    await expect(aesGcmSeal(new Uint8Array(15), new Uint8Array(12), empty, empty)).rejects.toMatchObject({ code: 'aead-key-length' });
    await expect(aesGcmOpen(new Uint8Array(16), new Uint8Array(8), new Uint8Array(16), empty)).rejects.toMatchObject({
      code: 'aead-nonce-length',
    });
  });

  it('takes AES-256 keys (TLS_AES_256_GCM_SHA384) and round-trips', async () => {
    const key = new Uint8Array(32).fill(7);
    const nonce = new Uint8Array(12).fill(1);
    const sealed = await aesGcmSeal(key, nonce, hex('68656c6c6f'), hex('17030300'));
    expect(sealed.length).toBe(5 + 16);
    expect(toHex((await aesGcmOpen(key, nonce, sealed, hex('17030300')))!)).toBe('68656c6c6f');
  });
});
