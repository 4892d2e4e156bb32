/**
 * The seam between the network layers (client agent, proxy, mock server) and an HTTP/1 message engine.
 *
 * The layers here only move messages; framing rules live in the engine (src/wire/http1). They speak to
 * it through this small interface so that (a) the network code stays independent of the parser's
 * internals and (b) tests can exercise connection management with a deliberately tiny codec.
 *
 * `decode*` looks at the start of a connection's receive buffer and returns one complete message and
 * how many bytes it used, or says it needs more bytes. Responses need context the bytes do not carry:
 * the request method (a HEAD response has no body, RFC 9112 §6.3 rule 1), the request version (HTTP/0.9
 * responses have no status line at all) and whether the connection has closed (a response without
 * Content-Length or chunked coding ends at close, RFC 9112 §6.3 rule 8).
 */
import { sameFieldName } from '../data/headers';
import type { WireError } from '../errors';

export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

export type Http1Version = '0.9' | '1.0' | '1.1';

export interface WireRequest {
  readonly method: string;
  readonly target: string;
  readonly version: Http1Version;
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array;
}

export interface WireResponse {
  readonly version: Http1Version;
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array;
}

export type Decoded<T> =
  | { readonly kind: 'message'; readonly message: T; readonly consumed: number }
  | { readonly kind: 'need-more' }
  | { readonly kind: 'error'; readonly error: WireError };

export interface ResponseContext {
  readonly requestMethod: string;
  readonly requestVersion: Http1Version;
  /** True once the peer has closed: whatever is buffered is all there will be. */
  readonly closed: boolean;
}

export interface MessageCodec {
  encodeRequest(request: WireRequest): Uint8Array;
  /** `requestMethod` matters for HEAD (Content-Length without a body) and CONNECT. */
  encodeResponse(response: WireResponse, requestMethod?: string): Uint8Array;
  decodeRequest(buffer: Uint8Array): Decoded<WireRequest>;
  decodeResponse(buffer: Uint8Array, context: ResponseContext): Decoded<WireResponse>;
}

// --- header helpers shared by the agent, the proxy and the server ---------------------------------

export function headerValues(headers: readonly HeaderField[], name: string): string[] {
  const lower = name.toLowerCase();
  const out: string[] = [];
  for (const h of headers) if (sameFieldName(h.name, lower)) out.push(h.value);
  return out;
}

/**
 * The field's value, its lines joined with ", " (RFC 9110 §5.3), or undefined. A loop rather than
 * headerValues: it runs several times per simulated request, and most lookups find one line or none.
 */
export function header(headers: readonly HeaderField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  let value: string | undefined;
  for (const h of headers) {
    if (sameFieldName(h.name, lower)) value = value === undefined ? h.value : `${value}, ${h.value}`;
  }
  return value;
}

/** Lowercased comma-separated tokens of every field line with this name (e.g. Connection options). */
export function headerTokens(headers: readonly HeaderField[], name: string): string[] {
  return headerValues(headers, name)
    .flatMap((v) => v.split(','))
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t.length > 0);
}

/** Parses `Keep-Alive: timeout=5, max=100` (RFC 2068 §19.7.1.1; not in RFC 9112). */
export function keepAliveParams(headers: readonly HeaderField[]): { timeout?: number; max?: number } {
  const out: { timeout?: number; max?: number } = {};
  for (const token of headerTokens(headers, 'keep-alive')) {
    const [key, raw] = token.split('=').map((s) => s.trim());
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) continue;
    if (key === 'timeout') out.timeout = value;
    if (key === 'max') out.max = value;
  }
  return out;
}

export function startLine(message: WireRequest | WireResponse): string {
  if ('method' in message) {
    return message.version === '0.9' ? `${message.method} ${message.target}` : `${message.method} ${message.target} HTTP/${message.version}`;
  }
  return message.version === '0.9' ? '(HTTP/0.9 response: no status line)' : `HTTP/${message.version} ${message.status} ${message.reason}`;
}
