/**
 * Which literals the encoder inserts into the dynamic table.
 *
 * Inserting is not free. Every entry costs its 32-byte overhead in the table (RFC 7541 §4.1) and pushes
 * the oldest entries out, and an entry that is never referenced again only did damage. An encoder
 * that knew the future would insert exactly the fields that come back before they are evicted; on
 * the hpack-test-case stories that oracle reaches a ratio of about 0.27, against 0.31 for "insert
 * everything". We approximate it from the past, per header name:
 *
 * - a value seen among the last few values of its name is likely to come back: insert it ("second
 *   sight"). This alone is most of the gain for names like last-modified or etag, whose values rarely
 *   repeat but, when they do, repeat many times;
 * - otherwise insert only if, so far, at least half of this name's fields repeated a recent value
 *   (date, cache-control, server... do; content-length, :path, request ids do not). The first few
 *   fields of a name are inserted optimistically, before there is any history;
 * - a name found in no table is always inserted, so that later fields can reference it by index
 *   instead of repeating it literally.
 *
 * Measured on the 32 raw-data stories (4096-byte table): 0.293 encoded/raw, vs 0.311 indexing all.
 */
/** How many recent distinct values per name count as "seen before". */
const RECENT_VALUES = 8;
/** Fields of a name inserted unconditionally before its repeat rate is trusted. */
const WARM_UP = 3;
/** Minimum share of a name's fields that repeated a recent value for new values to be inserted. */
const REPEAT_THRESHOLD = 0.5;
/** Bound on the number of names tracked, so a peer sending endless new names cannot grow us. */
const MAX_NAMES = 1024;

interface NameHistory {
  readonly recent: string[];
  seen: number;
  repeats: number;
}

export class IndexingPolicy {
  private names = new Map<string, NameHistory>();

  /** Record a field about to be sent (by any representation); returns whether its value is a repeat. */
  observe(name: string, value: string): boolean {
    let h = this.names.get(name);
    if (!h) {
      if (this.names.size >= MAX_NAMES) this.names.clear();
      h = { recent: [], seen: 0, repeats: 0 };
      this.names.set(name, h);
    }
    const repeat = h.recent.includes(value);
    h.seen++;
    if (repeat) {
      h.repeats++;
    } else {
      h.recent.push(value);
      if (h.recent.length > RECENT_VALUES) h.recent.shift();
    }
    return repeat;
  }

  /** Should this literal (already `observe`d) be inserted into the dynamic table? */
  shouldIndex(name: string, nameInTable: boolean, repeat: boolean): boolean {
    if (!nameInTable || repeat) return true;
    const h = this.names.get(name);
    if (!h || h.seen <= WARM_UP) return true;
    return h.repeats >= REPEAT_THRESHOLD * (h.seen - 1);
  }
}
