import { describe, expect, it } from 'vitest';
import type { TraceEvent } from 'roundtrip/wire';
import type { RequestRow, RequestTrack } from './requests';
import { matches, parseFilter, parseSize, type RequestFilter, resourceType, sortRows, statusClass, typeOfMime } from './request-filter';

type Finished = Extract<TraceEvent, { type: 'request-finished' }>;

/** A finished row as rowAt makes it, with only what the filter and sort read. */
function row(
  i: number,
  url: string,
  o: { method?: string; status?: number; mime?: string; dest?: string; size?: number; start?: number; time?: number; state?: RequestRow['state'] } = {},
): RequestRow {
  const state = o.state ?? 'finished';
  const event = {
    request: { method: o.method ?? 'GET', url, headers: o.dest ? [{ name: 'Sec-Fetch-Dest', value: o.dest }] : [] },
    response: { status: o.status ?? 200, mimeType: o.mime ?? '', headers: [] },
  } as unknown as Finished;
  const track = {
    requestId: `r${i}`,
    method: o.method ?? 'GET',
    url,
    httpVersion: 'HTTP/1.1',
    startedAt: o.start ?? i,
    startIndex: i,
    ...(state === 'finished' ? { finished: { index: 1000 + i, event } } : {}),
  } as RequestTrack;
  const start = o.start ?? i;
  return {
    track,
    state,
    status: state === 'finished' ? String(o.status ?? 200) : `(${state})`,
    protocol: 'http/1.1',
    connectionId: 'c1',
    size: o.size,
    start,
    end: start + (o.time ?? 10),
    spans: [],
  };
}

const only = (text: string, extra: Partial<RequestFilter> = {}): RequestFilter => ({
  text: parseFilter(text),
  types: new Set(),
  statuses: new Set(),
  ...extra,
});
const urls = (rows: RequestRow[], filter: RequestFilter) => rows.filter((r) => matches(r, filter)).map((r) => new URL(r.track.url).pathname);

const PAGE = [
  row(0, 'https://example.com/', { mime: 'text/html; charset=utf-8', dest: 'document', size: 1200, time: 40 }),
  row(1, 'https://example.com/app.css', { mime: 'text/css', size: 300, time: 12 }),
  row(2, 'https://cdn.example.net/app.js', { mime: 'text/javascript', size: 45_000, time: 90 }),
  row(3, 'https://example.com/api/todos', { method: 'POST', status: 201, mime: 'application/json', dest: 'empty', size: 80, time: 30 }),
  row(4, 'https://example.com/missing.png', { status: 404, mime: 'text/html', dest: 'image', size: 150, time: 8 }),
  row(5, 'https://example.com/font.woff2', { mime: 'font/woff2', size: 20_000, time: 25 }),
  row(6, 'https://example.com/api/slow', { state: 'pending' }),
  row(7, 'https://example.com/boom', { status: 503, mime: 'application/problem+json', size: undefined, time: 5 }),
];

describe('resource types', () => {
  it('come from Sec-Fetch-Dest first, then the media type, as DevTools groups them', () => {
    expect(PAGE.map(resourceType)).toEqual(['doc', 'css', 'js', 'xhr', 'img', 'font', 'other', 'xhr']);
    // A 404 page answered for an image is still an image request: the destination wins over the text/html answer.
    expect(typeOfMime('text/html')).toBe('doc');
    expect(typeOfMime('Application/JavaScript; charset=utf-8')).toBe('js');
    expect(typeOfMime('image/svg+xml')).toBe('img');
    expect(typeOfMime('video/mp4')).toBe('media');
    expect(typeOfMime('application/octet-stream')).toBe('other');
  });
});

describe('the filter box', () => {
  it('matches a piece of the URL, ignoring case, and every word must match', () => {
    expect(urls(PAGE, only('API'))).toEqual(['/api/todos', '/api/slow']);
    expect(urls(PAGE, only('api todos'))).toEqual(['/api/todos']);
  });

  it('negates a word with a leading minus and reads /regex/', () => {
    expect(urls(PAGE, only('-example.com'))).toEqual(['/app.js']);
    expect(urls(PAGE, only('/\\.(css|js)$/'))).toEqual(['/app.css', '/app.js']);
    expect(urls(PAGE, only('-/\\.(css|js)$/ -api'))).toEqual(['/', '/missing.png', '/font.woff2', '/boom']);
  });

  it('reads DevTools properties: status-code, method, domain with *, mime-type, scheme, larger-than', () => {
    expect(urls(PAGE, only('status-code:404'))).toEqual(['/missing.png']);
    expect(urls(PAGE, only('method:post'))).toEqual(['/api/todos']);
    expect(urls(PAGE, only('domain:*.example.net'))).toEqual(['/app.js']);
    expect(urls(PAGE, only('mime-type:text/*'))).toEqual(['/', '/app.css', '/app.js', '/missing.png']);
    expect(urls(PAGE, only('scheme:http'))).toEqual([]);
    expect(urls(PAGE, only('larger-than:10k'))).toEqual(['/app.js', '/font.woff2']);
    expect(urls(PAGE, only('-larger-than:1k status-code:200'))).toEqual(['/app.css']);
    // An unknown key is text, as in DevTools: 'foo:bar' is looked for in the URL.
    expect(parseFilter('foo:bar').terms).toEqual([{ negate: false, kind: 'text', text: 'foo:bar' }]);
  });

  it('says which words it could not read', () => {
    expect(parseFilter('/(/').problems[0]).toMatch(/^\/\(\/ is not a regular expression/);
    expect(parseFilter('larger-than:big').problems).toEqual(['larger-than:big is not a size (write 500, 20k or 1M).']);
    expect(parseSize('1M')).toBe(1_048_576);
    expect(parseSize('1.5k')).toBe(1536);
  });

  it('combines with the type bar and the status classes of RFC 9110 §15', () => {
    expect(urls(PAGE, only('', { types: new Set(['css', 'js']) }))).toEqual(['/app.css', '/app.js']);
    expect(urls(PAGE, only('', { statuses: new Set(['4xx']) }))).toEqual(['/missing.png']);
    expect(urls(PAGE, only('', { statuses: new Set(['5xx']) }))).toEqual(['/boom']);
    expect(urls(PAGE, only('', { statuses: new Set(['pending']) }))).toEqual(['/api/slow']);
    expect(urls(PAGE, only('example.com', { types: new Set(['xhr']), statuses: new Set(['2xx']) }))).toEqual(['/api/todos']);
    expect(PAGE.map(statusClass)).toEqual(['2xx', '2xx', '2xx', '2xx', '4xx', '2xx', 'pending', '5xx']);
  });
});

describe('sorting', () => {
  const paths = (rows: RequestRow[]) => rows.map((r) => new URL(r.track.url).pathname);

  it('sorts by size with unknown sizes lowest, and by time, either way', () => {
    expect(paths(sortRows(PAGE, { key: 'size', descending: true }))).toEqual([
      '/app.js',
      '/font.woff2',
      '/',
      '/app.css',
      '/missing.png',
      '/api/todos',
      '/api/slow',
      '/boom',
    ]);
    expect(paths(sortRows(PAGE, { key: 'time', descending: false })).slice(0, 3)).toEqual(['/boom', '/missing.png', '/api/slow']);
  });

  it('keeps the start order among ties in both directions, and sorts names and statuses as numbers where they are', () => {
    // /api/slow (pending) and /boom have no size: equal, so they stay in start order both ways.
    const up = paths(sortRows(PAGE, { key: 'size', descending: false }));
    expect(up.slice(0, 2)).toEqual(['/api/slow', '/boom']);
    expect(paths(sortRows(PAGE, { key: 'method', descending: false }))).toEqual([...paths(PAGE).filter((p) => p !== '/api/todos'), '/api/todos']);
    expect(paths(sortRows(PAGE, { key: 'method', descending: true }))).toEqual(['/api/todos', ...paths(PAGE).filter((p) => p !== '/api/todos')]);
    const numbered = [row(0, 'https://a.test/item/10'), row(1, 'https://a.test/item/9'), row(2, 'https://a.test/item/100')];
    expect(paths(sortRows(numbered, { key: 'name', descending: false }))).toEqual(['/item/9', '/item/10', '/item/100']);
    expect(paths(sortRows(PAGE, { key: 'status', descending: true })).slice(0, 2)).toEqual(['/boom', '/missing.png']);
  });
});
