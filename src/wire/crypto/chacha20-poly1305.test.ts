import { createCipheriv } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chacha20Block, chacha20Xor } from './chacha20';
import { chacha20Poly1305Open, chacha20Poly1305Seal, poly1305KeyGen } from './chacha20-poly1305';
import { poly1305 } from './poly1305';
import { hex, toHex } from './testing';

const KEY_00_1F = hex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const KEY_80_9F = hex('808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f');
const SUNSCREEN = new TextEncoder().encode(
  "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
);

describe('ChaCha20 (RFC 8439)', () => {
  it('§2.3.2: the block function', () => {
    const block = chacha20Block(KEY_00_1F, 1, hex('000000090000004a00000000'));
    expect(toHex(block)).toBe(
      '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e' + 'd2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e',
    );
  });

  it('§2.4.2: encrypting the 114-byte sunscreen text across two blocks', () => {
    const out = chacha20Xor(KEY_00_1F, 1, hex('000000000000004a00000000'), SUNSCREEN);
    expect(toHex(out)).toBe(
      '6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b' +
        'f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8' +
        '07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736' +
        '5af90bbf74a35be6b40b8eedf2785e42874d',
    );
    expect(chacha20Xor(KEY_00_1F, 1, hex('000000000000004a00000000'), out)).toEqual(SUNSCREEN);
  });

  it('refuses a wrong key size or a counter that would wrap', () => {
    expect(() => chacha20Block(new Uint8Array(16), 0, new Uint8Array(12))).toThrow(/32-byte key/);
    expect(() => chacha20Xor(KEY_00_1F, 0xffff_ffff, new Uint8Array(12), new Uint8Array(65))).toThrow(/wrap/);
  });
});

describe('Poly1305 (RFC 8439 §2.5.2, §2.6.2)', () => {
  it('tags "Cryptographic Forum Research Group"', () => {
    const key = hex('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b');
    const tag = poly1305(key, new TextEncoder().encode('Cryptographic Forum Research Group'));
    expect(toHex(tag)).toBe('a8061dc1305136c6c22b8baf0c0127a9');
  });

  it('makes the one-time key from ChaCha20 block 0', () => {
    expect(toHex(poly1305KeyGen(KEY_80_9F, hex('000000000001020304050607')))).toBe('8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646');
  });
});

describe('AEAD_CHACHA20_POLY1305 (RFC 8439 §2.8.2)', () => {
  const nonce = hex('07000000' + '4041424344454647');
  const aad = hex('50515253c0c1c2c3c4c5c6c7');
  const expected =
    'd31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6' +
    '3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36' +
    '92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc' +
    '3ff4def08e4b7a9de576d26586cec64b6116' +
    '1ae10b594f09e26a7e902ecbd0600691';

  it('seals the sunscreen text to the RFC ciphertext and tag', () => {
    expect(toHex(chacha20Poly1305Seal(KEY_80_9F, nonce, SUNSCREEN, aad))).toBe(expected);
  });

  it('opens it back, and gives null for a flipped tag bit or different associated data', () => {
    const sealed = hex(expected);
    expect(chacha20Poly1305Open(KEY_80_9F, nonce, sealed, aad)).toEqual(SUNSCREEN);
    const flipped = new Uint8Array(sealed);
    flipped[flipped.length - 16]! ^= 0x80;
    expect(chacha20Poly1305Open(KEY_80_9F, nonce, flipped, aad)).toBeNull();
    expect(chacha20Poly1305Open(KEY_80_9F, nonce, sealed, aad.subarray(1))).toBeNull();
    expect(chacha20Poly1305Open(KEY_80_9F, nonce, sealed.subarray(0, 15), aad)).toBeNull();
  });

  it("agrees with Node's OpenSSL chacha20-poly1305 on random inputs", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 40 }),
        (key, iv, plaintext, associated) => {
          const cipher = createCipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 });
          cipher.setAAD(associated, { plaintextLength: plaintext.length });
          const reference = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
          const ours = chacha20Poly1305Seal(key, iv, plaintext, associated);
          expect(toHex(ours)).toBe(reference.toString('hex'));
          expect(chacha20Poly1305Open(key, iv, ours, associated)).toEqual(plaintext);
        },
      ),
      { numRuns: 200 },
    );
  });
});
