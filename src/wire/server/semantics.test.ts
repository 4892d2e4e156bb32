/**
 * The URL a handler's Request carries, and the display form of reply field names: both are worked out
 * without a regex or a second URL parse on the common path, so these check that path against what
 * `new URL(target, base)` and the plain definition give, including the targets that must not take it.
 */
import { describe, expect, it } from 'vitest';
import type { WireRequest } from '../net/codec';
import { http } from './router';
import { displayName, respond } from './semantics';

async function urlSeen(target: string, host: string | undefined, origin = 'http://api.example'): Promise<string> {
  const routes = [http.get('/*', (req) => new Response(req.url))];
  const request: WireRequest = {
    method: 'GET',
    target,
    version: '1.1',
    headers: host === undefined ? [] : [{ name: 'Host', value: host }],
    body: new Uint8Array(0),
  };
  const reply = await respond(request, { routes, store: undefined, origin });
  return new TextDecoder().decode(reply.body);
}

describe('handler request URL', () => {
  it('resolves the target on the scheme and Host as new URL(target, base) does', async () => {
    const cases: [string, string | undefined, string][] = [
      ['/items/1?x=1&y=%20', 'api.example', 'http://api.example'],
      ['/a/../b/./c', 'API.Example:80', 'http://api.example'],
      ['/sp ace/é', 'api.example:8080', 'https://api.example'],
      ['//other.example/x', 'api.example', 'http://api.example'],
      ['/\\other.example/x', 'api.example', 'http://api.example'],
      ['/x', undefined, 'http://api.example'],
      ['/x', undefined, 'http://api.example/base/'],
      ['http://api.example/abs?q', 'api.example', 'http://api.example'],
    ];
    for (const [target, host, origin] of cases) {
      const base = host ? `${new URL(origin).protocol}//${host}` : origin;
      const path = target.replace(/^[a-z]+:\/\/[^/?#]*/i, '');
      expect(await urlSeen(target, host, origin), `${target} on ${base}`).toBe(new URL(path, base).href);
    }
  });

  it('answers 500 naming the problem when the Host makes no valid URL', async () => {
    expect(await urlSeen('/x', 'bad host')).toMatch(/threw: TypeError/);
  });
});

describe('displayName', () => {
  it('capitalises the first letter and each letter after a dash', () => {
    expect(displayName('content-type')).toBe('Content-Type');
    expect(displayName('x-request-id')).toBe('X-Request-Id');
    expect(displayName('etag')).toBe('Etag');
    expect(displayName('-a--b-')).toBe('-A--B-');
    expect(displayName('already-Upper')).toBe('Already-Upper');
    expect(displayName('x-9a')).toBe('X-9a');
    expect(displayName('')).toBe('');
  });
});

describe('what a handler returns', () => {
  const get = (handler: Parameters<typeof http.get>[1]) =>
    respond(
      { method: 'GET', target: '/x', version: '1.1', headers: [{ name: 'Host', value: 'a' }], body: new Uint8Array(0) },
      { routes: [http.get('/x', handler)], store: undefined, origin: 'http://a' },
    );
  const text = (b: Uint8Array) => new TextDecoder().decode(b);

  it('takes a Response, a Promise of one, or any other thenable of one', async () => {
    const made = () => new Response('hi', { status: 201 });
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a Promise is the case under test
    const thenable = { then: (resolve: (r: Response) => void) => resolve(made()) } as unknown as Promise<Response>;
    for (const handler of [made, async () => made(), () => thenable]) {
      const reply = await get(handler);
      expect([reply.status, text(reply.body)]).toEqual([201, 'hi']);
    }
  });

  it('answers 500 saying what came back instead of a Response', async () => {
    for (const [value, shown] of [
      [undefined, 'undefined'],
      [null, 'null'],
      ['hi', 'hi'],
    ] as const) {
      const reply = await get(() => value as unknown as Response);
      expect(reply.status).toBe(500);
      expect(text(reply.body)).toContain(`returned ${shown}, not a Response`);
    }
  });
});
