/**
 * Transfer codings other than chunked (RFC 9112 §6.1, RFC 9110 §8.4.1): `Transfer-Encoding: gzip, chunked`
 * means the body was gzipped, then chunked. The engine is synchronous and undoes only chunked; it marks the
 * body's data events with the codings left (DataEvent.codings), and whoever collects the body undoes them
 * with decodeTransferCodings, which uses the platform's DecompressionStream and so is asynchronous.
 */
import { concatBytes } from '../bytes';
import { WireError } from '../errors';
import { HTTP1_ERROR_CODES } from './codes';

/**
 * The codings DecompressionStream can undo, by their registered names (IANA HTTP Transfer Coding Registry):
 * gzip and its alias x-gzip (RFC 1952), and deflate, which in HTTP means the zlib format (RFC 1950), the
 * format DecompressionStream calls 'deflate'.
 */
export const DECODABLE_TRANSFER_CODINGS: readonly string[] = Object.freeze(['gzip', 'x-gzip', 'deflate']);

const FORMAT: Record<string, 'gzip' | 'deflate'> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate' };

const decodingError = (message: string): WireError =>
  new WireError({ code: 'transfer-coding-failed', side: 'remote', message, statusHint: HTTP1_ERROR_CODES['transfer-coding-failed'].status });

/** Whether every coding of the list can be undone here. */
export const canDecodeTransferCodings = (codings: readonly string[]): boolean => codings.every((c) => FORMAT[c] !== undefined);

/**
 * The note a response carries when its transfer codings cannot be undone here. RFC 9112 §6.3 rule 4: a
 * response whose final coding is not chunked (`chunked, deflate`, `identity`, `chunkedchunked`) is read until
 * the connection closes; it is framed correctly, so it is not an error, but its bytes are handed on as they
 * came, still coded. (Only a request like that is refused: a server answers 400, or 501 to a coding it does
 * not know, framing.ts.) `codings` as the body's data events list them.
 */
export const undecodedCodingsNote = (codings: readonly string[]): string => {
  const why = codings.includes('chunked')
    ? 'chunked was applied before another coding, so the body was read until the connection closed (RFC 9112 §6.3 rule 4)'
    : `${codings
        .filter((c) => FORMAT[c] === undefined)
        .map((c) => `"${c}"`)
        .join(', ')} cannot be undone here (only ${DECODABLE_TRANSFER_CODINGS.join(', ')} can, RFC 9112 §6.1)`;
  return `Transfer-Encoding: ${codings.join(', ')} was not decoded: ${why}; the body is the bytes as received.`;
};

const decompress = async (body: Uint8Array, coding: string): Promise<Uint8Array> => {
  const stream = new DecompressionStream(FORMAT[coding]!);
  const writer = stream.writable.getWriter();
  // The writes settle as the reader drains; their failure is the reader's failure, reported below.
  writer.write(body as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
  } catch {
    throw decodingError(`The body is not valid ${coding} data, though Transfer-Encoding says it is (RFC 9110 §8.4.1); it cannot be decoded.`);
  }
  return concatBytes(parts);
};

/**
 * Undoes `codings` (in the order they were applied, as Transfer-Encoding lists them, chunked excluded) on a
 * whole body. Rejects with a WireError that says which coding could not be undone and why.
 */
export const decodeTransferCodings = async (body: Uint8Array, codings: readonly string[]): Promise<Uint8Array> => {
  let out = body;
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!;
    if (FORMAT[coding] === undefined) {
      throw decodingError(
        coding === 'chunked'
          ? 'chunked was applied before another transfer coding, so the body was read until close (RFC 9112 §6.3 rule 4) and cannot be de-chunked here.'
          : `The transfer coding "${coding}" cannot be decoded here; only ${DECODABLE_TRANSFER_CODINGS.join(', ')} can (RFC 9112 §6.1).`,
      );
    }
    out = await decompress(out, coding);
  }
  return out;
};
