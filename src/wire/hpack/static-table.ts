/**
 * The HPACK static table (RFC 7541 Appendix A): 61 fixed entries, addressed by indexes 1-61. Dynamic
 * entries follow from index 62 (RFC 7541 §2.3.3). Exported as data so the docs can render it.
 */
export interface StaticEntry {
  readonly index: number;
  readonly name: string;
  readonly value: string;
  /** RFC 7541 §4.1 size (octets + 32), as if the entry were in the dynamic table. */
  readonly size: number;
}

const ROWS: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

export const STATIC_TABLE: readonly StaticEntry[] = Object.freeze(
  ROWS.map(([name, value], i) => Object.freeze({ index: i + 1, name, value, size: name.length + value.length + 32 })),
);

export const STATIC_TABLE_LENGTH = 61;

/** name -> value -> lowest static index holding exactly that field. */
export const STATIC_FIELD_INDEX: ReadonlyMap<string, ReadonlyMap<string, number>> = (() => {
  const map = new Map<string, Map<string, number>>();
  for (const e of STATIC_TABLE) {
    const values = map.get(e.name) ?? new Map<string, number>();
    if (!values.has(e.value)) values.set(e.value, e.index);
    map.set(e.name, values);
  }
  return map;
})();

/** name -> lowest static index with that name. */
export const STATIC_NAME_INDEX: ReadonlyMap<string, number> = new Map(STATIC_TABLE.map((e) => [e.name, e.index] as const).reverse());
