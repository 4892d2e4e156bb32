/**
 * The waterfall's filter and sort, after Chrome DevTools' Network panel: a filter box, a resource-type bar, a
 * status-class choice, and columns sorted by a click on their header.
 *
 * The filter box takes DevTools' own syntax: words separated by spaces, all of which must match; a word is a
 * piece of the URL (case-insensitive), a `/regular expression/` tried on the URL, or a `key:value` property
 * (`domain:`, `method:`, `status-code:`, `mime-type:`, `scheme:`, `larger-than:` with k or M suffixes), and a
 * leading `-` negates any of them. A word DevTools would read as a property but whose key is unknown here is
 * read as text, as DevTools does.
 *
 * Resource types: DevTools knows how the browser requested each resource (its initiator). A trace knows the
 * request's Sec-Fetch-Dest header where the browser sent one (Fetch Metadata: the request's destination, which
 * is that same knowledge) and otherwise the response's media type, so it uses the first and falls back to the
 * second. JSON and XML answers count as Fetch/XHR: those are what pages fetch.
 */
import type { RequestRow } from './requests';

export type ResourceType = 'xhr' | 'doc' | 'css' | 'js' | 'font' | 'img' | 'media' | 'other';

/** DevTools' type filter bar, in its order and spelling. */
export const RESOURCE_TYPES: readonly { readonly id: ResourceType; readonly label: string }[] = [
  { id: 'xhr', label: 'Fetch/XHR' },
  { id: 'doc', label: 'Doc' },
  { id: 'css', label: 'CSS' },
  { id: 'js', label: 'JS' },
  { id: 'font', label: 'Font' },
  { id: 'img', label: 'Img' },
  { id: 'media', label: 'Media' },
  { id: 'other', label: 'Other' },
];

/** Sec-Fetch-Dest values (the Fetch standard's request destinations) by type; 'empty' is fetch() and XHR. */
const DESTINATIONS: Readonly<Record<string, ResourceType>> = {
  empty: 'xhr',
  document: 'doc',
  iframe: 'doc',
  frame: 'doc',
  style: 'css',
  script: 'js',
  worker: 'js',
  sharedworker: 'js',
  serviceworker: 'js',
  audioworklet: 'js',
  paintworklet: 'js',
  font: 'font',
  image: 'img',
  audio: 'media',
  video: 'media',
  track: 'media',
};

/** The type of a media type (RFC 9110 §8.3.1: type/subtype, parameters after ';', case-insensitive). */
export function typeOfMime(mime: string): ResourceType {
  const m = mime.split(';', 1)[0]!.trim().toLowerCase();
  if (m === 'text/html' || m === 'application/xhtml+xml') return 'doc';
  if (m === 'text/css') return 'css';
  if (/^(text|application)\/(x-)?(javascript|ecmascript)$/.test(m) || m === 'text/jscript' || m === 'module') return 'js';
  if (m.startsWith('font/') || m.startsWith('application/font-') || m.startsWith('application/x-font-') || m === 'application/vnd.ms-fontobject') return 'font';
  if (m.startsWith('image/')) return 'img';
  if (m.startsWith('audio/') || m.startsWith('video/')) return 'media';
  if (m === 'application/json' || m.endsWith('+json') || m === 'text/xml' || m === 'application/xml' || m.endsWith('+xml')) return 'xhr';
  return 'other';
}

const EXTENSIONS: Readonly<Record<string, ResourceType>> = {
  html: 'doc',
  htm: 'doc',
  css: 'css',
  js: 'js',
  mjs: 'js',
  woff: 'font',
  woff2: 'font',
  ttf: 'font',
  otf: 'font',
  png: 'img',
  jpg: 'img',
  jpeg: 'img',
  gif: 'img',
  webp: 'img',
  avif: 'img',
  svg: 'img',
  ico: 'img',
  mp4: 'media',
  webm: 'media',
  mp3: 'media',
  json: 'xhr',
};

/** The request's resource type: its Sec-Fetch-Dest, else its response's media type, else (unanswered) its URL's extension. */
export function resourceType(row: RequestRow): ResourceType {
  const f = row.track.finished?.event;
  if (f) {
    const dest = f.request.headers.find((h) => h.name.toLowerCase() === 'sec-fetch-dest')?.value.toLowerCase();
    if (dest && DESTINATIONS[dest]) return DESTINATIONS[dest];
    const mime = f.response.mimeType || f.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value || '';
    return typeOfMime(mime);
  }
  const ext = /\.([a-z0-9]+)$/i.exec(pathname(row.track.url))?.[1]?.toLowerCase();
  return (ext && EXTENSIONS[ext]) || 'other';
}

function pathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/, 1)[0]!;
  }
}

/** The status classes of RFC 9110 §15, and requests with no status yet (pending) or ever (failed). */
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'failed' | 'pending';

export const STATUS_CLASSES: readonly { readonly id: StatusClass; readonly label: string }[] = [
  { id: '1xx', label: '1xx informational' },
  { id: '2xx', label: '2xx successful' },
  { id: '3xx', label: '3xx redirection' },
  { id: '4xx', label: '4xx client error' },
  { id: '5xx', label: '5xx server error' },
  { id: 'failed', label: 'failed (no response)' },
  { id: 'pending', label: 'pending' },
];

export function statusClass(row: RequestRow): StatusClass {
  if (row.state !== 'finished') return row.state;
  return `${String(row.status)[0]}xx` as StatusClass;
}

/** One word of the filter box, read. */
type Term =
  | { readonly negate: boolean; readonly kind: 'text'; readonly text: string }
  | { readonly negate: boolean; readonly kind: 'regex'; readonly regex: RegExp }
  | { readonly negate: boolean; readonly kind: 'property'; readonly key: PropertyKey; readonly value: string };

const PROPERTY_KEYS = ['domain', 'method', 'status-code', 'mime-type', 'scheme', 'larger-than'] as const;
type PropertyKey = (typeof PROPERTY_KEYS)[number];

export interface ParsedFilter {
  readonly terms: readonly Term[];
  /** Words that could not be read (an invalid regular expression, a size that is not one), each with why. */
  readonly problems: readonly string[];
}

/** Reads the filter box. */
export function parseFilter(text: string): ParsedFilter {
  const terms: Term[] = [];
  const problems: string[] = [];
  for (const raw of text.trim().split(/\s+/)) {
    if (!raw) continue;
    const negate = raw.startsWith('-') && raw.length > 1;
    const word = negate ? raw.slice(1) : raw;
    const regex = /^\/(.+)\/([a-z]*)$/.exec(word);
    if (regex) {
      try {
        terms.push({ negate, kind: 'regex', regex: new RegExp(regex[1]!, regex[2]!.includes('i') ? 'i' : '') });
      } catch (error) {
        problems.push(`${word} is not a regular expression (${error instanceof Error ? error.message : String(error)}); read as text.`);
        terms.push({ negate, kind: 'text', text: word.toLowerCase() });
      }
      continue;
    }
    const colon = word.indexOf(':');
    const key = colon > 0 ? word.slice(0, colon).toLowerCase() : '';
    if ((PROPERTY_KEYS as readonly string[]).includes(key) && colon < word.length - 1) {
      const value = word.slice(colon + 1);
      if (key === 'larger-than' && parseSize(value) === undefined) {
        problems.push(`larger-than:${value} is not a size (write 500, 20k or 1M).`);
        continue;
      }
      terms.push({ negate, kind: 'property', key: key as PropertyKey, value });
      continue;
    }
    terms.push({ negate, kind: 'text', text: word.toLowerCase() });
  }
  return { terms, problems };
}

/** '20k' -> 20,480, '1M' -> 1,048,576, '500' -> 500 (DevTools' units: k and M are 1,024 and 1,024²). */
export function parseSize(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(value);
  if (!m) return undefined;
  const unit = m[2]!.toLowerCase() === 'k' ? 1024 : m[2]!.toLowerCase() === 'm' ? 1024 * 1024 : 1;
  return Number(m[1]) * unit;
}

/** `*` matches any run of characters, as in DevTools' domain: and mime-type: values. */
function wildcard(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.toLowerCase().split('*').map(escapeRegex).join('.*')}$`);
  return re.test(value.toLowerCase());
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function propertyMatches(row: RequestRow, key: PropertyKey, value: string): boolean {
  const f = row.track.finished?.event;
  switch (key) {
    case 'domain': {
      let host = '';
      try {
        host = new URL(row.track.url).hostname;
      } catch {}
      return wildcard(value, host);
    }
    case 'method':
      return row.track.method.toLowerCase() === value.toLowerCase();
    case 'status-code':
      return row.state === 'finished' && row.status === value;
    case 'mime-type':
      return f !== undefined && wildcard(value, f.response.mimeType.split(';', 1)[0]!.trim());
    case 'scheme':
      return row.track.url.toLowerCase().startsWith(`${value.toLowerCase()}:`);
    case 'larger-than':
      return row.size !== undefined && row.size > (parseSize(value) ?? Infinity);
  }
}

function termMatches(row: RequestRow, term: Term): boolean {
  const hit =
    term.kind === 'text'
      ? row.track.url.toLowerCase().includes(term.text)
      : term.kind === 'regex'
        ? term.regex.test(row.track.url)
        : propertyMatches(row, term.key, term.value);
  return term.negate ? !hit : hit;
}

export interface RequestFilter {
  readonly text: ParsedFilter;
  /** Empty: every type. */
  readonly types: ReadonlySet<ResourceType>;
  /** Empty: every status. */
  readonly statuses: ReadonlySet<StatusClass>;
}

export function matches(row: RequestRow, filter: RequestFilter): boolean {
  if (filter.types.size > 0 && !filter.types.has(resourceType(row))) return false;
  if (filter.statuses.size > 0 && !filter.statuses.has(statusClass(row))) return false;
  return filter.text.terms.every((t) => termMatches(row, t));
}

export function isFiltering(filter: RequestFilter): boolean {
  return filter.types.size > 0 || filter.statuses.size > 0 || filter.text.terms.length > 0;
}

/** The columns a click on the header sorts by; 'start' is the Waterfall column (DevTools' default order). */
export type SortKey = 'name' | 'method' | 'status' | 'protocol' | 'connection' | 'size' | 'time' | 'start';

export interface Sort {
  readonly key: SortKey;
  readonly descending: boolean;
}

export const DEFAULT_SORT: Sort = { key: 'start', descending: false };

const collator = new Intl.Collator('en', { numeric: true });

function compare(a: RequestRow, b: RequestRow, key: SortKey): number {
  switch (key) {
    case 'name':
      return collator.compare(a.track.url, b.track.url);
    case 'method':
      return collator.compare(a.track.method, b.track.method);
    case 'status':
      return collator.compare(a.status, b.status);
    case 'protocol':
      return collator.compare(a.protocol, b.protocol);
    case 'connection':
      return collator.compare(a.connectionId, b.connectionId);
    case 'size':
      // Unknown sizes sort below every known one, as DevTools puts them.
      return (a.size ?? -1) - (b.size ?? -1);
    case 'time':
      return a.end - a.start - (b.end - b.start);
    case 'start':
      return a.start - b.start;
  }
}

/**
 * Rows sorted by `sort`; ties keep the requests' order (the order they started), in both directions, so
 * flipping the direction reverses only what differs.
 */
export function sortRows(rows: readonly RequestRow[], sort: Sort): RequestRow[] {
  const order = new Map(rows.map((r, i) => [r, i]));
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => sign * compare(a, b, sort.key) || order.get(a)! - order.get(b)!);
}
