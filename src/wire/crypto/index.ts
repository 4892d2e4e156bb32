/**
 * The cryptography of QUIC's and TLS 1.3's packet protection (curated): HKDF and HKDF-Expand-Label, and the
 * AEADs with one shape (key, nonce, plaintext or ciphertext, associated data; open gives null on a bad tag).
 */
export { aesGcmOpen, aesGcmSeal } from './aes-gcm';
export { chacha20Poly1305Open, chacha20Poly1305Seal } from './chacha20-poly1305';
export { type HkdfHash, hkdfExpand, hkdfExpandLabel, hkdfExtract } from './hkdf';
