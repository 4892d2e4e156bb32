/**
 * The plaintext inside the simulator's TLS application-data records (src/wire/net/tls.ts writes zero bytes
 * where protection would put its output: TLS_RECORD_PROTECTION says how many, before and after). The records
 * of both versions say 0x0303, so the version comes from the connection's 'handshake' events.
 */
import { TLS_RECORD_PROTECTION } from 'roundtrip/wire';

export type TlsProtocol = 'tls1.2' | 'tls1.3';

/** The plaintext of one application-data record's payload (a binary string). */
export function recordPlaintext(payload: string, protocol: TlsProtocol): string {
  const { before, after } = TLS_RECORD_PROTECTION[protocol === 'tls1.2' ? '1.2' : '1.3'];
  return payload.slice(before, Math.max(before, payload.length - after));
}

/** The TLS version a 'handshake' event names, if `event` is one over TLS. */
export function tlsProtocolOf(event: { readonly type: string; readonly protocol?: string }): TlsProtocol | undefined {
  return event.type === 'handshake' && (event.protocol === 'tls1.2' || event.protocol === 'tls1.3') ? event.protocol : undefined;
}
