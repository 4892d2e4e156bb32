/**
 * HTTP messages on HTTP/3 request streams (RFC 9114 §4): one HEADERS frame, then DATA frames, then the
 * end of the stream (FIN) ends the message. Shared by the client and the server of this model.
 *
 * - Field names are lowercase (§4.2), and the connection-specific fields of HTTP/1 (Connection,
 *   Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade) are not sent: QUIC does their jobs.
 * - Requests carry the pseudo-header fields :method, :scheme, :authority and :path (§4.3.1) instead of a
 *   request line and Host; responses carry :status (§4.3.2) and no reason phrase.
 *
 * Not modelled: trailers (a second HEADERS frame), interim (1xx) responses, CONNECT (§4.4), server push.
 */
import { decodeHttp3Frames, encodeHttp3Frames, http3Error, type Http3Frame } from './frames';
import { decodeQpack, encodeQpack, type QpackField } from './qpack';

/** RFC 9114 §4.2: these are connection-specific in HTTP/1 and malformed in HTTP/3. */
const CONNECTION_SPECIFIC = /^(connection|keep-alive|proxy-connection|transfer-encoding|upgrade|host)$/;

export interface Http3Message {
  /** Pseudo-header fields first, then the rest, all lowercase. */
  readonly fields: readonly QpackField[];
  readonly body: Uint8Array;
}

export interface EncodedMessage {
  readonly bytes: Uint8Array;
  readonly frames: readonly Http3Frame[];
  readonly fieldSectionSize: number;
}

/**
 * Lowercases names and drops fields HTTP/3 forbids; pseudo-headers go first (RFC 9114 §4.3). A field that
 * the message's own Connection header names is connection-specific too: RFC 9114 §4.2 has whoever turns
 * an HTTP/1.x-shaped message into HTTP/3 remove those as well (RFC 9110 §7.6.1).
 */
export function http3Fields(pseudo: readonly QpackField[], headers: readonly { name: string; value: string }[]): QpackField[] {
  const named = new Set<string>();
  for (const h of headers) {
    if (h.name.toLowerCase() !== 'connection') continue;
    for (const option of h.value.split(',')) named.add(option.trim().toLowerCase());
  }
  const regular = headers.map((h) => ({ name: h.name.toLowerCase(), value: h.value })).filter((h) => !CONNECTION_SPECIFIC.test(h.name) && !named.has(h.name));
  return [...pseudo, ...regular];
}

/**
 * Frames a message. `fieldSection` is the HEADERS payload when the caller encoded it already (with a QPACK
 * dynamic table, `QpackEncoder`); without it the fields are encoded static-only (`encodeQpack`).
 */
export function encodeMessage(message: Http3Message, fieldSection?: Uint8Array): EncodedMessage {
  const section = fieldSection ?? encodeQpack(message.fields).bytes;
  const frames: Http3Frame[] = [{ type: 'HEADERS', fieldSection: section }];
  if (message.body.length > 0) frames.push({ type: 'DATA', payload: message.body });
  return { bytes: encodeHttp3Frames(frames), frames, fieldSectionSize: section.length };
}

/** A request or response stream's frames, checked for their order, with its field section still encoded. */
export interface Http3FramedMessage {
  readonly frames: readonly Http3Frame[];
  /** The HEADERS payload: a QPACK field section, to decode with whichever decoder the connection keeps. */
  readonly fieldSection: Uint8Array;
  readonly body: Uint8Array;
}

/** Splits a complete request or response stream (everything up to FIN) into its frames; QPACK is left to the caller. */
export function splitMessage(stream: Uint8Array): Http3FramedMessage {
  const { frames, consumed } = decodeHttp3Frames(stream);
  if (consumed !== stream.length) throw http3Error('H3_FRAME_ERROR', 'The stream ended in the middle of a frame (RFC 9114 §7.1).', consumed);
  const known = frames.filter((f) => f.type !== 'UNKNOWN');
  const first = known[0];
  // §4.1: a message is HEADERS, then zero or more DATA; anything else on a request stream is unexpected.
  if (first?.type !== 'HEADERS') throw http3Error('H3_FRAME_UNEXPECTED', 'A request stream must start with a HEADERS frame (RFC 9114 §4.1).');
  const parts: Uint8Array[] = [];
  for (const frame of known.slice(1)) {
    if (frame.type !== 'DATA')
      throw http3Error('H3_FRAME_UNEXPECTED', `${frame.type} is not allowed after HEADERS on a request stream in this model (RFC 9114 §4.1).`);
    parts.push(frame.payload);
  }
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    body.set(p, pos);
    pos += p.length;
  }
  return { frames, fieldSection: first.fieldSection, body };
}

/** Decodes a complete request or response stream (everything up to FIN) with the static-only QPACK decoder. */
export function decodeMessage(stream: Uint8Array): Http3Message & { readonly frames: readonly Http3Frame[]; readonly fieldSectionSize: number } {
  const { frames, fieldSection, body } = splitMessage(stream);
  return { fields: decodeQpack(fieldSection).fields, body, frames, fieldSectionSize: fieldSection.length };
}

export function pseudo(fields: readonly QpackField[], name: string): string | undefined {
  return fields.find((f) => f.name === name)?.value;
}
