/**
 * Method semantics of the mock origin server (RFC 9110 §9), independent of connections and time.
 *
 * Given a parsed request, `respond` decides the answer:
 * - a route for the method answers (its handler gets a standard Fetch `Request`; on a real port a lazy one,
 *   lazy-request.ts, that is built only if the handler reads past its method and URL);
 * - HEAD without its own route runs the GET route and drops the body, keeping Content-Length
 *   (RFC 9110 §9.3.2: the same header fields as GET, no content);
 * - OPTIONS without its own route answers 204 with Allow for the target (§9.3.7; `*` means the server);
 * - TRACE echoes the request head as `message/http` (§9.3.8), minus credentials (Authorization, Cookie)
 *   which §9.3.8 says should not be reflected;
 * - paths no route owns fall to the resource store when the server has one (PUT 201/204, GET, DELETE);
 * - a method the server does not even know (not a standard method, and no route uses it) gets 501
 *   (§15.6.2); a known path with a method it does not support gets 405 with Allow (§15.5.6); anything
 *   else 404. CONNECT is known but only means something to proxies, so an origin answers it with 405.
 *
 * Fetch cannot construct a `Request` for TRACE or CONNECT (they are forbidden methods in the Fetch
 * standard), so those never reach handlers.
 */
import { methodInfo, reasonPhrase } from '../data/index';
import { asciiBytes } from '../net/stream';
import type { HeaderField, WireRequest } from '../net/codec';
import { header } from '../net/codec';
import { BufferedResponse, withBufferedResponses } from './buffered-response';
import { LazyRequest, realRequest } from './lazy-request';
import type { Route, RouteOptions } from './router';
import { decodePercent, routeFor, routesForPath } from './router';
import type { ResourceStore } from './store';

export interface Reply {
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly HeaderField[];
  readonly body: Uint8Array;
  /** What answered: a route pattern or 'builtin:...'. */
  readonly route: string;
  readonly options: RouteOptions;
}

export interface SemanticsConfig {
  readonly routes: readonly Route[];
  readonly store: ResourceStore | undefined;
  /** Scheme and authority used to build absolute URLs for handlers, e.g. 'http://api.example'. */
  readonly origin: string;
  /**
   * Handlers build buffered Responses (buffered-response.ts), which the server reads back without a stream:
   * the real-port server turns this on, where a Response's stream costs more than the rest of an exchange.
   */
  readonly bufferResponses?: boolean;
  /**
   * Handlers get lazy Requests (lazy-request.ts), built only if read past method and URL: the real-port
   * server turns this on, after installing the process-wide support they need.
   */
  readonly lazyRequests?: boolean;
}

const ALWAYS = ['GET', 'HEAD', 'OPTIONS', 'TRACE'];
const STORE_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE'];
const FORBIDDEN_BY_FETCH = new Set(['CONNECT', 'TRACE', 'TRACK']);
const encoder = new TextEncoder();

/** displayName's answers: a server sees the same few field names on every response. */
const displayNames = new Map<string, string>();

/** 'content-type' -> 'Content-Type', for readable HTTP/1 output (names are case-insensitive anyway). */
export function displayName(name: string): string {
  const known = displayNames.get(name);
  if (known !== undefined) return known;
  const shown = titleCase(name);
  // Bounded: names are chosen by handlers, and a server that meets many distinct ones just stops remembering.
  if (displayNames.size < 256) displayNames.set(name, shown);
  return shown;
}

function titleCase(name: string): string {
  // A character loop rather than a regex with a replacer: the server formats every field of every reply.
  let out = '';
  let from = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // a-z at the start or after '-'
    if (c >= 0x61 && c <= 0x7a && (i === 0 || name.charCodeAt(i - 1) === 0x2d)) {
      out += name.slice(from, i) + String.fromCharCode(c - 0x20);
      from = i + 1;
    }
  }
  return from === 0 ? name : out + name.slice(from);
}

/** 'http:' from 'http://api.example' (what `new URL(origin).protocol` gives, without parsing the URL). */
function schemeOf(origin: string): string {
  const colon = origin.indexOf(':');
  return colon > 0 ? origin.slice(0, colon + 1).toLowerCase() : new URL(origin).protocol;
}

/**
 * A one-entry memo for `absoluteUrl`: the last origin and Host it saw, the base they make, and whether
 * that base is a plain scheme://authority. Comparing the two short inputs is cheaper than building the
 * base string again and comparing it by content for every request.
 */
let memoOrigin = '';
let memoHost: string | undefined = '';
let memoBase = '';
let plainBase = false;

/**
 * The absolute URL of an origin-form target as a handler's Request sees it: on scheme://Host when the
 * request has a Host, else on the server's origin, as `new URL(target, base)` resolves it. When the
 * base is valid and already in normal form with an empty path, and the target is path-absolute ('/x',
 * not '//x' or '/\\x'), resolution is concatenation (WHATWG URL: a path-absolute reference keeps the
 * base's scheme and authority), so the Request parses the URL once instead of twice. A server answers
 * with one base almost always, so it is built and checked once.
 */
function absoluteUrl(pathAndQuery: string, origin: string, host: string | undefined): string | URL {
  if (origin !== memoOrigin || host !== memoHost) {
    memoOrigin = origin;
    memoHost = host;
    memoBase = host ? `${schemeOf(origin)}//${host}` : origin;
    plainBase = URL.parse(memoBase)?.href === `${memoBase}/`;
  }
  const base = memoBase;
  const second = pathAndQuery.charCodeAt(1);
  if (plainBase && pathAndQuery.charCodeAt(0) === 0x2f && second !== 0x2f && second !== 0x5c) return base + pathAndQuery;
  return new URL(pathAndQuery, base);
}

export function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  // Origin-form ('/...', nearly every request) cannot be absolute-form: skip the regex for it.
  const absolute = rest.charCodeAt(0) === 0x2f ? null : /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || '/'; // RFC 9112 §3.2.2: servers accept absolute-form
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q) };
}

function implemented(config: SemanticsConfig): Set<string> {
  const methods = new Set(ALWAYS);
  for (const r of config.routes) methods.add(r.method);
  if (config.store) for (const m of STORE_METHODS) methods.add(m);
  return methods;
}

function allowFor(config: SemanticsConfig, path: string): string[] {
  const methods = new Set<string>();
  const matches = routesForPath(config.routes, path);
  if (matches.length === 0 && !config.store) return [];
  if (matches.length === 0) for (const m of STORE_METHODS) methods.add(m);
  for (const { route } of matches) {
    if (route.method === '*') for (const m of implemented(config)) methods.add(m);
    else methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  methods.add('TRACE');
  methods.delete('*');
  return [...methods];
}

function plain(status: number, text: string, route: string, extra: HeaderField[] = []): Reply {
  const body = encoder.encode(text);
  return {
    status,
    reason: reasonPhrase(status),
    headers: [{ name: 'Content-Type', value: 'text/plain;charset=UTF-8' }, ...extra],
    body,
    route,
    options: {},
  };
}

function empty(status: number, route: string, headers: HeaderField[] = []): Reply {
  return { status, reason: reasonPhrase(status), headers, body: new Uint8Array(0), route, options: {} };
}

function traceEcho(request: WireRequest): Reply {
  const hidden = new Set(['authorization', 'cookie']);
  const lines = [`${request.method} ${request.target} HTTP/${request.version}`];
  for (const h of request.headers) if (!hidden.has(h.name.toLowerCase())) lines.push(`${h.name}: ${h.value}`);
  return {
    status: 200,
    reason: reasonPhrase(200),
    headers: [{ name: 'Content-Type', value: 'message/http' }],
    body: asciiBytes(lines.join('\r\n') + '\r\n\r\n'),
    route: 'builtin:TRACE',
    options: {},
  };
}

/**
 * Runs a route's handler. Not an async function: a handler that answers at once with a buffered Response
 * (most do, on a real port) gets its Reply back in the same turn, without the promise and the microtask
 * turns an async function's return would cost on every request.
 */
function runHandler(route: Route, params: Record<string, string>, request: WireRequest, config: SemanticsConfig): Reply | Promise<Reply> {
  const { path, query } = splitTarget(request.target);
  const method = request.method;
  const noBody = method === 'GET' || method === 'HEAD';
  let answer: unknown;
  try {
    const url = absoluteUrl(path + query, config.origin, header(request.headers, 'host'));
    const body = noBody || request.body.length === 0 ? null : request.body;
    // absoluteUrl gives a string only when it joined a target in origin-form to an origin that parses.
    const fetchRequest = config.lazyRequests
      ? LazyRequest.for(url, method, request.headers, body, typeof url === 'string')
      : realRequest(url, method, request.headers, body);
    answer = config.bufferResponses ? withBufferedResponses(() => route.handler(fetchRequest, { params })) : route.handler(fetchRequest, { params });
  } catch (error) {
    return handlerFailed(route, error);
  }
  // Any thenable is awaited, not only this realm's Promise (a snippet's handler may come from another).
  if (typeof (answer as Partial<PromiseLike<unknown>> | null)?.then === 'function') {
    return Promise.resolve(answer).then(
      (response) => replyFrom(route, response),
      (error: unknown) => handlerFailed(route, error),
    );
  }
  return replyFrom(route, answer);
}

function handlerFailed(route: Route, error: unknown): Reply {
  return plain(500, `Handler for ${route.method} ${route.path} threw: ${String(error)}`, route.path);
}

/** The Reply for what a handler answered: a Response, read as given when buffered, else through the Fetch API. */
function replyFrom(route: Route, response: unknown): Reply | Promise<Reply> {
  if (!(response instanceof Response)) {
    return handlerFailed(route, new TypeError(`The handler for ${route.method} ${route.path} returned ${String(response)}, not a Response.`));
  }
  const held = BufferedResponse.held(response);
  if (!held) return readResponse(route, response);
  const headers: HeaderField[] = [];
  for (const [name, value] of held.fields) headers.push({ name: displayName(name), value });
  return { status: held.status, reason: held.statusText || reasonPhrase(held.status), headers, body: held.body, route: route.path, options: route };
}

async function readResponse(route: Route, response: Response): Promise<Reply> {
  const body = await response.bytes();
  const headers: HeaderField[] = [];
  response.headers.forEach((value, name) => headers.push({ name: displayName(name), value }));
  return {
    status: response.status,
    reason: response.statusText || reasonPhrase(response.status),
    headers,
    body,
    route: route.path,
    options: route,
  };
}

function fromStore(store: ResourceStore, request: WireRequest, path: string): Reply | undefined {
  switch (request.method) {
    case 'GET':
    case 'HEAD': {
      const item = store.get(path);
      if (!item) return undefined;
      return { status: 200, reason: 'OK', headers: [{ name: 'Content-Type', value: item.contentType }], body: item.body, route: 'builtin:store', options: {} };
    }
    case 'PUT': {
      const type = header(request.headers, 'content-type') ?? 'application/octet-stream';
      const outcome = store.put(path, request.body, type);
      // RFC 9110 §9.3.4: 201 when the PUT created the resource, 200 or 204 when it replaced it.
      return outcome === 'created' ? empty(201, 'builtin:store', [{ name: 'Location', value: path }]) : empty(204, 'builtin:store');
    }
    case 'DELETE':
      return store.delete(path) ? empty(204, 'builtin:store') : undefined;
    default:
      return undefined;
  }
}

/** The reply an injected status fault gives instead of the route's (`server.faults.failNext(n, { status })`). */
export function faultReply(fault: { readonly status: number; readonly body?: string }): Reply {
  return plain(fault.status, fault.body ?? `Injected failure: ${fault.status}`, 'fault');
}

/** The reply when deciding a reply itself failed: the server's fault, so 500, and the reason in the body. */
export function internalError(error: unknown): Reply {
  return plain(500, `The mock server failed while answering: ${String(error)}`, 'builtin:500');
}

/** Decides the reply to one request. HEAD replies still carry the GET body here; the server drops it. */
export async function respond(request: WireRequest, config: SemanticsConfig): Promise<Reply> {
  return decide(request, config);
}

/**
 * `respond` without the promise when the answer is ready at once (a stored resource, a built-in, a handler
 * that answered with a buffered Response): a server answering thousands of requests skips a promise and its
 * turns of the microtask queue on each. It may throw where `respond` rejects.
 */
export function decide(request: WireRequest, config: SemanticsConfig): Reply | Promise<Reply> {
  const method = request.method;
  const { path } = splitTarget(request.target);
  // RFC 3986 §2.1: '%' must start a two-hex-digit escape; curl sends `/todos/%ZZ` as typed.
  if (decodePercent(path) === undefined) {
    return plain(400, `The path ${path} has a malformed percent-encoding (RFC 3986 §2.1: '%' must be followed by two hex digits).`, 'builtin:400');
  }
  // The route for this very method answers nearly every request; the whole match list is built only when none does.
  const own = FORBIDDEN_BY_FETCH.has(method) ? undefined : routeFor(config.routes, method, path);
  if (own) return runHandler(own.route, own.params, request, config);
  const matches = routesForPath(config.routes, path);

  if (method === 'TRACE') return traceEcho(request);
  // A standard method is known whatever the routes say: look that up first, and build the route set only for the rest.
  if (methodInfo(method) === undefined && !implemented(config).has(method)) {
    return plain(501, `${method} is not implemented by this server.`, 'builtin:501');
  }
  if (method === 'HEAD') {
    const get = matches.find((m) => m.route.method === 'GET');
    if (get) {
      const route = `builtin:HEAD via ${get.route.path}`;
      const reply = runHandler(get.route, get.params, { ...request }, config);
      return reply instanceof Promise ? reply.then((r) => ({ ...r, route })) : { ...reply, route };
    }
  }
  if (method === 'OPTIONS') {
    const allow = request.target === '*' ? [...implemented(config)].filter((m) => m !== '*') : allowFor(config, path);
    if (allow.length > 0) return empty(204, 'builtin:OPTIONS', [{ name: 'Allow', value: allow.join(', ') }]);
  }
  const any = matches.find((m) => m.route.method === '*');
  if (any) return runHandler(any.route, any.params, request, config);
  if (matches.length === 0 && config.store) {
    const stored = fromStore(config.store, request, path);
    if (stored) return stored;
    if (!STORE_METHODS.includes(method)) {
      return plain(405, `${method} is not allowed on ${path}.`, 'builtin:405', [{ name: 'Allow', value: STORE_METHODS.join(', ') }]);
    }
    return plain(404, `Nothing at ${path}.`, 'builtin:404');
  }
  if (matches.length > 0) {
    return plain(405, `${method} is not allowed on ${path}.`, 'builtin:405', [{ name: 'Allow', value: allowFor(config, path).join(', ') }]);
  }
  return plain(404, `Nothing at ${path}.`, 'builtin:404');
}
