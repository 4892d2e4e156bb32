/** useIsFetching: how many queries matching the filters are fetching right now (for a global spinner). */
import { React } from './reactNamespace';
import { notifyManager } from 'roundtrip/query';
import type { QueryClient, QueryFilters } from 'roundtrip/query';
import { useQueryClient } from './QueryClientProvider';

export function useIsFetching(filters?: Omit<QueryFilters, 'fetchStatus'>, queryClient?: QueryClient): number {
  const client = useQueryClient(queryClient);
  const cache = client.getQueryCache();
  const count = () => client.isFetching(filters);
  return React.useSyncExternalStore(
    React.useCallback((onStoreChange: () => void) => cache.subscribe(notifyManager.batchCalls(onStoreChange)), [cache]),
    count,
    count,
  );
}
