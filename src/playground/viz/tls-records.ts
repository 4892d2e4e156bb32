/**
 * Reading back the simulator's TLS records (src/wire/net/tls.ts), as Wireshark would with the keys:
 * - application data: the plaintext inside what protection adds (zero bytes where its output would be:
 *   TLS_RECORD_PROTECTION says how many, before and after);
 * - handshake records: the names of the messages they carry, which the simulator writes in ASCII at the start
 *   of their plaintext. Some are protected: in TLS 1.3 everything after the ServerHello is sent as
 *   application_data (outer type 23, RFC 8446 §5.2) with the real type, handshake, inside; in TLS 1.2 each
 *   side's Finished follows its ChangeCipherSpec and carries AES-GCM's explicit nonce (RFC 5246 §7.1, RFC 5288
 *   §3);
 * - ChangeCipherSpec records (type 20).
 * The records of both versions say 0x0303, so the version comes from the connection's 'handshake' events.
 */
import { TLS_RECORD_PROTECTION, parseTlsPartLabel } from 'roundtrip/wire';

export type TlsProtocol = 'tls1.2' | 'tls1.3';

const CHANGE_CIPHER_SPEC = 20;
const HANDSHAKE = 22;
const APPLICATION_DATA = 23;

/** The plaintext of one application-data record's payload (a binary string). */
export function recordPlaintext(payload: string, protocol: TlsProtocol): string {
  const { before, after } = TLS_RECORD_PROTECTION[protocol === 'tls1.2' ? '1.2' : '1.3'];
  return payload.slice(before, Math.max(before, payload.length - after));
}

/** The TLS version a 'handshake' event names, if `event` is one over TLS. */
export function tlsProtocolOf(event: { readonly type: string; readonly protocol?: string }): TlsProtocol | undefined {
  return event.type === 'handshake' && (event.protocol === 'tls1.2' || event.protocol === 'tls1.3') ? event.protocol : undefined;
}

/** What one record holds. */
export type TlsRecordContent =
  | { readonly kind: 'handshake'; readonly messages: string; readonly encrypted: boolean }
  | { readonly kind: 'change-cipher-spec' }
  | { readonly kind: 'application-data'; readonly plaintext: string }
  | { readonly kind: 'other'; readonly type: number };

/** The message names at the start of a handshake record's plaintext (zero bytes pad it to size). */
const messageNames = (plaintext: string): string => {
  const end = plaintext.indexOf('\0');
  return end === -1 ? plaintext : plaintext.slice(0, end);
};

/**
 * Reads one direction's records in order. Which records are protected handshake records is a matter of
 * state, as in TLS: in 1.2 those after this direction's ChangeCipherSpec; in 1.3 the application_data records
 * before this direction's Finished has gone. The payload may be the start of a record only (a record a proxy
 * relays segment by segment): the names are at its start.
 */
export class TlsRecordReader {
  #changedCipherSpec = false;
  #finished = false;

  read(type: number, payload: string, protocol: TlsProtocol): TlsRecordContent {
    if (type === CHANGE_CIPHER_SPEC) {
      this.#changedCipherSpec = true;
      return { kind: 'change-cipher-spec' };
    }
    if (type === HANDSHAKE) {
      const encrypted = protocol === 'tls1.2' && this.#changedCipherSpec;
      return this.#handshake(encrypted ? payload.slice(TLS_RECORD_PROTECTION['1.2'].before) : payload, encrypted);
    }
    if (type === APPLICATION_DATA) {
      if (protocol === 'tls1.3' && !this.#finished) return this.#handshake(payload, true);
      return { kind: 'application-data', plaintext: recordPlaintext(payload, protocol) };
    }
    return { kind: 'other', type };
  }

  #handshake(plaintext: string, encrypted: boolean): TlsRecordContent {
    const messages = messageNames(plaintext);
    // A record that ends the direction's part of the handshake (a group split over records names its part,
    // "... Finished (1/2)": only the last completes it), read as the engine reads it.
    const label = parseTlsPartLabel(messages);
    if (label.completes && label.messages.split(', ').includes('Finished')) this.#finished = true;
    return { kind: 'handshake', messages, encrypted };
  }
}

/** A label for a record that is not application data: "TLS ServerHello", "TLS Finished (encrypted)"... */
export function tlsRecordLabel(content: Exclude<TlsRecordContent, { kind: 'application-data' }>): string {
  switch (content.kind) {
    case 'handshake':
      return `TLS ${content.messages}${content.encrypted ? ' (encrypted)' : ''}`;
    case 'change-cipher-spec':
      return 'TLS ChangeCipherSpec';
    case 'other':
      return `TLS record type ${content.type}`;
  }
}
