/**
 * Routes for the mock server, MSW-style: `http.get('/todos/:id', handler)`.
 *
 * A handler has the Fetch API shape: it receives a standard `Request` and returns a `Response` (or a
 * promise of one). The second argument carries what the URL pattern captured. Patterns are paths whose
 * segments are literal, `:name` (one segment, captured) or `*` (the rest of the path, captured as
 * params['*']). Matching ignores the query string.
 *
 * Handlers run outside virtual time: a handler must not wait on the simulation's clock. To make a route
 * slow, give it `latency` (virtual ms before the response starts) or `bytesPerTick` (a slow body).
 */

export interface HandlerInfo {
  readonly params: Readonly<Record<string, string>>;
}

export type Handler = (request: Request, info: HandlerInfo) => Response | Promise<Response>;

export interface RouteOptions {
  /** Virtual ms the server waits before it starts sending the response. */
  readonly latency?: number;
  /** Send the body at this many bytes per tick (a slow body); the head goes out at once. */
  readonly bytesPerTick?: number;
  /** Length of a tick in virtual ms for `bytesPerTick` (default 10). */
  readonly tickMs?: number;
  /**
   * HTTP/2 only: paths the server pushes with this response (RFC 9113 §8.4), e.g. `['/style.css']`.
   * Ignored over HTTP/1 and when the client disabled push (SETTINGS_ENABLE_PUSH = 0).
   */
  readonly push?: readonly string[];
}

export interface Route extends RouteOptions {
  /** Upper-case method, or '*' for any method. */
  readonly method: string;
  readonly path: string;
  readonly handler: Handler;
}

const define =
  (method: string) =>
  (path: string, handler: Handler, options: RouteOptions = {}): Route => {
    if (!path.startsWith('/') && path !== '*') {
      throw new TypeError(`A route path starts with "/" (e.g. "/todos/:id"), got "${path}".`);
    }
    return Object.freeze({ ...options, method, path, handler });
  };

/** Route builders, one per method, plus `all` for any method and `on` for extension methods. */
export const http = Object.freeze({
  get: define('GET'),
  head: define('HEAD'),
  post: define('POST'),
  put: define('PUT'),
  patch: define('PATCH'),
  delete: define('DELETE'),
  options: define('OPTIONS'),
  all: define('*'),
  on: (method: string, path: string, handler: Handler, options?: RouteOptions): Route => {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) {
      throw new TypeError(`A method is a token (RFC 9110 §9.1), got "${method}".`);
    }
    return define(method)(path, handler, options);
  },
});

/** `decodeURIComponent` without the throw: undefined when `segment` has a malformed escape (RFC 3986 §2.1). */
export function decodePercent(segment: string): string | undefined {
  // Without a '%' there is nothing to decode (the common case: /items/42).
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Matches a path against a pattern; returns captured params, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  if (pattern === '*') return { '*': path };
  const want = pattern.split('/');
  const have = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*') {
      params['*'] = have.slice(i).join('/');
      return params;
    }
    const h = have[i];
    if (h === undefined) return undefined;
    if (w.startsWith(':')) {
      if (h === '') return undefined;
      const value = decodePercent(h);
      // A malformed escape cannot name any resource; respond() turns it into 400 before routing.
      if (value === undefined) return undefined;
      params[w.slice(1)] = value;
    } else if (w !== h) {
      return undefined;
    }
  }
  return have.length === want.length ? params : undefined;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/** All routes whose path matches, in definition order (used for 405's Allow and for OPTIONS). */
export function routesForPath(routes: readonly Route[], path: string): RouteMatch[] {
  const out: RouteMatch[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params) out.push({ route, params });
  }
  return out;
}
