/**
 * A Request that is built only if the handler looks past its method and URL.
 *
 * Why: on Node a Fetch `Request` (undici) costs more than the rest of a routed HTTP/1.1 exchange through the
 * engine: URL parsing, WebIDL checks on every header field, an AbortSignal with its cleanup registration.
 * Measured on `npm run serve`'s `GET /todos/1` (h2load, 10 connections, loopback): about 34,000 requests a
 * second with a real Request per request, about 46,000 without one, as many as a stored resource gets.
 * Most handlers read `params` and perhaps `request.method`; one that reads anything else (`headers`,
 * `json()`, `signal`, `clone()`...) gets it from a real Request made then, with the same URL, method,
 * header fields and body, once.
 *
 * It is `instanceof Request` and has every member of one. What cannot be faked is the real class's private
 * state, which `new Request(input)` and `fetch(input)` read from their input; `installLazyRequestSupport`
 * gives the process a `Request` and a `fetch` that take a lazy Request as the real one it stands for (as
 * Fetch adapters for Node servers do). The real-port server installs them; the simulator never makes
 * lazy Requests.
 */
import type { HeaderField } from '../net/codec';

const RealRequest = globalThis.Request;
const realFetch = globalThis.fetch;
const materialize = Symbol('materialize');

/** Methods the Fetch standard refuses to make a Request for (its "forbidden methods"). */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Fetch "normalize a method": the six standard methods in any case become upper case. */
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
function normalizeMethod(method: string): string {
  if (NORMALIZED.has(method)) return method;
  const upper = method.toUpperCase();
  return NORMALIZED.has(upper) ? upper : method;
}

/** RFC 9110 §5.6.2 token: what Fetch accepts as a method. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A real Request for a request's parts (Fetch "extract a body" copies the bytes, so the Request owns them). */
export function realRequest(url: string | URL, method: string, fields: readonly HeaderField[], body: Uint8Array | null): Request {
  // GET is the default: leaving `method` out skips the Fetch API's ByteString check and normalisation.
  const request = new RealRequest(url, method === 'GET' && body === null ? undefined : { method, body: body as BodyInit | null });
  // Appended after construction rather than passed as `init.headers`: the same header list (the Request
  // constructor appends init's fields one by one too, Fetch §5.4 step 33), without converting a sequence
  // of pairs through WebIDL first. A byte body sets no Content-Type of its own, so nothing is overridden.
  const headers = request.headers;
  for (const h of fields) headers.append(h.name, h.value);
  return request;
}

export class LazyRequest {
  /** The URL as given: parsed (and serialised by the URL parser) only when `url` or the real Request is asked for. */
  readonly #given: string;
  #href: string | undefined;
  readonly #method: string;
  readonly #fields: readonly HeaderField[];
  readonly #body: Uint8Array | null;
  #real: Request | undefined;

  private constructor(url: string | URL, method: string, fields: readonly HeaderField[], body: Uint8Array | null) {
    // A URL object can change after this; its serialisation is what a real Request would have kept.
    if (typeof url === 'string') this.#given = url;
    else this.#given = this.#href = url.href;
    this.#method = method;
    this.#fields = fields;
    this.#body = body;
  }

  /**
   * A lazy Request for these parts, or a real one when the real constructor would refuse them (a URL it
   * cannot parse, a method it will not take), so that its error is thrown now, word for word. `urlParses`
   * says the caller knows the URL parses (the server's own origin and an origin-form target), so it is
   * parsed only if read.
   */
  static for(url: string | URL, method: string, fields: readonly HeaderField[], body: Uint8Array | null, urlParses = false): Request {
    const normalized = normalizeMethod(method);
    const parses = urlParses || typeof url !== 'string' || URL.canParse(url);
    const noBody = normalized === 'GET' || normalized === 'HEAD';
    if (!parses || (!NORMALIZED.has(method) && !TOKEN.test(method)) || FORBIDDEN.has(normalized) || (noBody && body !== null)) {
      return realRequest(url, method, fields, body);
    }
    // The parts are copied now, as a real Request would: the caller may reuse its buffers and list after this.
    return new LazyRequest(url, normalized, fields.slice(), body === null ? null : body.slice()) as unknown as Request;
  }

  /** The real Request this one stands for, made once. */
  [materialize](): Request {
    this.#real ??= realRequest(this.#given, this.#method, this.#fields, this.#body);
    return this.#real;
  }

  get method(): string {
    return this.#method;
  }

  get url(): string {
    this.#href ??= new URL(this.#given).href;
    return this.#href;
  }

  /** The real Request for a lazy one, anything else as it is. */
  static unwrap<T>(input: T): T | Request {
    return typeof input === 'object' && input !== null && #given in input ? (input as unknown as LazyRequest)[materialize]() : input;
  }
}

// Every other member of Request.prototype, present and future, answers from the real Request.
for (const name of Reflect.ownKeys(RealRequest.prototype)) {
  if (name === 'constructor' || name === 'method' || name === 'url' || name === Symbol.toStringTag) continue;
  const member = Object.getOwnPropertyDescriptor(RealRequest.prototype, name)!;
  if (member.get) {
    const get = member.get;
    Object.defineProperty(LazyRequest.prototype, name, {
      configurable: true,
      get(this: LazyRequest) {
        return get.call(this[materialize]());
      },
    });
  } else if (typeof member.value === 'function') {
    const method = member.value as (...args: unknown[]) => unknown;
    Object.defineProperty(LazyRequest.prototype, name, {
      configurable: true,
      writable: true,
      value(this: LazyRequest, ...args: unknown[]) {
        return method.apply(this[materialize](), args);
      },
    });
  }
}
Object.setPrototypeOf(LazyRequest.prototype, RealRequest.prototype);
// Node prints a Request through a custom inspector that reads the real object's private state.
Object.defineProperty(LazyRequest.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: LazyRequest, _depth: number, options: object, inspect: (value: unknown, options: object) => string) {
    return inspect(this[materialize](), options);
  },
});

let installed = false;

/**
 * Gives the process a `Request` class and a `fetch` that take a lazy Request as the real one it stands for.
 * Every real Request is still `instanceof Request`; nothing else changes. Installed once, never removed.
 */
export function installLazyRequestSupport(): void {
  if (installed) return;
  installed = true;
  class Request extends RealRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(LazyRequest.unwrap(input) as RequestInfo | URL, init);
    }
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof RealRequest;
    }
  }
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => realFetch(LazyRequest.unwrap(input) as RequestInfo | URL, init);
  Object.defineProperty(globalThis, 'Request', { value: Request, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(globalThis, 'fetch', { value: fetch, writable: true, configurable: true, enumerable: false });
}
