import { describe } from 'vitest';
import { diff } from './harness';

describe('network mode, focus and polling', () => {
  diff("networkMode 'online' while offline: paused, resumes on reconnect", async ({ lib, client, observe, advance, after }) => {
    client.mount();
    lib.onlineManager.setOnline(false);
    observe('o', new lib.QueryObserver(client, { queryKey: ['net'], queryFn: () => after(10, 'data') }));
    await advance(100);
    lib.onlineManager.setOnline(true);
    await advance(50);
    client.unmount();
  });

  diff("networkMode 'always' fetches while offline", async ({ lib, client, observe, advance, after }) => {
    lib.onlineManager.setOnline(false);
    observe('o', new lib.QueryObserver(client, { queryKey: ['always'], networkMode: 'always', queryFn: () => after(10, 'x') }));
    await advance(50);
  });

  diff("networkMode 'offlineFirst': first attempt runs, retries pause offline", async ({ lib, client, observe, advance, failAfter, after }) => {
    client.mount();
    lib.onlineManager.setOnline(false);
    let calls = 0;
    observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['of'],
        networkMode: 'offlineFirst',
        retryDelay: 10,
        queryFn: () => (++calls === 1 ? failAfter(5, 'cache miss') : after(5, 'net')),
      }),
    );
    await advance(100);
    lib.onlineManager.setOnline(true);
    await advance(50);
    client.unmount();
  });

  diff('going offline between retries pauses the retryer', async ({ lib, client, observe, advance, failAfter, after }) => {
    client.mount();
    let calls = 0;
    observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['mid'],
        retryDelay: 100,
        queryFn: () => (++calls < 2 ? failAfter(5, 'first') : after(5, 'second')),
      }),
    );
    await advance(10);
    lib.onlineManager.setOnline(false);
    await advance(500);
    lib.onlineManager.setOnline(true);
    await advance(50);
    client.unmount();
  });

  diff('unfocused window pauses retries until focus', async ({ lib, client, observe, advance, failAfter, after }) => {
    client.mount();
    let calls = 0;
    observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['focus-retry'],
        retryDelay: 20,
        queryFn: () => (++calls < 2 ? failAfter(5, 'e') : after(5, 'ok')),
      }),
    );
    await advance(6);
    lib.focusManager.setFocused(false);
    await advance(200);
    lib.focusManager.setFocused(true);
    await advance(50);
    client.unmount();
  });

  diff('refetchOnWindowFocus refetches stale queries; false and always', async ({ lib, client, observe, advance, after, log }) => {
    client.mount();
    let n = 0;
    const queryFn = () => after(5, ++n);
    observe('default', new lib.QueryObserver(client, { queryKey: ['f1'], queryFn }));
    observe('off', new lib.QueryObserver(client, { queryKey: ['f2'], queryFn, refetchOnWindowFocus: false }));
    observe('always', new lib.QueryObserver(client, { queryKey: ['f3'], queryFn, refetchOnWindowFocus: 'always', staleTime: Infinity }));
    observe('fresh', new lib.QueryObserver(client, { queryKey: ['f4'], queryFn, staleTime: 10000 }));
    await advance(20);
    lib.focusManager.setFocused(false);
    lib.focusManager.setFocused(true);
    await advance(20);
    log('n', n);
    client.unmount();
  });

  diff('refetchOnReconnect, and its default for networkMode always', async ({ lib, client, observe, advance, after, log }) => {
    client.mount();
    let n = 0;
    const queryFn = () => after(5, ++n);
    observe('online', new lib.QueryObserver(client, { queryKey: ['rc1'], queryFn }));
    observe('always', new lib.QueryObserver(client, { queryKey: ['rc2'], queryFn, networkMode: 'always' }));
    observe('off', new lib.QueryObserver(client, { queryKey: ['rc3'], queryFn, refetchOnReconnect: false }));
    await advance(20);
    lib.onlineManager.setOnline(false);
    lib.onlineManager.setOnline(true);
    await advance(20);
    log('n', n);
    client.unmount();
  });

  diff('refetchInterval polls; false turns polling off', async ({ lib, client, observe, advance, after, log }) => {
    let n = 0;
    const observer = new lib.QueryObserver(client, { queryKey: ['poll'], queryFn: () => after(5, ++n), refetchInterval: 100 });
    observe('o', observer);
    await advance(350);
    observer.setOptions({ queryKey: ['poll'], queryFn: () => after(5, ++n), refetchInterval: false });
    await advance(500);
    log('n', n);
  });

  diff('refetchInterval as a function; pauses in background unless asked', async ({ lib, client, observe, advance, after, log }) => {
    let n = 0;
    observe(
      'fn',
      new lib.QueryObserver(client, {
        queryKey: ['pollfn'],
        queryFn: () => after(5, ++n),
        refetchInterval: (query: any) => ((query.state.data ?? 0) < 3 ? 50 : false),
      }),
    );
    observe(
      'bg',
      new lib.QueryObserver(client, {
        queryKey: ['pollbg'],
        queryFn: () => after(5, 'bg'),
        refetchInterval: 100,
        refetchIntervalInBackground: true,
      }),
    );
    observe('fg', new lib.QueryObserver(client, { queryKey: ['pollfg'], queryFn: () => after(5, 'fg'), refetchInterval: 100 }));
    await advance(120);
    lib.focusManager.setFocused(false);
    await advance(300);
    log('n', n);
  });

  diff('refetchInterval 0 does not poll', async ({ lib, client, observe, advance, after }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['zero'], queryFn: () => after(5, 1), refetchInterval: 0 }));
    await advance(300);
  });

  diff('unsubscribing while paused before data cancels and reverts', async ({ lib, client, observe, advance, after, log }) => {
    lib.onlineManager.setOnline(false);
    const stop = observe('o', new lib.QueryObserver(client, { queryKey: ['pp'], queryFn: () => after(5, 1) }));
    await advance(10);
    stop();
    await advance(10);
    log('state', client.getQueryState(['pp']));
  });

  diff('fetchQuery while offline stays paused; refetchQueries does not wait for it', async ({ lib, client, advance, after, track, log }) => {
    client.mount();
    lib.onlineManager.setOnline(false);
    track('fetch', client.fetchQuery({ queryKey: ['off'], queryFn: () => after(5, 'x') }));
    await advance(10);
    track('refetch', client.refetchQueries({ queryKey: ['off'] }));
    await advance(10);
    log('state', client.getQueryState(['off']));
    lib.onlineManager.setOnline(true);
    await advance(20);
    client.unmount();
  });
});
