import { describe } from 'vitest';
import { diff } from './harness';

const cacheCallbacks = (lib: any, log: any) => ({
  mutationCache: new lib.MutationCache({
    onMutate: (variables: unknown) => log('cache:onMutate', { variables }),
    onSuccess: (data: unknown, variables: unknown, context: unknown) => log('cache:onSuccess', { data, variables, context }),
    onError: (error: unknown, variables: unknown, context: unknown) => log('cache:onError', { error, variables, context }),
    onSettled: (data: unknown, error: unknown, variables: unknown, context: unknown) => log('cache:onSettled', { data, error, variables, context }),
  }),
});

describe('mutations', () => {
  diff(
    'callback order on success, onMutate context reaches every callback',
    async ({ lib, client, observe, log, after, settle }) => {
      const observer = new lib.MutationObserver(client, {
        mutationFn: (v: number) => after(10, v * 2),
        onMutate: (v: number) => {
          log('onMutate', v);
          return { snapshot: v };
        },
        onSuccess: (d: unknown, v: unknown, c: unknown) => log('onSuccess', { d, v, c }),
        onError: () => log('onError'),
        onSettled: (d: unknown, e: unknown, v: unknown, c: unknown) => log('onSettled', { d, e, v, c }),
      });
      observe('o', observer);
      const result = await settle(
        observer.mutate(21, {
          onSuccess: (d: unknown) => log('mutate:onSuccess', d),
          onSettled: (d: unknown, e: unknown) => log('mutate:onSettled', { d, e }),
        }),
      );
      log('result', result);
    },
    { config: cacheCallbacks },
  );

  diff(
    'callback order on error, mutateAsync rejects',
    async ({ lib, client, observe, log, failAfter, settle }) => {
      const observer = new lib.MutationObserver(client, {
        mutationFn: () => failAfter(10, 'nope'),
        onMutate: async () => 'ctx',
        onError: (e: unknown, v: unknown, c: unknown) => log('onError', { e, v, c }),
        onSettled: (d: unknown, e: unknown) => log('onSettled', { d, e }),
      });
      observe('o', observer);
      await settle(observer.mutate('vars', { onError: (e: unknown) => log('mutate:onError', e) })).catch((e: unknown) => log('rejected', e));
    },
    { config: cacheCallbacks },
  );

  diff('async callbacks delay the following steps', async ({ lib, client, observe, log, after, settle }) => {
    const observer = new lib.MutationObserver(client, {
      mutationFn: () => after(10, 'done'),
      onSuccess: () => after(50, null).then(() => log('onSuccess finished')),
      onSettled: () => log('onSettled'),
    });
    observe('o', observer);
    await settle(observer.mutate(undefined));
  });

  diff('mutation retry with retryDelay; default is no retry', async ({ lib, client, observe, log, failAfter, after, settle }) => {
    let calls = 0;
    const retrying = new lib.MutationObserver(client, {
      retry: 2,
      retryDelay: 30,
      mutationFn: () => (++calls < 3 ? failAfter(5, `f${calls}`) : after(5, 'ok')),
    });
    observe('retrying', retrying);
    await settle(retrying.mutate(undefined));
    const once = new lib.MutationObserver(client, { mutationFn: () => failAfter(5, 'once') });
    observe('once', once);
    await settle(once.mutate(undefined)).catch((e: unknown) => log('once rejected', e));
  });

  diff('offline mutation is paused, resumePausedMutations continues it', async ({ lib, client, observe, log, after, settle, advance }) => {
    lib.onlineManager.setOnline(false);
    const observer = new lib.MutationObserver(client, { mutationFn: (v: string) => after(10, `saved ${v}`) });
    observe('o', observer);
    const promise = observer.mutate('x');
    await advance(100);
    log(
      'paused',
      client
        .getMutationCache()
        .getAll()
        .map((m: any) => m.state.isPaused),
    );
    lib.onlineManager.setOnline(true);
    await settle(client.resumePausedMutations());
    log('result', await settle(promise));
  });

  diff('mounted client resumes paused mutations on reconnect', async ({ lib, client, observe, after, advance }) => {
    client.mount();
    lib.onlineManager.setOnline(false);
    const observer = new lib.MutationObserver(client, { mutationFn: () => after(10, 'ok') });
    observe('o', observer);
    void observer.mutate(undefined);
    await advance(50);
    lib.onlineManager.setOnline(true);
    await advance(50);
    client.unmount();
  });

  diff('scoped mutations run one after another', async ({ lib, client, log, after, advance }) => {
    const make = (name: string) =>
      new lib.MutationObserver(client, {
        scope: { id: 'todos' },
        mutationFn: () => {
          log('start', name);
          return after(30, name);
        },
      });
    const a = make('a');
    const b = make('b');
    const c = make('c');
    for (const [name, observer] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const) {
      observer.subscribe((result: any) => log(name, { status: result.status, isPaused: result.isPaused }));
    }
    void a.mutate(undefined);
    void b.mutate(undefined);
    void c.mutate(undefined);
    await advance(200);
  });

  diff('a scope queue survives removals: gc of finished ones, removal of a waiting one, then a newcomer', async ({ client, log, after, advance }) => {
    const cache = client.getMutationCache();
    const run = (name: string, gcTime: number) =>
      cache
        .build(client, { scope: { id: 'q' }, gcTime, mutationFn: () => after(20, name) })
        .execute(undefined)
        .then(
          (data: unknown) => log('done', data),
          (error: unknown) => log('failed', String(error)),
        );
    void run('a', 5);
    void run('b', 1000);
    void run('c', 1000);
    await advance(30);
    // 'a' finished and is collected; take the waiting 'c' out of the queue by hand
    const waiting = cache.findAll().find((m: any) => m.state.isPaused);
    log(
      'paused before removal',
      cache.findAll().map((m: any) => [m.mutationId, m.state.status, m.state.isPaused]),
    );
    if (waiting) cache.remove(waiting);
    void run('d', 1000);
    await advance(200);
    log(
      'left',
      cache.findAll().map((m: any) => [m.mutationId, m.state.status]),
    );
  });

  diff('mutate callbacks only for the latest mutate call; reset', async ({ lib, client, log, after, advance, observe }) => {
    const observer = new lib.MutationObserver(client, { mutationFn: (v: number) => after(20 - v * 5, v) });
    observe('o', observer);
    void observer.mutate(1, { onSuccess: (d: unknown) => log('first cb', d) });
    void observer.mutate(2, { onSuccess: (d: unknown) => log('second cb', d) });
    await advance(50);
    observer.reset();
    await advance(1);
  });

  diff('mutation gc after gcTime; MutationCache find/findAll/filters', async ({ lib, client, log, after, settle, advance }) => {
    const observer = new lib.MutationObserver(client, { mutationKey: ['todo', 'add'], gcTime: 100, mutationFn: () => after(5, 1) });
    await settle(observer.mutate(undefined));
    const cache = client.getMutationCache();
    log('find', cache.find({ mutationKey: ['todo', 'add'] })?.mutationId);
    log('findAll partial', cache.findAll({ mutationKey: ['todo'] }).length);
    log('findAll status', cache.findAll({ status: 'success' }).length);
    log('matchMutation', lib.matchMutation({ mutationKey: ['todo'], exact: true }, cache.getAll()[0] as any));
    await advance(150);
    log('collected', cache.getAll().length);
  });

  diff('mutation without mutationFn rejects', async ({ lib, client, log, settle }) => {
    const observer = new lib.MutationObserver(client, {});
    await settle(observer.mutate(undefined)).catch((e: unknown) => log('rejected', e));
  });

  diff('setOptions with a new mutationKey resets the observer', async ({ lib, client, observe, after, settle }) => {
    const observer = new lib.MutationObserver(client, { mutationKey: ['a'], mutationFn: () => after(5, 'a') });
    observe('o', observer);
    await settle(observer.mutate(undefined));
    observer.setOptions({ mutationKey: ['b'], mutationFn: () => after(5, 'b') });
  });

  diff('mutation defaults by key', async ({ lib, client, observe, settle, failAfter, log }) => {
    client.setMutationDefaults(['retry'], { retry: 1, retryDelay: 5 });
    const observer = new lib.MutationObserver(client, { mutationKey: ['retry'], mutationFn: () => failAfter(5, 'x') });
    observe('o', observer);
    await settle(observer.mutate(undefined)).catch((e: unknown) => log('rejected', e));
  });
});
