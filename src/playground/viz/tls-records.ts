/**
 * What protection adds around the plaintext of a TLS application-data record, as the simulator sizes it
 * (src/wire/net/tls.ts writes zero bytes in their place): TLS 1.3 puts the inner content type byte and a
 * 16-byte AEAD tag after the plaintext (RFC 8446 §5.2); TLS 1.2 with AES-GCM an 8-byte explicit nonce before it
 * and the tag after it (RFC 5288 §3). The records of both say 0x0303, so the version comes from the
 * connection's 'handshake' events.
 */
export type TlsProtocol = 'tls1.2' | 'tls1.3';

const PROTECTION: Readonly<Record<TlsProtocol, { readonly before: number; readonly after: number }>> = {
  'tls1.3': { before: 0, after: 1 + 16 },
  'tls1.2': { before: 8, after: 16 },
};

/** The plaintext of one application-data record's payload (a binary string). */
export function recordPlaintext(payload: string, protocol: TlsProtocol): string {
  const { before, after } = PROTECTION[protocol];
  return payload.slice(before, Math.max(before, payload.length - after));
}

/** The TLS version a 'handshake' event names, if `event` is one over TLS. */
export function tlsProtocolOf(event: { readonly type: string; readonly protocol?: string }): TlsProtocol | undefined {
  return event.type === 'handshake' && (event.protocol === 'tls1.2' || event.protocol === 'tls1.3') ? event.protocol : undefined;
}
