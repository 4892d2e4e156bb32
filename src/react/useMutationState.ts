/**
 * useMutationState and useIsMutating: read the mutation cache (not one observer), so a component can show
 * every pending upload, or a count, wherever the mutations were started.
 *
 * The snapshot must be referentially stable between renders for useSyncExternalStore; it is recomputed
 * only when the matching mutations or their states change, and structurally shared with the previous one.
 */
import { React } from './reactNamespace';
import { notifyManager, replaceEqualDeep } from 'roundtrip/query';
import type { Mutation, MutationCache, MutationFilters, MutationState, QueryClient } from 'roundtrip/query';
import { useQueryClient } from './QueryClientProvider';

type MutationTypeFromResult<TResult> = [TResult] extends [MutationState<infer TData, infer TError, infer TVariables, infer TOnMutateResult>]
  ? Mutation<TData, TError, TVariables, TOnMutateResult>
  : Mutation;

type MutationStateOptions<TResult = MutationState, TMutation extends Mutation<any, any, any, any> = MutationTypeFromResult<TResult>> = {
  filters?: MutationFilters;
  select?: (mutation: TMutation) => TResult;
};

/** Per hook instance: remembers the last result across renders so unchanged selections keep their identity. */
function createSnapshotCache<TResult, TMutation extends Mutation<any, any, any, any>>() {
  let previous: Array<TResult> | undefined;
  return (cache: MutationCache, options: MutationStateOptions<TResult, TMutation>) => {
    let inputs: Array<unknown> = [];
    let snapshot: Array<TResult> | undefined;
    return (): Array<TResult> => {
      const mutations = cache.findAll(options.filters);
      const nextInputs = mutations.flatMap((mutation) => [mutation, mutation.state]);
      const changed = !snapshot || nextInputs.length !== inputs.length || nextInputs.some((input, i) => !Object.is(input, inputs[i]));
      if (changed) {
        inputs = nextInputs;
        const selected = mutations.map((mutation) => (options.select ? options.select(mutation as TMutation) : mutation.state) as TResult);
        snapshot = replaceEqualDeep(previous, selected);
        previous = snapshot;
      }
      return snapshot!;
    };
  };
}

export function useMutationState<TResult = MutationState, TMutation extends Mutation<any, any, any, any> = MutationTypeFromResult<TResult>>(
  options: MutationStateOptions<TResult, TMutation> = {},
  queryClient?: QueryClient,
): Array<TResult> {
  const cache = useQueryClient(queryClient).getMutationCache();
  const [createSnapshot] = React.useState(() => createSnapshotCache<TResult, TMutation>());
  const getSnapshot = createSnapshot(cache, options);
  return React.useSyncExternalStore(
    React.useCallback((onStoreChange: () => void) => cache.subscribe(notifyManager.batchCalls(onStoreChange)), [cache]),
    getSnapshot,
    getSnapshot,
  );
}

export function useIsMutating(filters?: Omit<MutationFilters, 'status'>, queryClient?: QueryClient): number {
  const client = useQueryClient(queryClient);
  return useMutationState({ filters: { ...filters, status: 'pending' } }, client).length;
}
