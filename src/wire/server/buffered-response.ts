/**
 * Responses that keep their body as the string or bytes a route handler gave, so that the server which
 * called the handler can read it back at once.
 *
 * Why: on Node, the Fetch `Response` (undici) wraps every body in a ReadableStream when it is constructed,
 * and reading it back with `bytes()` takes several turns of the promise queue. `Response.json(todo)` and its
 * `bytes()` cost about 17 µs, more than a whole HTTP/1.1 request and response through the engine on a real
 * port (node:http answers one in about 15 µs). A handler does not see the difference: while it runs,
 * `Response` is `BufferedResponse`, whose objects are `instanceof Response`, validate their init with the
 * real constructor (the same errors, word for word), carry a real `Headers`, and turn into a real Response
 * the moment anything touches the body (`body`, `text()`, `clone()`...). Bodies the Fetch standard turns into
 * a stream anyway (Blob, FormData, URLSearchParams, streams) and the null-body statuses get a real Response
 * from the start. This is what Fetch adapters for Node servers do too; here it is confined to the
 * synchronous part of one handler call (`withBufferedResponses`), so no other code in the process ever sees
 * anything but the real `Response`.
 */

const RealResponse = globalThis.Response;
const encoder = new TextEncoder();
/** Fetch §6.4 "null body status": 101 and 103 are already refused by the 200-599 range check. */
const NULL_BODY_STATUS = new Set([204, 205, 304]);

type Held = string | Uint8Array;

/**
 * Small bodies are encoded into views of a shared pool, as Node's Buffer.from(string) does: a typed array
 * with a backing store of its own costs several times the encoding of a short JSON text. A view is never
 * written again once handed out (the pool only moves forward, and a full pool is dropped, not reused), so
 * a body kept by whoever holds it stays as it was.
 */
const POOL_BYTES = 64 * 1024;
const POOL_MAX_TEXT = 4096;
let pool = new Uint8Array(POOL_BYTES);
let poolUsed = 0;

/** UTF-8 bytes of `text`: encodeInto the pool, about 3x cheaper than encode() on V8 for short texts. */
function utf8(text: string): Uint8Array {
  if (text.length > POOL_MAX_TEXT) return encoder.encode(text);
  // A UTF-16 code unit takes at most 3 bytes of UTF-8.
  if (poolUsed + text.length * 3 > POOL_BYTES) {
    pool = new Uint8Array(POOL_BYTES);
    poolUsed = 0;
  }
  const { written } = encoder.encodeInto(text, pool.subarray(poolUsed));
  const out = pool.subarray(poolUsed, poolUsed + written);
  // Keep views 8-byte aligned, as Node's pool does.
  poolUsed += (written + 7) & ~7;
  return out;
}

/** The body a handler gave, in the form kept: a string, or a copy of its bytes (Fetch copies a BufferSource). */
function heldBody(body: unknown): Held | null | undefined {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  // Anything else (Blob, FormData, URLSearchParams, a stream, an object with toString): the real constructor.
  return undefined;
}

const materialized = Symbol('materialized');

/** The Content-Type `BufferedResponse.json` asks its constructor call to add (one call at a time: JS is single-threaded). */
let jsonType: string | undefined;

/** What the server reads from a buffered Response whose body nobody touched. */
export interface HeldReply {
  readonly status: number;
  readonly statusText: string;
  /** Lower-case names in Headers' iteration order, as `response.headers.forEach` gives them. */
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
}

export class BufferedResponse {
  /**
   * Status, status text and header fields: a real Response without a body, so init is validated as Fetch
   * does. Made in the constructor when there is an init to check, else the first time someone asks.
   */
  #headMade: Response | undefined;
  readonly #body!: Held | null;
  /** The type Fetch gives the body when init names none (text/plain for a string, JSON for json()). */
  readonly #bodyType: string | undefined;
  /** The real Response with the body, made the first time something other than the server reads the body. */
  #full: Response | undefined;

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    const held = heldBody(body);
    if (held === undefined || (held !== null && NULL_BODY_STATUS.has(init?.status ?? 200))) {
      // Returning an object from a constructor hands the caller that object: a plain real Response.
      // biome-ignore lint/correctness/noConstructorReturn: the fallback is the real Response itself
      return new RealResponse(body, init) as unknown as BufferedResponse;
    }
    this.#body = held;
    // Fetch "extract a body": a string is text/plain;charset=UTF-8; bytes have no type of their own.
    this.#bodyType = typeof held === 'string' ? (jsonType ?? 'text/plain;charset=UTF-8') : undefined;
    // With no init there is nothing to validate: the common `Response.json(data)` makes no head at all.
    if (init !== undefined) this.#headMade = this.#makeHead(init);
  }

  #makeHead(init: ResponseInit | undefined): Response {
    const head = new RealResponse(null, init);
    // Fetch "initialize a response": the body's type is appended when init named no Content-Type.
    if (this.#bodyType !== undefined && !head.headers.has('content-type')) head.headers.append('content-type', this.#bodyType);
    return head;
  }

  get #head(): Response {
    this.#headMade ??= this.#makeHead(undefined);
    return this.#headMade;
  }

  /** Fetch §7.2 `Response.json`: serialise first (its TypeError), then the init checks, then the type. */
  static json(data: unknown, init?: ResponseInit): Response {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    jsonType = 'application/json';
    try {
      return new BufferedResponse(text, init) as unknown as Response;
    } finally {
      jsonType = undefined;
    }
  }

  /** The real Response with the body, made once. */
  [materialized](): Response {
    if (!this.#full) {
      const head = this.#head;
      this.#full = new RealResponse(this.#body as BodyInit | null, { status: head.status, statusText: head.statusText, headers: head.headers });
    }
    return this.#full;
  }

  get type(): ResponseType {
    return this.#head.type;
  }
  get url(): string {
    return this.#head.url;
  }
  get redirected(): boolean {
    return this.#head.redirected;
  }
  get status(): number {
    return this.#head.status;
  }
  get ok(): boolean {
    return this.#head.ok;
  }
  get statusText(): string {
    return this.#head.statusText;
  }
  /** The same Headers object for the response's whole life: what a handler sets on it is what is sent. */
  get headers(): Headers {
    return this.#head.headers;
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this[materialized]().body;
  }
  get bodyUsed(): boolean {
    return this.#full?.bodyUsed ?? false;
  }
  clone(): Response {
    return this[materialized]().clone();
  }
  blob(): Promise<Blob> {
    return this[materialized]().blob();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this[materialized]().arrayBuffer();
  }
  bytes(): Promise<Uint8Array> {
    return this[materialized]().bytes() as Promise<Uint8Array>;
  }
  text(): Promise<string> {
    return this[materialized]().text();
  }
  json(): Promise<unknown> {
    return this[materialized]().json();
  }
  formData(): Promise<FormData> {
    return this[materialized]().formData();
  }

  /** Status, fields and body bytes when no one has touched the body; undefined for any other Response. */
  static held(response: Response): HeldReply | undefined {
    if (!(#body in response)) return undefined;
    const r = response as unknown as BufferedResponse;
    if (r.#full) return undefined;
    const body = r.#body === null ? new Uint8Array(0) : typeof r.#body === 'string' ? utf8(r.#body) : r.#body;
    const head = r.#headMade;
    if (!head) return { status: 200, statusText: '', fields: r.#bodyType === undefined ? [] : [['content-type', r.#bodyType]], body };
    const fields: Array<readonly [string, string]> = [];
    head.headers.forEach((value, name) => fields.push([name, value]));
    return { status: head.status, statusText: head.statusText, fields, body };
  }

  /** `x instanceof Response` while handlers run: every real Response, and these. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof RealResponse;
  }
}

// Objects made here are Responses to `instanceof`, `Object.prototype.toString` and property lookups; the
// statics `error` and `redirect` come from the real class and make real Responses.
Object.setPrototypeOf(BufferedResponse.prototype, RealResponse.prototype);
Object.setPrototypeOf(BufferedResponse, RealResponse);
// Node prints a Response through a custom inspector that reads the real object's private state.
Object.defineProperty(BufferedResponse.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: BufferedResponse, _depth: number, options: object, inspect: (value: unknown, options: object) => string) {
    return inspect(this[materialized](), options);
  },
});

/**
 * Runs `call` (one handler's synchronous part) with `Response` standing for `BufferedResponse`, and puts the
 * real one back before returning, whatever happens. A handler that awaits first builds its Response after
 * this returns, with the real class: slower, never different.
 */
export function withBufferedResponses<T>(call: () => T): T {
  const scope = globalThis as { Response: unknown };
  if (scope.Response !== RealResponse) return call();
  scope.Response = BufferedResponse;
  try {
    return call();
  } finally {
    scope.Response = RealResponse;
  }
}
