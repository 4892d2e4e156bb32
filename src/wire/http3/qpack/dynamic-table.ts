/**
 * The QPACK dynamic table (RFC 9204 §3.2): a first-in, first-out list of field lines that the encoder
 * fills through the encoder stream and both sides keep in step.
 *
 * - Every entry keeps its absolute index (§3.2.4): 0 for the first ever inserted, counting up. Field lines
 *   address entries relative to a Base, encoder instructions relative to the newest entry; both are turned
 *   into absolute indexes before they reach this table.
 * - An entry's size is its name's octets + its value's octets + 32 (§3.2.1), before any Huffman coding.
 * - Before an insert, entries are evicted from the oldest end until the new entry fits (§3.2.2); an entry
 *   larger than the capacity is an error the caller reports (here the table just refuses it).
 * - Lowering the capacity evicts until the table fits (§3.2.2). Whether an eviction is allowed (§2.1.1) is
 *   the encoder's business; the decoder evicts whatever the encoder's instructions imply.
 */
export const QPACK_ENTRY_OVERHEAD = 32;

export interface QpackEntry {
  readonly absoluteIndex: number;
  readonly name: string;
  readonly value: string;
  /** name octets + value octets + 32. */
  readonly size: number;
  readonly nameOctets: number;
}

export class QpackDynamicTable {
  /** Oldest at `#head`, newest last. */
  #entries: QpackEntry[] = [];
  #head = 0;
  #size = 0;
  #capacity = 0;
  #inserted = 0;

  /** Sum of the entries' sizes. */
  get size(): number {
    return this.#size;
  }
  get capacity(): number {
    return this.#capacity;
  }
  /** Insert Count (§1.1): entries ever inserted, including duplicates; also the next absolute index. */
  get insertCount(): number {
    return this.#inserted;
  }
  get length(): number {
    return this.#entries.length - this.#head;
  }
  /** Absolute index of the oldest entry still present (= entries evicted so far). */
  get dropped(): number {
    return this.#inserted - this.length;
  }

  /** The entry with this absolute index, or undefined when it was evicted or not yet inserted. */
  get(absoluteIndex: number): QpackEntry | undefined {
    if (absoluteIndex < this.dropped || absoluteIndex >= this.#inserted) return undefined;
    return this.#entries[this.#head + absoluteIndex - this.dropped];
  }

  /** Entries from oldest to newest. */
  entries(): readonly QpackEntry[] {
    return this.#entries.slice(this.#head);
  }

  /** Entries that would be evicted to make room for `size` more bytes (oldest first), or null if it cannot fit. */
  wouldEvict(size: number, capacity = this.#capacity): QpackEntry[] | null {
    if (size > capacity) return null;
    const out: QpackEntry[] = [];
    let total = this.#size;
    for (let i = this.#head; total + size > capacity; i++) {
      const e = this.#entries[i]!;
      out.push(e);
      total -= e.size;
    }
    return out;
  }

  /** Inserts an entry (evicting first) and returns the evicted entries; the caller checked that it fits. */
  insert(name: string, value: string, nameOctets: number, valueOctets: number): { entry: QpackEntry; evicted: QpackEntry[] } {
    const size = nameOctets + valueOctets + QPACK_ENTRY_OVERHEAD;
    if (size > this.#capacity) throw new RangeError(`entry of ${size} bytes cannot fit a table of capacity ${this.#capacity}`);
    const evicted = this.#evictUntil(this.#capacity - size);
    const entry: QpackEntry = { absoluteIndex: this.#inserted++, name, value, size, nameOctets };
    this.#entries.push(entry);
    this.#size += size;
    return { entry, evicted };
  }

  /** Sets the capacity and returns the entries evicted to fit it. */
  setCapacity(capacity: number): QpackEntry[] {
    this.#capacity = capacity;
    return this.#evictUntil(capacity);
  }

  #evictUntil(limit: number): QpackEntry[] {
    const evicted: QpackEntry[] = [];
    while (this.#size > limit && this.#head < this.#entries.length) {
      const e = this.#entries[this.#head++]!;
      this.#size -= e.size;
      evicted.push(e);
    }
    if (this.#head > 64 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    return evicted;
  }
}
