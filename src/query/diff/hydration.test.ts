import { describe } from 'vitest';
import { diff } from './harness';

describe('dehydrate / hydrate / streamedQuery', () => {
  diff('dehydrate defaults: success queries and paused mutations', async ({ lib, client, log, after, failAfter, settle, advance }) => {
    await settle(client.prefetchQuery({ queryKey: ['ok'], queryFn: () => after(5, { v: 1 }), meta: { m: 1 } }));
    await settle(client.prefetchQuery({ queryKey: ['bad'], queryFn: () => failAfter(5, 'x') }));
    lib.onlineManager.setOnline(false);
    const m = new lib.MutationObserver(client, { mutationKey: ['save'], mutationFn: () => after(5, 1), scope: { id: 's' } });
    void m.mutate(undefined);
    await advance(10);
    const state = lib.dehydrate(client);
    log('dehydrated', state);
    log('defaults', [
      client
        .getQueryCache()
        .getAll()
        .map((q: any) => lib.defaultShouldDehydrateQuery(q)),
      client
        .getMutationCache()
        .getAll()
        .map((x: any) => lib.defaultShouldDehydrateMutation(x)),
    ]);
  });

  diff('hydrate into a fresh client, then observe', async ({ lib, client, log, after, settle, observe, advance }) => {
    await settle(client.prefetchQuery({ queryKey: ['h'], queryFn: () => after(5, 'server') }));
    const state = JSON.parse(JSON.stringify(lib.dehydrate(client)));
    const other = new lib.QueryClient();
    lib.hydrate(other, state);
    log('hydrated', other.getQueryState(['h']));
    observe('o', new lib.QueryObserver(other, { queryKey: ['h'], queryFn: () => after(5, 'client'), staleTime: 1000 }));
    await advance(20);
    other.clear();
  });

  diff('hydrate does not overwrite newer data; serializeData/deserializeData', async ({ lib, client, log, after, settle, advance }) => {
    await settle(client.prefetchQuery({ queryKey: ['n'], queryFn: () => after(5, 'old') }));
    const older = lib.dehydrate(client, { serializeData: (d: unknown) => ({ wrapped: d }) });
    await advance(100);
    const other = new lib.QueryClient();
    other.setQueryData(['n'], 'newer');
    lib.hydrate(other, older, { defaultOptions: { deserializeData: (d: any) => d.wrapped } });
    log('kept', other.getQueryData(['n']));
    const third = new lib.QueryClient();
    lib.hydrate(third, older, { defaultOptions: { deserializeData: (d: any) => d.wrapped } });
    log('restored', third.getQueryData(['n']));
    other.clear();
    third.clear();
  });

  diff('dehydrate a pending query with its promise; hydrate adopts it', async ({ lib, client, log, after, advance }) => {
    void client.prefetchQuery({ queryKey: ['p'], queryFn: () => after(50, 'eventually') });
    const state = lib.dehydrate(client, { shouldDehydrateQuery: () => true });
    log(
      'has promise',
      state.queries.map((q: any) => !!q.promise),
    );
    const other = new lib.QueryClient();
    lib.hydrate(other, state);
    log('pending', other.getQueryState(['p']));
    await advance(100);
    log('resolved', other.getQueryState(['p']));
    other.clear();
  });

  diff('hydrate paused mutations and resume them', async ({ lib, client, log, after, settle, advance }) => {
    lib.onlineManager.setOnline(false);
    client.setMutationDefaults(['save'], { mutationFn: (v: string) => after(5, `saved ${v}`) });
    const m = new lib.MutationObserver(client, { mutationKey: ['save'] });
    void m.mutate('x').catch(() => undefined);
    await advance(10);
    const state = lib.dehydrate(client);
    const other = new lib.QueryClient();
    other.setMutationDefaults(['save'], { mutationFn: (v: string) => after(5, `resumed ${v}`) });
    lib.hydrate(other, state);
    lib.onlineManager.setOnline(true);
    await settle(other.resumePausedMutations());
    log(
      'mutations',
      other
        .getMutationCache()
        .getAll()
        .map((x: any) => x.state),
    );
    other.clear();
  });

  diff('experimental_streamedQuery appends chunks as they arrive', async ({ lib, client, observe, after, advance, settle }) => {
    async function* chunks() {
      for (let i = 0; i < 3; i++) yield await after(10, i);
    }
    const observer = new lib.QueryObserver(client, {
      queryKey: ['stream'],
      queryFn: lib.experimental_streamedQuery({ streamFn: () => chunks() }),
    });
    observe('o', observer);
    await advance(50);
    await settle(observer.refetch());
  });

  diff('streamedQuery with reducer and refetchMode replace', async ({ lib, client, observe, after, advance, settle }) => {
    async function* chunks() {
      for (let i = 1; i <= 3; i++) yield await after(10, i);
    }
    const observer = new lib.QueryObserver(client, {
      queryKey: ['stream2'],
      queryFn: lib.experimental_streamedQuery({
        streamFn: () => chunks(),
        reducer: (sum: number, chunk: number) => sum + chunk,
        initialValue: 0,
        refetchMode: 'replace',
      }),
    });
    observe('o', observer);
    await advance(50);
    await settle(observer.refetch());
  });
});
