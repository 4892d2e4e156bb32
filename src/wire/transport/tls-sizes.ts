/**
 * Sizes of the TLS handshake messages, shared by TLS over TCP (net/tls.ts) and QUIC's handshake
 * (http3/packets.ts): neither imports the other, so the numbers live below both, and the two stacks carry
 * the same handshake bytes. No cryptography is done; these are the sizes such messages have on the wire.
 */

/** A ClientHello with one X25519 key share (32 bytes) and SNI. */
export const TLS_CLIENT_HELLO_BYTES = 280;

/**
 * The key exchange a TLS 1.3 ClientHello offers (RFC 8446 §4.2.8): 'x25519mlkem768', the hybrid of ML-KEM-768
 * and X25519 that Chrome (131), Firefox (132) and Safari (iOS/macOS 26) offer by default
 * (draft-ietf-tls-ecdhe-mlkem), or 'x25519' alone, as browsers did before.
 */
export type TlsKeyShare = 'x25519mlkem768' | 'x25519';
export const TLS_DEFAULT_KEY_SHARE: TlsKeyShare = 'x25519mlkem768';
/**
 * What the hybrid key share adds to the handshake, bytes (draft-ietf-tls-ecdhe-mlkem):
 * - ClientHello: a second KeyShareEntry beside the X25519 one browsers keep offering, group 2 + length 2 + the
 *   1,216-byte share (ML-KEM-768 encapsulation key 1,184 + X25519 point 32): 1,220, so 280 + 1,220 = 1,500.
 *   (Browsers' own ClientHellos are about 1.8 KB: they also carry extensions this model leaves out.)
 * - ServerHello: its share is the 1,088-byte ML-KEM ciphertext + 32 = 1,120 bytes instead of X25519's 32, so
 *   1,088 more: 90 + 1,088 = 1,178.
 */
export const TLS_KEY_SHARE_EXTRA_BYTES: Readonly<Record<TlsKeyShare, { readonly client: number; readonly server: number }>> = {
  x25519mlkem768: { client: 2 + 2 + 1184 + 32, server: 1088 + 32 - 32 },
  x25519: { client: 0, server: 0 },
};
/** A ClientHello offering a session ticket (pre_shared_key) and early_data. */
export const TLS_RESUME_CLIENT_HELLO_BYTES = 420;
/** The ServerHello (with its key share). */
export const TLS_SERVER_HELLO_BYTES = 90;
/** The ServerHello accepting a session ticket. */
export const TLS_RESUME_SERVER_HELLO_BYTES = 130;
/**
 * The server's messages around its Certificate: EncryptedExtensions (ALPN) of about 40 bytes, a
 * CertificateVerify signed with a 2048-bit RSA key (RFC 8446 §4.4.3: 4-byte header, 2-byte scheme, 2-byte
 * length, 256-byte signature) and Finished (RFC 8446 §4.4.4: 4-byte header, 32-byte SHA-256 MAC).
 */
export const TLS_SERVER_AUTH_EXTRA_BYTES = 40 + 264 + 36;
/** A Finished message (RFC 8446 §4.4.4). */
export const TLS_FINISHED_BYTES = 36;
/** The server's messages when it resumes a session: EncryptedExtensions (early_data) and Finished. */
export const TLS_RESUME_SERVER_AUTH_BYTES = 60;
/** A NewSessionTicket (RFC 8446 §4.6.1). */
export const TLS_NEW_SESSION_TICKET_BYTES = 200;

/**
 * Default size of the server's Certificate message (RFC 8446 §4.4.2): a chain of two certificates, a leaf and
 * the intermediate that signed it, about 1.4 KB each with 2048-bit RSA keys (ECDSA chains are about 2 KB).
 * With the X25519 key share the server's TLS messages are 3,230 bytes (ServerHello 90 + 2,800 + 340); with
 * the hybrid share (the default) 4,318 (ServerHello 1,178). Anti-amplification (RFC 9000 §8.1): before the
 * client's address is validated a QUIC server sends at most three times what it received. A client Initial
 * datagram is padded to at least 1,200 bytes (RFC 9000 §14.1); the 280-byte ClientHello fits one, giving the
 * server 3,600 bytes; the 1,500-byte hybrid ClientHello takes two Initial packets, two datagrams, which gives
 * it twice that and room for the larger ServerHello. The simulation does not enforce the limit. Over TCP, TLS
 * 1.3's records add 33 bytes to the server's messages (net/tls.ts).
 */
export const TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES = 2800;
/**
 * Largest Certificate message the simulation accepts: with it the server's messages around it still fit one
 * record of at most 2^14 bytes (RFC 8446 §5.1), which TLS over TCP would otherwise split (net/tls.ts can).
 */
export const TLS_MAX_CERTIFICATE_CHAIN_BYTES = 15_000;

/** The server's full-handshake messages after its ServerHello, for a certificate chain of `chain` bytes. */
export const tlsServerAuthBytes = (chain: number): number => chain + TLS_SERVER_AUTH_EXTRA_BYTES;
