/**
 * Sizes of the TLS handshake messages, shared by TLS over TCP (net/tls.ts) and QUIC's handshake
 * (http3/packets.ts): neither imports the other, so the numbers live below both, and the two stacks carry
 * the same handshake bytes. No cryptography is done; these are the sizes such messages have on the wire.
 */

/** A ClientHello with one key share and SNI. */
export const TLS_CLIENT_HELLO_BYTES = 280;
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
 * The server's TLS messages are then 3,230 bytes: three TCP segments, or over QUIC three datagrams of
 * 1,452, 1,452 and 543 bytes plus its first 1-RTT packet (40), 3,487 bytes, within the 3,600 a QUIC server
 * may send before the client's address is validated, three times the client's 1,200-byte Initial (RFC 9000
 * §8.1, which the simulation does not enforce). 3,000 would pass that limit (3,687 bytes). Over TCP, TLS 1.3's
 * records add 33 bytes to them (net/tls.ts): 3,263.
 */
export const TLS_DEFAULT_CERTIFICATE_CHAIN_BYTES = 2800;
/**
 * Largest Certificate message the simulation accepts: with it the server's messages around it still fit one
 * record of at most 2^14 bytes (RFC 8446 §5.1), which TLS over TCP would otherwise split (net/tls.ts can).
 */
export const TLS_MAX_CERTIFICATE_CHAIN_BYTES = 15_000;

/** The server's full-handshake messages after its ServerHello, for a certificate chain of `chain` bytes. */
export const tlsServerAuthBytes = (chain: number): number => chain + TLS_SERVER_AUTH_EXTRA_BYTES;
