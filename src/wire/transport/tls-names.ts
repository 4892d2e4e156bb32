/**
 * The names of TLS code points, the one copy every reader of TLS bytes uses: the Inspector's readers of a
 * QUIC Initial's CRYPTO frames (playground/inspect/quic-tls.ts) and of TLS records in a capture
 * (playground/inspect/capture/tls.ts, tls12.ts). They live here, below net/ (TLS over TCP) and http3/ (TLS in
 * QUIC), for the reason tls-sizes.ts does: neither of those may import the other. Values not listed are left
 * to the reader to print (as a number, or as GREASE).
 */

/** RFC 8446 §4 HandshakeType: the TLS 1.3 messages (§B.3). */
export const TLS_HANDSHAKE_TYPES: Readonly<Record<number, string>> = Object.freeze({
  1: 'ClientHello',
  2: 'ServerHello',
  4: 'NewSessionTicket',
  5: 'EndOfEarlyData',
  8: 'EncryptedExtensions',
  11: 'Certificate',
  13: 'CertificateRequest',
  15: 'CertificateVerify',
  20: 'Finished',
  24: 'KeyUpdate',
});

/**
 * Cipher suites: TLS 1.3's (RFC 8446 §B.4), then the TLS 1.2 AEAD suites browsers and curl pick (AES-GCM,
 * RFC 5288 §3 and RFC 5289 §3.2; ChaCha20-Poly1305, RFC 7905 §2).
 */
export const TLS_CIPHER_SUITES: Readonly<Record<number, string>> = Object.freeze({
  4865: 'TLS_AES_128_GCM_SHA256',
  4866: 'TLS_AES_256_GCM_SHA384',
  4867: 'TLS_CHACHA20_POLY1305_SHA256',
  4868: 'TLS_AES_128_CCM_SHA256',
  4869: 'TLS_AES_128_CCM_8_SHA256',
  156: 'TLS_RSA_WITH_AES_128_GCM_SHA256',
  157: 'TLS_RSA_WITH_AES_256_GCM_SHA384',
  49195: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  49196: 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  49199: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  49200: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  52392: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  52393: 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
});

/** Named groups (RFC 8446 §4.2.7, RFC 7919 for ffdhe; X25519MLKEM768 from the IANA TLS registry). */
export const TLS_NAMED_GROUPS: Readonly<Record<number, string>> = Object.freeze({
  23: 'secp256r1',
  24: 'secp384r1',
  25: 'secp521r1',
  29: 'x25519',
  30: 'x448',
  256: 'ffdhe2048',
  257: 'ffdhe3072',
  258: 'ffdhe4096',
  4588: 'X25519MLKEM768',
});

/** Extension types (RFC 8446 §4.2 and the RFCs it lists; 11 RFC 8422, 22 RFC 7366, 57 RFC 9001 §8.2). */
export const TLS_EXTENSION_TYPES: Readonly<Record<number, string>> = Object.freeze({
  0: 'server_name',
  1: 'max_fragment_length',
  5: 'status_request',
  10: 'supported_groups',
  11: 'ec_point_formats',
  13: 'signature_algorithms',
  14: 'use_srtp',
  15: 'heartbeat',
  16: 'application_layer_protocol_negotiation',
  18: 'signed_certificate_timestamp',
  19: 'client_certificate_type',
  20: 'server_certificate_type',
  21: 'padding',
  22: 'encrypt_then_mac',
  23: 'extended_master_secret',
  27: 'compress_certificate',
  28: 'record_size_limit',
  35: 'session_ticket',
  41: 'pre_shared_key',
  42: 'early_data',
  43: 'supported_versions',
  44: 'cookie',
  45: 'psk_key_exchange_modes',
  47: 'certificate_authorities',
  48: 'oid_filters',
  49: 'post_handshake_auth',
  50: 'signature_algorithms_cert',
  51: 'key_share',
  57: 'quic_transport_parameters',
  65281: 'renegotiation_info',
});
