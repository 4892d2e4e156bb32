import { describe, expect, it } from 'vitest';
import { type Route, http, matchPath, routeFor, routesForPath } from './router';

const ok = () => new Response('ok');

/** What routesForPath must equal: matchPath tried on every route, in definition order. */
const naive = (routes: readonly Route[], path: string) =>
  routes.flatMap((route) => {
    const params = matchPath(route.path, path);
    return params ? [{ route, params }] : [];
  });

describe('routesForPath', () => {
  const routes = [
    http.get('/todos/:id', ok),
    http.get('/todos/new', ok),
    http.all('*', ok),
    http.put('/todos/new', ok),
    http.get('/files/*', ok),
    http.delete('/todos/:id', ok),
    http.get('/', ok),
  ];

  it('finds literal and patterned routes in the order they were defined', () => {
    const matches = routesForPath(routes, '/todos/new');
    expect(matches.map((m) => `${m.route.method} ${m.route.path}`)).toEqual(['GET /todos/:id', 'GET /todos/new', '* *', 'PUT /todos/new', 'DELETE /todos/:id']);
    expect(matches[0]!.params).toEqual({ id: 'new' });
    expect(matches[1]!.params).toEqual({});
    expect(matches[2]!.params).toEqual({ '*': '/todos/new' });
  });

  it('gives the same answer as matching every route one by one', () => {
    const paths = [
      '/',
      '/todos',
      '/todos/',
      '/todos/1',
      '/todos/a%20b',
      '/todos/%ZZ',
      '/todos/new',
      '/todos/1/x',
      '/files',
      '/files/',
      '/files/a/b',
      '/filesx',
      '/todosx/1',
      '/other',
    ];
    for (const path of paths) expect(routesForPath(routes, path), path).toEqual(naive(routes, path));
    const literalOnly = [http.get('/a', ok), http.post('/a', ok), http.get('/b', ok)];
    for (const path of ['/a', '/b', '/c', '/a/']) expect(routesForPath(literalOnly, path), path).toEqual(naive(literalOnly, path));
  });

  it('sees routes appended to the same list after it was first used (MockServer.use)', () => {
    const list: Route[] = [http.get('/a', ok)];
    expect(routesForPath(list, '/b')).toEqual([]);
    list.push(http.get('/b', ok), http.get('/c/:x', ok));
    expect(routesForPath(list, '/b').map((m) => m.route.path)).toEqual(['/b']);
    expect(routesForPath(list, '/c/1')[0]?.params).toEqual({ x: '1' });
  });

  it('gives each match its own params object', () => {
    const list = [http.get('/a', ok)];
    const first = routesForPath(list, '/a')[0]!.params;
    first.injected = 'x';
    expect(routesForPath(list, '/a')[0]!.params).toEqual({});
  });
});

describe('routeFor', () => {
  const routes = [
    http.get('/todos/:id', ok),
    http.get('/todos/new', ok),
    http.all('*', ok),
    http.put('/todos/new', ok),
    http.put('/todos/:id', ok),
    http.get('/files/*', ok),
    http.delete('/todos/:id', ok),
    http.get('/', ok),
    http.post('/todos', ok),
  ];

  it('picks the route the full match list would: the first defined for exactly that method', () => {
    const paths = ['/', '/todos', '/todos/1', '/todos/new', '/todos/%ZZ', '/files', '/files/a/b', '/other', '/todos/1/x'];
    for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', '*']) {
      for (const path of paths) {
        const want = routesForPath(routes, path).find((m) => m.route.method === method);
        expect(routeFor(routes, method, path), `${method} ${path}`).toEqual(want);
      }
    }
  });

  it('lets a literal route defined first win over a pattern, and a pattern defined first win over a literal', () => {
    expect(routeFor(routes, 'GET', '/todos/new')?.route.path).toBe('/todos/:id');
    expect(routeFor(routes, 'PUT', '/todos/new')?.route.path).toBe('/todos/new');
    expect(routeFor(routes, 'PUT', '/todos/7')?.params).toEqual({ id: '7' });
  });
});
