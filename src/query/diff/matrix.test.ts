import { describe } from 'vitest';
import { diff } from './harness';

const modes = ['online', 'always', 'offlineFirst'] as const;

describe('networkMode x online/offline x focus', () => {
  for (const networkMode of modes) {
    for (const online of [true, false]) {
      for (const focused of [true, false]) {
        diff(
          `${networkMode}, ${online ? 'online' : 'offline'}, ${focused ? 'focused' : 'unfocused'}: first fetch fails once, then succeeds`,
          async ({ lib, client, observe, advance, after, failAfter, log }) => {
            client.mount();
            lib.onlineManager.setOnline(online);
            lib.focusManager.setFocused(focused);
            let calls = 0;
            observe(
              'o',
              new lib.QueryObserver(client, {
                queryKey: ['m'],
                networkMode,
                retryDelay: 10,
                queryFn: () => (++calls === 1 ? failAfter(5, 'first') : after(5, 'ok')),
              }),
            );
            await advance(50);
            log('calls before restore', calls);
            lib.onlineManager.setOnline(true);
            lib.focusManager.setFocused(true);
            await advance(50);
            log('calls after restore', calls);
            client.unmount();
          },
        );
      }
    }
  }

  for (const networkMode of modes) {
    diff(`mutation in ${networkMode} mode while offline`, async ({ lib, client, observe, advance, after }) => {
      client.mount();
      lib.onlineManager.setOnline(false);
      const observer = new lib.MutationObserver(client, { networkMode, mutationFn: () => after(5, 'saved') });
      observe('o', observer);
      void observer.mutate(undefined);
      await advance(20);
      lib.onlineManager.setOnline(true);
      await advance(20);
      client.unmount();
    });
  }
});

describe('retry defaults', () => {
  diff('backoff doubles from 1 s and caps at 30 s', async ({ lib, client, observe, advance, failAfter }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['cap'], retry: 6, queryFn: () => failAfter(1, 'x') }));
    for (let i = 0; i < 70; i++) await advance(1000);
  });

  diff('retry: true keeps retrying', async ({ lib, client, observe, advance, failAfter, log }) => {
    let calls = 0;
    observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['forever'],
        retry: true,
        retryDelay: 1,
        queryFn: () => {
          calls++;
          return failAfter(1, 'x');
        },
      }),
    );
    await advance(100);
    log('calls', calls);
  });

  for (const staleTime of [0, 100, Infinity]) {
    for (const refetchOnMount of [true, false, 'always'] as const) {
      diff(`remount with staleTime ${staleTime}, refetchOnMount ${refetchOnMount}`, async ({ lib, client, observe, advance, after, log }) => {
        let n = 0;
        const options = () => ({ queryKey: ['rm'], queryFn: () => after(5, ++n), staleTime, refetchOnMount });
        const stop = observe('first', new lib.QueryObserver(client, options()));
        await advance(50);
        stop();
        await advance(60);
        observe('second', new lib.QueryObserver(client, options()));
        await advance(20);
        log('n', n);
      });
    }
  }
});
