/**
 * The byte-stream contract every transport in the simulator offers (TCP, TLS over TCP, a CONNECT tunnel).
 * HTTP layers are written against this and nothing else, so HTTP/2 can later run over the same sockets.
 */
import type { Unsubscribe } from '../trace/subscribable';
import type { Side } from '../trace/events';

export type StreamState = 'connecting' | 'open' | 'closing' | 'closed';

export interface CloseInfo {
  /** 'fin': an orderly close after all data; 'reset': an abort (RST) that may lose data in flight. */
  readonly how: 'fin' | 'reset';
  /** The side that initiated the close. */
  readonly by: Side;
  readonly reason: string;
}

export interface ByteStream {
  readonly connectionId: string;
  readonly side: Side;
  readonly state: StreamState;
  /**
   * Queues bytes for sending; bytes written while connecting go out once the stream is open. `kind`
   * 'handshake' marks a TLS handshake flight: TCP carries it in segments of its own that are never lost
   * (link.ts: handshakes are lossless in every stack) and counts it out of the application data.
   */
  write(bytes: Uint8Array, kind?: 'handshake'): void;
  /** Orderly close: queued bytes are still delivered, then the peer sees the close. */
  close(reason?: string): void;
  /** Abortive close (RST): the peer sees the stream end one one-way delay later. */
  abort(reason?: string): void;
  onOpen(listener: () => void): Unsubscribe;
  onData(listener: (bytes: Uint8Array) => void): Unsubscribe;
  onClose(listener: (info: CloseInfo) => void): Unsubscribe;
}

export { concatBytes } from '../bytes';

const encoder = new TextEncoder();
/** Latin-1 style encoding of HTTP/1 text (header values are octets, RFC 9110 §5.5). */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
