import { describe } from 'vitest';
import { diff } from './harness';

describe('cancellation', () => {
  diff('refetch with cancelRefetch (default) restarts a running fetch that has data', async ({ lib, client, observe, advance, after, track, log }) => {
    let n = 0;
    const observer = new lib.QueryObserver(client, { queryKey: ['c'], queryFn: () => after(50, ++n) });
    observe('o', observer);
    await advance(60);
    track('r1', observer.refetch());
    await advance(10);
    track('r2', observer.refetch());
    await advance(100);
    log('n', n);
  });

  diff('refetch with cancelRefetch: false joins the running fetch', async ({ lib, client, observe, advance, after, track, log }) => {
    let n = 0;
    const observer = new lib.QueryObserver(client, { queryKey: ['c2'], queryFn: () => after(50, ++n) });
    observe('o', observer);
    await advance(60);
    track('r1', observer.refetch());
    await advance(10);
    track('r2', observer.refetch({ cancelRefetch: false }));
    await advance(100);
    log('n', n);
  });

  diff('cancelQueries reverts to previous state (no data -> pending idle)', async ({ lib, client, observe, advance, after, track, log }) => {
    observe('o', new lib.QueryObserver(client, { queryKey: ['cq'], queryFn: () => after(100, 'late') }));
    await advance(10);
    track('cancel', client.cancelQueries({ queryKey: ['cq'] }));
    await advance(200);
    log('state', client.getQueryState(['cq']));
  });

  diff('cancelQueries with data reverts to the data; signal aborted', async ({ client, advance, after, track, log }) => {
    let signal: AbortSignal | undefined;
    client.setQueryData(['cd'], 'old');
    track(
      'fetch',
      client.fetchQuery({
        queryKey: ['cd'],
        queryFn: (ctx: any) => {
          signal = ctx.signal;
          return after(100, 'new');
        },
      }),
    );
    await advance(10);
    await client.cancelQueries({ queryKey: ['cd'] });
    log('aborted', signal?.aborted);
    await advance(200);
    log('state', client.getQueryState(['cd']));
  });

  diff('query.cancel() without revert sets error state CancelledError', async ({ lib, client, advance, after, track, log }) => {
    track('fetch', client.fetchQuery({ queryKey: ['cx'], queryFn: () => after(100, 'x') }));
    await advance(10);
    const query = client.getQueryCache().find({ queryKey: ['cx'] })!;
    await query.cancel();
    await advance(10);
    log('state', query.state);
    log('isCancelledError', lib.isCancelledError(query.state.error));
  });

  diff('unsubscribing last observer aborts a queryFn that consumed the signal', async ({ lib, client, observe, advance, after, log }) => {
    let signal: AbortSignal | undefined;
    const stop = observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['abort'],
        queryFn: (ctx: any) => {
          signal = ctx.signal;
          return after(100, 'x');
        },
      }),
    );
    await advance(10);
    stop();
    log('aborted', signal?.aborted);
    await advance(200);
    log('state', client.getQueryState(['abort']));
  });

  diff('unsubscribing last observer without signal lets the fetch finish but stops retries', async ({ lib, client, observe, advance, failAfter, log }) => {
    let calls = 0;
    const stop = observe(
      'o',
      new lib.QueryObserver(client, {
        queryKey: ['noabort'],
        retryDelay: 10,
        queryFn: () => {
          calls++;
          return failAfter(50, 'e');
        },
      }),
    );
    await advance(10);
    stop();
    await advance(500);
    log('calls', calls);
    log('state', client.getQueryState(['noabort']));
  });

  diff('CancelledError shape and isCancelledError', async ({ lib, log }) => {
    const error = new lib.CancelledError({ revert: true, silent: false });
    log('error', { message: error.message, revert: error.revert, silent: error.silent });
    log('is', [lib.isCancelledError(error), lib.isCancelledError(new Error('x'))]);
  });
});
