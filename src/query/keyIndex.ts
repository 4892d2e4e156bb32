/**
 * KeyIndex: a prefix tree over the leading primitive elements of query keys, so a partial-key filter
 * such as `['todos', 5]` only looks at queries whose key starts with 'todos', 5 instead of all of them.
 *
 * It answers "which queries could match?"; callers still run the full matcher on the candidates.
 * Why that is sound: `partialMatchKey(key, filter)` compares a primitive filter element with `===`, so a
 * query can only match if its element at that position is the very same primitive. NaN never equals
 * itself, so NaN (like any object) ends the indexed prefix. Candidate sets keep cache insertion order.
 */
type Primitive = string | number | boolean | null | undefined | bigint | symbol;

interface IndexNode<T> {
  readonly members: Set<T>;
  readonly children: Map<Primitive, IndexNode<T>>;
}

const isIndexable = (value: unknown): value is Primitive =>
  value === null || (typeof value !== 'object' && typeof value !== 'function' && !Number.isNaN(value));

/** Deeper prefixes stop paying for themselves; keys rarely have more than a few leading primitives. */
const MAX_DEPTH = 4;

export class KeyIndex<T> {
  #root: Map<Primitive, IndexNode<T>> = new Map();

  add(key: ReadonlyArray<unknown>, item: T): void {
    let level = this.#root;
    const depth = Math.min(key.length, MAX_DEPTH);
    for (let i = 0; i < depth; i++) {
      const element = key[i];
      if (!isIndexable(element)) return;
      let node = level.get(element);
      if (!node) {
        node = { members: new Set(), children: new Map() };
        level.set(element, node);
      }
      node.members.add(item);
      level = node.children;
    }
  }

  delete(key: ReadonlyArray<unknown>, item: T): void {
    let level = this.#root;
    const depth = Math.min(key.length, MAX_DEPTH);
    for (let i = 0; i < depth; i++) {
      const element = key[i];
      if (!isIndexable(element)) return;
      const node = level.get(element);
      if (!node) return;
      node.members.delete(item);
      if (node.members.size === 0) {
        level.delete(element);
        return;
      }
      level = node.children;
    }
  }

  /**
   * Items whose key could start with `prefix`: a set to filter further, an empty array when nothing
   * can match, or undefined when the prefix has no indexable head (scan everything instead).
   */
  candidates(prefix: ReadonlyArray<unknown>): Iterable<T> | undefined {
    let level = this.#root;
    let found: IndexNode<T> | undefined;
    const depth = Math.min(prefix.length, MAX_DEPTH);
    for (let i = 0; i < depth; i++) {
      const element = prefix[i];
      if (!isIndexable(element)) break;
      const node = level.get(element);
      if (!node) return [];
      found = node;
      level = node.children;
    }
    return found?.members;
  }
}
