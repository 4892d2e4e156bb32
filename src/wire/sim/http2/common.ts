/**
 * Pieces the simulated HTTP/2 client and server share: the queue of DATA waiting for flow-control
 * credit, and the conversion between HTTP/1-style header lists and HTTP/2 field blocks.
 */
import type { HeaderField } from '../../net/codec';
import type { Http2Connection } from '../../http2/connection';

/**
 * RFC 9113 §8.2.2: connection-specific fields must not appear in HTTP/2; Host becomes :authority
 * (§8.3.1). `te` is allowed only as "trailers", which the simulator never needs, so it goes too.
 */
const NOT_IN_H2 = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'host']);

/**
 * Regular fields for a field block: lower-case names (§8.2.1), connection-specific ones removed. Fields
 * the message's Connection header names are connection-specific too, and go with it (§8.2.2 points to
 * RFC 9110 §7.6.1).
 */
export function h2Fields(headers: readonly HeaderField[]): HeaderField[] {
  let named: Set<string> | undefined;
  for (const h of headers) {
    if (h.name.toLowerCase() !== 'connection') continue;
    named ??= new Set();
    for (const option of h.value.split(',')) named.add(option.trim().toLowerCase());
  }
  const out: HeaderField[] = [];
  for (const h of headers) {
    const name = h.name.toLowerCase();
    if (!NOT_IN_H2.has(name) && !named?.has(name)) out.push({ name, value: h.value });
  }
  return out;
}

/**
 * The regular fields of a received field list in order, minus its pseudo-headers (RFC 9113 §8.3), after
 * `first` if given (the server puts Host from :authority in front). A plain loop: a closure per call
 * through Array.prototype.filter was a visible share of a 10,000-request run, on both ends.
 */
export function regularFields<T extends HeaderField>(list: readonly T[], first?: T): T[] {
  const out: T[] = first === undefined ? [] : [first];
  for (let i = 0; i < list.length; i++) if (!isPseudo(list[i]!.name)) out.push(list[i]!);
  return out;
}

/** ':method', ':status', ...: the names HTTP/2 reserves for pseudo-headers (RFC 9113 §8.3). */
function isPseudo(name: string): boolean {
  return name.charCodeAt(0) === 0x3a;
}

/**
 * Freezes a list of flat entries (header fields, HPACK steps) and the entries in place, for trace events
 * that carry it: the per-request events go out through `emitPrebuilt`, which freezes only the event, so
 * what they point to must be frozen first. A loop over a known shape is cheaper than the trace's generic
 * deep freeze, which walks every key of every object it meets (a few percent of a 10,000-request run).
 */
export function frozenFields<T extends readonly object[]>(list: T): T {
  if (Object.isFrozen(list)) return list; // frozen by this function (or shared from the tracer) already
  for (let i = 0; i < list.length; i++) Object.freeze(list[i]);
  return Object.freeze(list);
}

/** The value of a pseudo-header or field (names are lower-case in HTTP/2). */
export function field(headers: readonly HeaderField[], name: string): string | undefined {
  for (const h of headers) if (h.name === name) return h.value;
  return undefined;
}

/**
 * First in, first out, with a `shift` that costs the same however long the queue: requests beyond the
 * stream limit wait here, and a page can start thousands at once. (Array.prototype.shift moves every
 * element that stays unless V8 can trim the array's start in place, which it may not do while the GC is
 * marking; in a 10,000-request run that copying was one of the client's larger costs.)
 */
export class FifoQueue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head === this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined; // the queue no longer keeps it alive
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      // Drop the consumed front once it is most of the array, so memory follows the queue's length.
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** The item `position` places behind the front (0 is the front). */
  at(position: number): T | undefined {
    return position >= 0 && position < this.length ? this.#items[this.#head + position] : undefined;
  }

  /** Takes `item` out from wherever it waits; false if it is not queued. */
  remove(item: T): boolean {
    const i = this.#items.indexOf(item, this.#head);
    if (i < 0) return false;
    this.#items.splice(i, 1);
    return true;
  }

  /** Empties the queue and returns what it held, front first. */
  drain(): T[] {
    const out = this.#items.slice(this.#head) as T[];
    this.#items = [];
    this.#head = 0;
    return out;
  }
}

interface Pending {
  data: Uint8Array;
  readonly endStream: boolean;
}

/**
 * DATA that could not be sent yet because a flow-control window was exhausted (RFC 9113 §6.9): sent
 * in stream order as WINDOW_UPDATEs open the windows again.
 */
export class DataQueue {
  readonly #pending = new Map<number, Pending>();

  get size(): number {
    return this.#pending.size;
  }

  push(streamId: number, data: Uint8Array, endStream: boolean): void {
    this.#pending.set(streamId, { data, endStream });
  }

  drop(streamId: number): void {
    this.#pending.delete(streamId);
  }

  /**
   * Sends whatever the windows allow, one frame's worth per stream per round (round-robin, as servers
   * share a connection between streams of equal weight), so concurrent responses interleave on the wire.
   * Returns the bytes to write.
   */
  flush(conn: Http2Connection): Uint8Array[] {
    const out: Uint8Array[] = [];
    const quantum = conn.remoteSettings.MAX_FRAME_SIZE;
    let progress = true;
    while (progress && this.#pending.size > 0) {
      progress = false;
      for (const [id, p] of this.#pending) {
        const state = conn.streamState(id);
        if (state !== 'open' && state !== 'half_closed_remote') {
          this.#pending.delete(id); // reset meanwhile: nothing more to send
          continue;
        }
        const n = Math.min(p.data.length, conn.sendWindow(id), quantum);
        if (n === 0 && p.data.length > 0) continue;
        const last = n === p.data.length;
        out.push(conn.sendData(id, p.data.subarray(0, n), { endStream: last && p.endStream }).bytes);
        progress = true;
        if (last) this.#pending.delete(id);
        else p.data = p.data.subarray(n);
      }
    }
    return out;
  }
}
