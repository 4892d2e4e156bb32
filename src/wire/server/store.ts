/**
 * A tiny resource store that gives the mock server real PUT/GET/DELETE semantics on paths no route owns.
 * PUT creates (201) or replaces (204) exactly as RFC 9110 §9.3.4 asks; the store is per server instance.
 */
export interface StoredResource {
  readonly body: Uint8Array;
  readonly contentType: string;
}

export type ResourceInit = string | { readonly body: string | Uint8Array; readonly contentType?: string };

const encoder = new TextEncoder();

function toResource(init: ResourceInit): StoredResource {
  if (typeof init === 'string') return { body: encoder.encode(init), contentType: 'text/plain;charset=UTF-8' };
  const body = typeof init.body === 'string' ? encoder.encode(init.body) : init.body.slice();
  return { body, contentType: init.contentType ?? 'application/octet-stream' };
}

export class ResourceStore {
  readonly #items = new Map<string, StoredResource>();

  constructor(initial: Readonly<Record<string, ResourceInit>> = {}) {
    for (const [path, init] of Object.entries(initial)) this.#items.set(path, toResource(init));
  }

  get(path: string): StoredResource | undefined {
    return this.#items.get(path);
  }

  /** Returns 'created' or 'replaced'. */
  put(path: string, body: Uint8Array, contentType: string): 'created' | 'replaced' {
    const existed = this.#items.has(path);
    this.#items.set(path, { body: body.slice(), contentType });
    return existed ? 'replaced' : 'created';
  }

  delete(path: string): boolean {
    return this.#items.delete(path);
  }

  paths(): string[] {
    return [...this.#items.keys()];
  }
}
