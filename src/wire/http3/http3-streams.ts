/**
 * Which HTTP/3 stream is which (RFC 9000 §2.1, RFC 9114 §6): a stream id's two low bits say who opened it
 * and in which directions, our endpoints' control stream is each side's first unidirectional stream, and a
 * unidirectional stream starts with its type. Apart from http3-connection.ts because these are rules of the
 * stream ids and types, not of the engine's state (the tests name the control stream by HTTP3_CONTROL_STREAM).
 */
import type { WireRole } from '../engine';

/** RFC 9000 §2.1: the first unidirectional stream of each side, which our endpoints make their control stream. */
export const HTTP3_CONTROL_STREAM: Readonly<Record<WireRole, number>> = Object.freeze({ client: 2, server: 3 });

/** RFC 9000 §2.1: the two low bits of a stream id: 0b00 a client's bidirectional stream (a request). */
export const isRequestStream = (streamId: number): boolean => streamId % 4 === 0;
/** 0b10 / 0b11: a unidirectional stream opened by the client / the server. */
export const isUniFrom = (streamId: number, role: WireRole): boolean => streamId % 4 === (role === 'client' ? 2 : 3);

/** A unidirectional stream's first bytes: its type (one byte for the types this model opens), then `bytes`. */
export function typed(type: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + bytes.length);
  out[0] = type;
  out.set(bytes, 1);
  return out;
}
