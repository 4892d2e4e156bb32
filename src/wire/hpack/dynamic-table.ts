/**
 * The HPACK dynamic table (RFC 7541 §2.3.2, §4): a FIFO of (name, value) entries, newest first.
 *
 * - Entry size is name octets + value octets + 32 (§4.1); the 32 stands for the bookkeeping an
 *   implementation would keep per entry, so that the limit bounds real memory.
 * - Adding an entry first evicts from the oldest end until it fits (§4.4). An entry larger than the
 *   whole table empties it and is not added: that is not an error.
 * - Lowering the maximum size evicts until the table fits (§4.3).
 *
 * Names and values are stored as text; `size` is computed from their UTF-8 octets by the caller, who
 * has them at hand. Entries also carry an insertion sequence number: the encoder uses it to find
 * entries by content.
 */
export const ENTRY_OVERHEAD = 32;

export interface DynamicEntry {
  readonly name: string;
  readonly value: string;
  readonly size: number;
  /** Octets of the name, so a literal reusing this name can size its own entry without re-encoding. */
  readonly nameOctets: number;
  /** 0 for the first entry ever inserted into this table, counting up. */
  readonly seq: number;
}

export class DynamicTable {
  /** Oldest at `head`, newest at the end. */
  private entries: DynamicEntry[] = [];
  private head = 0;
  private _size = 0;
  private _maxSize: number;
  private inserted = 0;

  constructor(maxSize: number) {
    this._maxSize = maxSize;
  }

  get size(): number {
    return this._size;
  }
  get maxSize(): number {
    return this._maxSize;
  }
  get length(): number {
    return this.entries.length - this.head;
  }
  /** Sequence number the next inserted entry will get. */
  get nextSeq(): number {
    return this.inserted;
  }
  /** Sequence number of the oldest entry still present. */
  get oldestSeq(): number {
    return this.inserted - this.length;
  }

  /** 1-based position among dynamic entries (1 = newest); undefined when out of range. */
  get(position: number): DynamicEntry | undefined {
    if (position < 1 || position > this.length) return undefined;
    return this.entries[this.entries.length - position];
  }

  /** Dynamic position of the entry with sequence number `seq`, or 0 when it has been evicted. */
  positionOf(seq: number): number {
    return seq >= this.oldestSeq && seq < this.inserted ? this.inserted - seq : 0;
  }

  /**
   * Adds an entry, evicting as needed, and returns how many entries were evicted. When the entry alone
   * is larger than the table, the table ends up empty and the entry is not added (§4.4).
   */
  add(name: string, value: string, size: number, nameOctets: number): number {
    const evicted = this.evictUntil(this._maxSize - size);
    if (size <= this._maxSize) {
      this.entries.push({ name, value, size, nameOctets, seq: this.inserted++ });
      this._size += size;
    }
    return evicted;
  }

  /** Changes the maximum size and returns how many entries were evicted to fit it (§4.3). */
  setMaxSize(maxSize: number): number {
    this._maxSize = maxSize;
    return this.evictUntil(maxSize);
  }

  /** Newest first, as the docs show it (index 62 first). */
  snapshot(): { index: number; name: string; value: string; size: number }[] {
    const out = [];
    for (let p = 1; p <= this.length; p++) {
      const e = this.get(p)!;
      out.push({ index: 61 + p, name: e.name, value: e.value, size: e.size });
    }
    return out;
  }

  private evictUntil(limit: number): number {
    let evicted = 0;
    while (this._size > limit && this.head < this.entries.length) {
      this._size -= this.entries[this.head++]!.size;
      evicted++;
    }
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return evicted;
  }
}
