/**
 * Run TanStack's own ecosystem packages against a library of our choice (test-only).
 *
 * Issue #5/#6: swapping @tanstack/query-core for roundtrip/query (and @tanstack/react-query for
 * roundtrip/react) must not change what ecosystem code sees, and ecosystem code calls more than the
 * documented surface (persisters reach `timeoutManager`, `dehydrate`/`hydrate`, cache events, the
 * `IsRestoringProvider`). So we load the persistence packages with every import of the core (and of
 * the React bindings) pointed at one library, once per side, and compare what users observe.
 *
 * How the redirect works: Vitest hands files under node_modules to Node unless they need a
 * transform, and Node's imports never see `vi.doMock`. The packages ship their TypeScript sources
 * (`src/`, the same code as `build/`, which TanStack's own tests run through a custom export
 * condition); .ts files are transformed by Vitest, so loading those puts the packages' imports
 * under the mock registry without touching the shared Vitest config. Their copies of the core are
 * resolved from each package's own directory, because npm nests a separate query-core under each
 * package that pins an older exact version.
 *
 * Every redirected core is wrapped so calls are counted per side: a test that finds zero calls on
 * the side it meant has proof that the import escaped the redirect.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type * as PersistCore from '@tanstack/query-persist-client-core';
import type * as AsyncPersister from '@tanstack/query-async-storage-persister';
import type * as SyncPersister from '@tanstack/query-sync-storage-persister';
import type * as ReactPersist from '@tanstack/react-query-persist-client';

// (a path string, not a URL object: under jsdom the global URL is jsdom's, which node:url rejects)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const requireFromRoot = createRequire(join(root, 'package.json'));

/** Directory of `name` as seen from package directory `from` (or the project root). */
function packageDir(name: string, from = root): string {
  return dirname(createRequire(join(from, 'package.json')).resolve(`${name}/package.json`));
}
/** The ES module entry a bundler (and Vitest) picks for the package at `dir`: the "import" condition. */
function esmEntry(dir: string): string {
  const manifest = requireFromRoot(join(dir, 'package.json'));
  return join(dir, manifest.exports['.'].import.default);
}
function sourceEntry(name: string): string {
  return join(packageDir(name), 'src/index.ts');
}

const PACKAGES = ['@tanstack/query-persist-client-core', '@tanstack/query-async-storage-persister', '@tanstack/query-sync-storage-persister'] as const;

/** Every query-core entry file any of the packages (or the project) can reach. */
const coreEntries = [...new Set([root, ...PACKAGES.map((name) => packageDir(name))].map((from) => esmEntry(packageDir('@tanstack/query-core', from))))];
const reactEntry = esmEntry(packageDir('@tanstack/react-query'));
const persistCoreEntry = esmEntry(packageDir('@tanstack/query-persist-client-core'));

export interface Ecosystem {
  persist: typeof PersistCore;
  asyncStorage: typeof AsyncPersister;
  syncStorage: typeof SyncPersister;
  react: typeof ReactPersist;
  /** Calls the packages made into the core they were given, by export name. */
  calls: Record<string, number>;
  /** Number of query-core copies installed (npm nests one per exact-pinned package). */
  coreCopies: number;
}

/**
 * Load the packages with `@tanstack/query-core` resolved to `core` and `@tanstack/react-query` to
 * `react` (when given). Module namespaces returned by earlier calls stay valid.
 */
export async function loadEcosystem(core: object, react?: object): Promise<Ecosystem> {
  vi.resetModules();
  const calls: Record<string, number> = {};
  const counted: Record<string, unknown> = { ...core };
  for (const name of ['dehydrate', 'hydrate', 'notifyManager', 'timeoutManager', 'matchQuery', 'hashKey']) {
    const original = (core as Record<string, unknown>)[name];
    if (typeof original === 'function') {
      counted[name] = (...args: Array<unknown>) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return original(...args);
      };
    } else if (original && typeof original === 'object') {
      // managers: count method calls, keep `this` the real singleton
      counted[name] = new Proxy(original, {
        get(target, key) {
          const value = Reflect.get(target, key, target);
          if (typeof value !== 'function') return value;
          return (...args: Array<unknown>) => {
            const label = `${name}.${String(key)}`;
            calls[label] = (calls[label] ?? 0) + 1;
            return value.apply(target, args);
          };
        },
      });
    }
  }
  for (const entry of coreEntries) vi.doMock(entry, () => counted);
  if (react) vi.doMock(reactEntry, () => ({ ...react }));
  else vi.doUnmock(reactEntry);
  const persist = (await import(/* @vite-ignore */ sourceEntry('@tanstack/query-persist-client-core'))) as typeof PersistCore;
  // react-query-persist-client re-exports and calls persist-client-core: give it the copy just loaded
  vi.doMock(persistCoreEntry, () => persist);
  return {
    persist,
    asyncStorage: await import(/* @vite-ignore */ sourceEntry('@tanstack/query-async-storage-persister')),
    syncStorage: await import(/* @vite-ignore */ sourceEntry('@tanstack/query-sync-storage-persister')),
    react: await import(/* @vite-ignore */ sourceEntry('@tanstack/react-query-persist-client')),
    calls,
    coreCopies: coreEntries.length,
  };
}

/** An in-memory AsyncStorage (and sync Storage) whose contents a test can read back verbatim. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    entries: () => [...items.entries()],
  };
}

/**
 * @tanstack/react-query-devtools' `ReactQueryDevtools`, its `useQueryClient` and `onlineManager` taken
 * from `react` (when given). Loaded from its own module rather than the package index, which swaps in a
 * stub unless NODE_ENV is "development".
 */
export async function loadReactDevtools(react?: object): Promise<{ ReactQueryDevtools: (props: { initialIsOpen?: boolean }) => unknown }> {
  vi.resetModules();
  if (react) vi.doMock(reactEntry, () => ({ ...react }));
  else vi.doUnmock(reactEntry);
  return import(/* @vite-ignore */ join(packageDir('@tanstack/react-query-devtools'), 'src/ReactQueryDevtools.tsx'));
}

/**
 * @trpc/tanstack-react-query (its TypeScript sources, like the persisters above) with its imports of
 * @tanstack/react-query resolved to `react` when given. tRPC compares inputs against the `skipToken` it
 * imports and builds streamed queries through `queryCache.build` and `query.setState`.
 */
export async function loadTrpc(react?: object): Promise<typeof import('@trpc/tanstack-react-query')> {
  vi.resetModules();
  if (react) vi.doMock(reactEntry, () => ({ ...react }));
  else vi.doUnmock(reactEntry);
  return import(/* @vite-ignore */ sourceEntry('@trpc/tanstack-react-query'));
}
