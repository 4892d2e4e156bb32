/**
 * HydrationBoundary: put server-fetched (dehydrated) queries into the client's cache.
 *
 * Queries the cache does not have yet are hydrated during render, so children render with the data on
 * their first pass. Queries it already has are hydrated only after commit, and only if the incoming data is
 * newer: in a transition that is later abandoned, the screen currently shown must not jump to data that
 * belongs to the page that never arrived.
 */
import { React } from './reactNamespace';
import { hydrate } from 'roundtrip/query';
import type { DehydratedState, HydrateOptions, OmitKeyof, QueryClient } from 'roundtrip/query';
import { useQueryClient } from './QueryClientProvider';

export interface HydrationBoundaryProps {
  state: DehydratedState | null | undefined;
  options?: OmitKeyof<HydrateOptions, 'defaultOptions'> & {
    defaultOptions?: OmitKeyof<Exclude<HydrateOptions['defaultOptions'], undefined>, 'mutations'>;
  };
  children?: React.ReactNode;
  queryClient?: QueryClient;
}

type DehydratedQueries = DehydratedState['queries'];

export function HydrationBoundary({ children, options = {}, state, queryClient }: HydrationBoundaryProps): React.ReactElement {
  const client = useQueryClient(queryClient);

  // Read through a ref: a new `options` object each render must not re-run the hydration below.
  const optionsRef = React.useRef(options);
  React.useEffect(() => {
    optionsRef.current = options;
  });

  // useMemo only to skip repeated work; what runs inside is safe to run on every render.
  const deferred: DehydratedQueries | undefined = React.useMemo(() => {
    if (!state || typeof state !== 'object') return undefined;
    const cache = client.getQueryCache();
    const fresh: DehydratedQueries = [];
    const newer: DehydratedQueries = [];
    // `queries` comes from outside (a server response); tolerate it missing.
    for (const dehydrated of state.queries || []) {
      const existing = cache.get(dehydrated.queryHash);
      if (!existing) {
        fresh.push(dehydrated);
        continue;
      }
      const isNewer =
        dehydrated.state.dataUpdatedAt > existing.state.dataUpdatedAt ||
        (dehydrated.promise !== undefined &&
          existing.state.status !== 'pending' &&
          existing.state.fetchStatus !== 'fetching' &&
          dehydrated.dehydratedAt > existing.state.dataUpdatedAt);
      if (isNewer) newer.push(dehydrated);
    }
    if (fresh.length > 0) hydrate(client, { queries: fresh }, optionsRef.current);
    return newer.length > 0 ? newer : undefined;
  }, [client, state]);

  React.useEffect(() => {
    if (deferred) hydrate(client, { queries: deferred }, optionsRef.current);
  }, [client, deferred]);

  return children as React.ReactElement;
}
