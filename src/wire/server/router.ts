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
  // A malformed escape in a captured segment cannot name any resource; respond() turns it into 400 first.
  return matchSegments(pattern.split('/'), path, path.split('/'));
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/**
 * A route table prepared once for matching: routes whose pattern is all literal segments sit in a map by
 * their exact path, the others (with `:name` or `*`) keep their pattern split into segments. Matching a
 * path is then one map lookup plus a walk over the patterned routes only, instead of splitting every
 * pattern and the path again for every route on every request.
 */
interface CompiledRoutes {
  /** The table's length and last route when compiled: `MockServer.use()` appends to the same array. */
  readonly length: number;
  readonly last: Route | undefined;
  /** Literal paths -> [definition index, route] for each route with that exact path. */
  readonly exact: Map<string, [number, Route][]>;
  /** Routes with captures, in definition order, with their pattern's segments. */
  readonly patterned: readonly Patterned[];
}

interface Patterned {
  readonly index: number;
  readonly route: Route;
  /** The pattern's segments; undefined for the pattern '*'. */
  readonly segments: readonly string[] | undefined;
  /** The literal start every matching path has ('/todos/' for '/todos/:id'): a cheap test before the split. */
  readonly prefix: string;
}

const compiled = new WeakMap<readonly Route[], CompiledRoutes>();
const NO_MATCHES: readonly RouteMatch[] = Object.freeze([]);

const isLiteral = (pattern: string): boolean => {
  if (pattern === '*') return false;
  for (const segment of pattern.split('/')) if (segment === '*' || segment.startsWith(':')) return false;
  return true;
};

function compile(routes: readonly Route[]): CompiledRoutes {
  const exact = new Map<string, [number, Route][]>();
  const patterned: Patterned[] = [];
  routes.forEach((route, index) => {
    if (isLiteral(route.path)) {
      const list = exact.get(route.path);
      if (list) list.push([index, route]);
      else exact.set(route.path, [[index, route]]);
    } else {
      // '*' alone matches every path; undefined marks it so the walk needs no split.
      if (route.path === '*') {
        patterned.push({ index, route, segments: undefined, prefix: '' });
        return;
      }
      const segments = route.path.split('/');
      const literal = segments.findIndex((w) => w === '*' || w.startsWith(':'));
      // A ':name' needs a segment after the literal start; a '*' also matches nothing ('/files/*' takes '/files').
      const start = segments.slice(0, literal).join('/');
      patterned.push({ index, route, segments, prefix: segments[literal] === '*' ? start : `${start}/` });
    }
  });
  return { length: routes.length, last: routes[routes.length - 1], exact, patterned };
}

function compiledFor(routes: readonly Route[]): CompiledRoutes {
  const known = compiled.get(routes);
  if (known && known.length === routes.length && known.last === routes[routes.length - 1]) return known;
  const fresh = compile(routes);
  compiled.set(routes, fresh);
  return fresh;
}

/** matchPath for a pattern already split into segments (undefined: the pattern '*'). */
function matchSegments(want: readonly string[] | undefined, path: string, have: readonly string[]): Record<string, string> | undefined {
  if (want === undefined) return { '*': path };
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*') {
      params['*'] = have.slice(i).join('/');
      return params;
    }
    const h = have[i];
    if (h === undefined) return undefined;
    if (w.charCodeAt(0) === 0x3a) {
      if (h === '') return undefined;
      const value = decodePercent(h);
      if (value === undefined) return undefined;
      params[w.slice(1)] = value;
    } else if (w !== h) {
      return undefined;
    }
  }
  return have.length === want.length ? params : undefined;
}

/**
 * All routes whose path matches, in definition order (used for 405's Allow and for OPTIONS). The same
 * answer as trying `matchPath` on every route, from a table compiled once per route list.
 */
export function routesForPath(routes: readonly Route[], path: string): readonly RouteMatch[] {
  const table = compiledFor(routes);
  const literal = table.exact.get(path);
  if (table.patterned.length === 0) {
    if (literal === undefined) return NO_MATCHES;
    return literal.length === 1 ? [{ route: literal[0]![1], params: {} }] : literal.map(([, route]) => ({ route, params: {} }));
  }
  const found: [number, RouteMatch][] = [];
  if (literal) for (const [index, route] of literal) found.push([index, { route, params: {} }]);
  let have: string[] | undefined;
  for (const { index, route, segments, prefix } of table.patterned) {
    if (!path.startsWith(prefix)) continue;
    if (segments !== undefined) have ??= path.split('/');
    const params = matchSegments(segments, path, have ?? []);
    if (params) found.push([index, { route, params }]);
  }
  if (found.length === 0) return NO_MATCHES;
  // Literal and patterned matches interleave by where the route was defined.
  if (literal && found.length > literal.length) found.sort((a, b) => a[0] - b[0]);
  return found.map(([, match]) => match);
}

/**
 * The route that answers `method` on `path`: the first one defined for exactly that method whose pattern
 * matches, as `routesForPath(routes, path).find((m) => m.route.method === method)` picks it, without
 * matching the routes of other methods or building the list. A server answers nearly every request
 * from here, and needs the whole list only for HEAD via GET, OPTIONS, 405 and `*` routes.
 */
export function routeFor(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const table = compiledFor(routes);
  let best: RouteMatch | undefined;
  let bestIndex = Infinity;
  const literal = table.exact.get(path);
  if (literal) {
    for (const [index, route] of literal) {
      if (route.method !== method) continue;
      best = { route, params: {} };
      bestIndex = index;
      break;
    }
  }
  let have: string[] | undefined;
  // Patterned routes are in definition order: the first that matches wins unless a literal one came earlier.
  for (const { index, route, segments, prefix } of table.patterned) {
    if (index > bestIndex) break;
    if (route.method !== method || !path.startsWith(prefix)) continue;
    if (segments !== undefined) have ??= path.split('/');
    const params = matchSegments(segments, path, have ?? []);
    if (params) return { route, params };
  }
  return best;
}
