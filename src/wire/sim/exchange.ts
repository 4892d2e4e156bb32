/**
 * One fetch in flight: the request as the caller gave it, its progress through the agent, and how to
 * settle the caller's promise. Internal to the simulator.
 */
import { roundTime } from '../net/clock';
import type { HeaderField, WireRequest, WireResponse } from '../net/codec';

export interface Exchange {
  readonly id: string;
  readonly url: URL;
  /** Pool key: 'http://host:port' (or the proxy for plain-HTTP requests through one). */
  readonly origin: string;
  readonly method: string;
  /** Header fields from the caller, in order, before the agent adds its own. */
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array;
  readonly signal: AbortSignal | undefined;
  readonly startedAt: number;
  attempts: number;
  settled: boolean;
  queuedReported: boolean;
  dispatchedAt?: number;
  connectionId?: string;
  reused?: boolean;
  sentAt?: number;
  firstByteAt?: number;
  /** The request exactly as written on the connection. */
  wire?: WireRequest;
  /** True when this request asked for the connection to end after it. */
  lastOnConnection?: boolean;
  /** Set up cost of a new connection, known once it is ready. */
  setup?: { connect: number; ssl: number };
  serverIPAddress?: string;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: unknown) => void;
}

/** Statuses whose responses have no body in the Fetch standard ("null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Builds the real Fetch `Response` the caller receives. The fields go straight into the Response's own
 * Headers (a separate Headers object passed as init would be validated and copied a second time), and
 * the body is handed over as it is: the Fetch standard has the Response take a copy of the bytes anyway.
 */
export function toFetchResponse(exchange: Exchange, message: WireResponse): Response {
  const status = message.version === '0.9' ? 200 : message.status;
  const bodyless = exchange.method === 'HEAD' || NULL_BODY.has(status);
  // Our byte arrays are never backed by a SharedArrayBuffer, which is all the cast rules out.
  const statusText = message.version === '0.9' ? '' : message.reason;
  const init = { status: status >= 200 && status <= 599 ? status : 500 };
  // '' is the default statusText (always so over HTTP/2 and 3): leaving it out skips a ByteString check.
  const response = new Response(bodyless ? null : (message.body as Uint8Array<ArrayBuffer>), statusText === '' ? init : { ...init, statusText });
  const headers = response.headers;
  for (const h of message.headers) {
    try {
      headers.append(h.name, h.value);
    } catch {
      // A field the Fetch Headers class refuses (invalid name or value) stays visible in the trace only.
    }
  }
  Object.defineProperty(response, 'url', { value: exchange.url.href });
  return response;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * HAR-style timings with every duration rounded to whole microseconds (clock.ts `roundTime`): the times
 * they are made from are whole microseconds, but their differences can carry float noise. -1 (not
 * applicable) stays -1.
 */
export function roundTimings<const T extends Readonly<Record<string, number>>>(timings: T): T {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(timings)) out[name] = value < 0 ? value : roundTime(value);
  return out as T;
}
