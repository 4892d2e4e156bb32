/**
 * The production MessageCodec: src/wire/http1's incremental reader and its serializer.
 *
 * `decode*` runs a fresh Http1Reader over the connection's buffered bytes and stops at the first
 * end-of-message; the reader's offset then says how many bytes that message used. Re-reading from the
 * start of the buffer on every arrival is quadratic in the worst case, which is fine for lesson-sized
 * messages and keeps this adapter stateless.
 */
import { Http1Reader, serializeHttp1 } from '../../http1/index';
import type { Decoded, MessageCodec, ResponseContext, WireRequest, WireResponse } from '../../net/codec';
import { concatBytes } from '../../net/stream';

function decode(reads: 'request' | 'response', buffer: Uint8Array, context: ResponseContext | undefined): Decoded<WireRequest | WireResponse> {
  const reader = new Http1Reader(reads);
  reader.feed(buffer);
  if (context?.closed) reader.feedEof();
  const responseContext = context ? { method: context.requestMethod, version: context.requestVersion } : {};
  let head:
    | {
        method?: string;
        target?: string;
        version: WireRequest['version'];
        status?: number;
        reason?: string;
        headers: readonly { name: string; value: string }[];
      }
    | undefined;
  const chunks: Uint8Array[] = [];
  for (;;) {
    const step = reader.next(responseContext);
    switch (step.type) {
      case 'request':
      case 'response':
        head = step;
        break;
      case 'informational':
        return {
          kind: 'message',
          message: { version: step.version, status: step.status, reason: step.reason, headers: step.headers, body: new Uint8Array(0) },
          consumed: reader.offset,
        };
      case 'data':
        chunks.push(step.data);
        break;
      case 'end-of-message': {
        const body = chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
        const h = head!;
        const message: WireRequest | WireResponse =
          reads === 'request'
            ? { method: h.method!, target: h.target!, version: h.version, headers: h.headers, body }
            : { version: h.version, status: h.status!, reason: h.reason!, headers: h.headers, body };
        return { kind: 'message', message, consumed: reader.offset };
      }
      case 'error':
        return { kind: 'error', error: step.error };
      case 'need-data':
      case 'paused':
      case 'connection-closed':
        return { kind: 'need-more' };
    }
  }
}

export const http1Codec: MessageCodec = Object.freeze({
  encodeRequest: (request: WireRequest): Uint8Array =>
    serializeHttp1({
      kind: 'request',
      method: request.method,
      target: request.target,
      version: request.version,
      headers: [...request.headers],
      body: request.body,
    }),
  encodeResponse: (response: WireResponse, requestMethod?: string): Uint8Array =>
    serializeHttp1(
      { kind: 'response', version: response.version, status: response.status, reason: response.reason, headers: [...response.headers], body: response.body },
      requestMethod === undefined ? {} : { requestMethod },
    ),
  decodeRequest: (buffer: Uint8Array) => decode('request', buffer, undefined) as Decoded<WireRequest>,
  decodeResponse: (buffer: Uint8Array, context: ResponseContext) => decode('response', buffer, context) as Decoded<WireResponse>,
});
