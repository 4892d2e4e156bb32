/**
 * parseHttp1 / serializeHttp1: whole-buffer conveniences over the incremental engine, for docs, playgrounds
 * and tests. parseHttp1 feeds everything, then EOF, and collects complete messages; it stops at the first
 * error (returned, never thrown) or where the bytes stop being HTTP/1 (after 101, a 2xx to CONNECT, or a
 * request that proposes a protocol switch), returning the unparsed rest as `remaining`.
 */
import { WireError } from '../errors';
import { DECODABLE_TRANSFER_CODINGS, canDecodeTransferCodings, decodeTransferCodings, undecodedCodingsNote } from './codings';
import { localError, type Tolerated } from './codes';
import { type Header, type Http1Version, endOfMessageEvent, requestEvent, responseEvent, informationalEvent } from './events';
import { Http1Reader, type ReaderOptions } from './reader';
import { Http1Writer, concatBytes } from './writer';

export interface Http1Request {
  kind?: 'request';
  method: string;
  target: string;
  version: Http1Version;
  headers: Header[];
  body: Uint8Array;
  trailers?: Header[];
}

export interface Http1Response {
  kind?: 'response';
  version: Http1Version;
  status: number;
  reason: string;
  headers: Header[];
  body: Uint8Array;
  trailers?: Header[];
  /**
   * A response whose transfer codings cannot be undone here (`chunked, deflate`, `identity`, an unknown
   * coding): framed as RFC 9112 §6.3 says (read until close when chunked is not last), `body` holds the bytes
   * as received, and this says which codings are still applied and why.
   */
  undecoded?: { readonly codings: readonly string[]; readonly note: string };
}

export type Http1Message = Http1Request | Http1Response;

export interface ParseHttp1Options extends ReaderOptions {
  /** 'server' reads requests; 'client' reads responses. */
  role: 'server' | 'client';
  /** Method of the request the responses answer ('HEAD': no bodies; 'CONNECT': 2xx opens a tunnel). */
  requestMethod?: string;
  /** Version of that request; '0.9' means the response is a bare body with no status line. */
  requestVersion?: Http1Version;
}

export interface ParseHttp1Result {
  messages: Http1Message[];
  error?: WireError;
  /** What lenient mode let through (always empty in strict mode). */
  tolerated: Tolerated[];
  /** Bytes after a protocol switch or tunnel, which are not HTTP/1. */
  remaining?: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * A string is read one char per byte when every char fits in a byte (so error offsets are string indices,
 * and "Content-Length: 4" matches "café"); otherwise it is UTF-8 encoded.
 */
const toBytes = (input: string): Uint8Array => {
  for (let i = 0; i < input.length; i++) if (input.charCodeAt(i) > 0xff) return encoder.encode(input);
  return Uint8Array.from(input, (c) => c.charCodeAt(0));
};

/**
 * All messages in `input`. A body under transfer codings other than chunked (`Transfer-Encoding: gzip,
 * chunked`) cannot be decoded synchronously: parsing stops at that message with a 'transfer-coding-not-decoded'
 * error, and parseHttp1Async is the call that decodes it. A response under codings that cannot be decoded at
 * all keeps its bytes as received and says so in `undecoded`; otherwise coded bytes are never returned as a body.
 */
export const parseHttp1 = (input: Uint8Array | string, opts: ParseHttp1Options): ParseHttp1Result => parseMessages(input, opts, undefined);

/**
 * parseHttp1, with bodies under transfer codings decoded (gzip, x-gzip, deflate; RFC 9112 §6.1) through the
 * platform's DecompressionStream. A body that cannot be decoded ends the result there with the reason.
 */
export const parseHttp1Async = async (input: Uint8Array | string, opts: ParseHttp1Options): Promise<ParseHttp1Result> => {
  const coded: Coded[] = [];
  const result = parseMessages(input, opts, coded);
  for (const { message, codings } of coded) {
    try {
      message.body = await decodeTransferCodings(message.body, codings);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
      result.messages.length = result.messages.indexOf(message);
      result.error = e;
      delete result.remaining;
      break;
    }
  }
  return result;
};

interface Coded {
  readonly message: Http1Message;
  readonly codings: readonly string[];
}

const notDecoded = (codings: readonly string[], offset: number): WireError =>
  new WireError({
    code: 'transfer-coding-not-decoded',
    side: 'local',
    offset,
    message: canDecodeTransferCodings(codings)
      ? `The body is transfer-coded with ${codings.join(', ')} (RFC 9112 §6.1); parseHttp1 is synchronous and cannot decode it: use parseHttp1Async.`
      : `The body is transfer-coded with ${codings.join(', ')} (RFC 9112 §6.1), which cannot be decoded here (only ${DECODABLE_TRANSFER_CODINGS.join(', ')} can).`,
  });

const parseMessages = (input: Uint8Array | string, opts: ParseHttp1Options, coded: Coded[] | undefined): ParseHttp1Result => {
  const bytes = typeof input === 'string' ? toBytes(input) : input;
  const reader = new Http1Reader(opts.role === 'server' ? 'request' : 'response', opts);
  reader.feed(bytes);
  reader.feedEof();
  const messages: Http1Message[] = [];
  const result: ParseHttp1Result = { messages, tolerated: reader.ctx.tolerated };
  const context = { method: opts.requestMethod, version: opts.requestVersion };
  let current: Http1Message | undefined;
  let codings: readonly string[] | undefined;
  let chunks: Uint8Array[] = [];
  // The reader's head events carry fresh, unshared header arrays, so messages adopt them without a copy.
  for (;;) {
    const ev = reader.next(context);
    switch (ev.type) {
      case 'request':
      case 'response': {
        current =
          ev.type === 'request'
            ? { kind: 'request', method: ev.method, target: ev.target, version: ev.version, headers: ev.headers as Header[], body: EMPTY, trailers: [] }
            : { kind: 'response', version: ev.version, status: ev.status, reason: ev.reason, headers: ev.headers as Header[], body: EMPTY, trailers: [] };
        codings = reader.codings;
        if (codings !== undefined && ev.type === 'response' && !canDecodeTransferCodings(codings)) {
          // Framed correctly, just not decodable here: the bytes as received, with a note (codings.ts).
          (current as Http1Response).undecoded = Object.freeze({ codings, note: undecodedCodingsNote(codings) });
          codings = undefined;
        } else if (codings !== undefined && coded === undefined) {
          result.error = notDecoded(codings, reader.meta!.offset);
          return result;
        }
        break;
      }
      case 'informational':
        messages.push({ kind: 'response', version: ev.version, status: ev.status, reason: ev.reason, headers: [...ev.headers], body: EMPTY, trailers: [] });
        if (ev.status === 101) return withRest(result, reader);
        break;
      case 'data':
        chunks.push(ev.data);
        break;
      case 'end-of-message': {
        const msg = current!;
        msg.body = chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : concatBytes(chunks);
        msg.trailers = ev.trailers.length === 0 ? [] : [...ev.trailers];
        messages.push(msg);
        if (codings !== undefined) coded?.push({ message: msg, codings });
        chunks = [];
        current = undefined;
        const meta = reader.meta!;
        if (meta.proposesSwitch || meta.framing.kind === 'tunnel') return withRest(result, reader);
        if (!meta.persistent && hasMoreThanLineBreaks(reader)) {
          try {
            reader.ctx.violation(
              'data-after-close',
              reader.offset,
              'More bytes follow a message after which the connection closes (RFC 9112 §9.6); they would be ignored by a compliant peer.',
            );
          } catch (e) {
            result.error = e as WireError;
            return result;
          }
        }
        break;
      }
      case 'error':
        result.error = ev.error;
        return result;
      case 'connection-closed':
      case 'need-data':
      case 'paused':
        return result;
    }
  }
};

const EMPTY = new Uint8Array(0);

const withRest = (result: ParseHttp1Result, reader: Http1Reader): ParseHttp1Result => {
  const rest = reader.switchProtocols();
  if (rest.length > 0) result.remaining = rest;
  return result;
};

const hasMoreThanLineBreaks = (reader: Http1Reader): boolean => {
  const buf = reader.buffer;
  for (let i = 0; i < buf.length; i++) {
    const c = buf.at(buf.offset + i);
    if (c !== 0x0d && c !== 0x0a) return true;
  }
  return false;
};

/**
 * Bytes of one message, framed by its own header fields: with Transfer-Encoding: chunked the body goes out
 * as one chunk followed by the trailers; with Content-Length it must match exactly; a request with a body
 * and neither field is refused, since a parser would read it as the next request.
 */
export const serializeHttp1 = (message: Http1Message, opts: { requestMethod?: string } = {}): Uint8Array => {
  const writer = new Http1Writer();
  const isRequest = message.kind === 'request' || (message.kind === undefined && 'method' in message);
  let head: Uint8Array;
  if (isRequest) {
    const m = message as Http1Request;
    const ev = requestEvent({ method: m.method, target: m.target, version: m.version, headers: m.headers });
    head = writer.head(ev);
    if (writer.currentFraming.kind === 'none' && m.body.length > 0) {
      throw localError(
        'body-without-framing',
        'A request body needs Content-Length or Transfer-Encoding: chunked (RFC 9112 §6.3 step 6), or it is read as the next request.',
      );
    }
  } else {
    const m = message as Http1Response;
    const ev = m.status < 200 ? informationalEvent(m) : responseEvent(m);
    head = writer.head(ev, opts.requestMethod);
    if (ev.type === 'informational') {
      if (m.body.length > 0) throw localError('body-not-allowed', 'A 1xx response has no body (RFC 9110 §15.2).');
      return head;
    }
  }
  const body = writer.data(message.body);
  const end = writer.end(endOfMessageEvent(message.trailers ?? []));
  return concatBytes([head, body, end]);
};
