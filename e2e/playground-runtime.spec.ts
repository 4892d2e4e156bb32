import { expect, test } from '@playwright/test';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { playground } from './helpers';
import { vizPanel } from './viz-helpers';

const PAGE = '/query/overview/';

async function openWithCode(page: import('@playwright/test').Page, code: string) {
  const hash = formatShareHash({ id: 'hello-query', encoded: await encodeShareState({ code }) });
  await page.goto(`${PAGE}${hash}`);
  const pg = playground(page, 'hello-query');
  await expect.poll(() => pg.staticCode.innerText()).toBe(code);
  return pg;
}

/** Errors the page reports as uncaught to the browser (the playground should have shown them itself). */
function collectPageErrors(page: import('@playwright/test').Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('a React snippet renders a live preview with roundtrip/react', async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "import { createRoot } from 'react-dom/client';",
      "import { QueryClient, QueryClientProvider, useQuery } from 'roundtrip/react';",
      '',
      'function Todos() {',
      "  const { data, status } = useQuery({ queryKey: ['todos'], queryFn: async () => ['Learn HTTP', 'Watch it work'] });",
      "  if (status !== 'success') return <p>Loading…</p>;",
      '  return <ul>{data.map((t) => <li key={t}>{t}</li>)}</ul>;',
      '}',
      '',
      "createRoot(document.getElementById('root')!).render(",
      '  <QueryClientProvider client={new QueryClient()}><Todos /></QueryClientProvider>,',
      ');',
      "console.log('rendered');",
      '',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output).toContainText('rendered');
  const frame = pg.root.locator('.rt-frame-host iframe');
  await expect(frame).toHaveAttribute('data-visible');
  await expect(frame).toHaveAttribute('title', /Preview/);
  await expect(page.frameLocator('.rt-frame-host iframe').getByText('Watch it work')).toBeVisible();
  expect((await frame.boundingBox())!.height).toBeGreaterThan(20);
});

test('every run starts in a fresh realm, so runs replay identically', async ({ page }) => {
  const pg = await openWithCode(page, 'const g = globalThis as { runs?: number };\ng.runs = (g.runs ?? 0) + 1;\nconsole.log(`run number ${g.runs}`);\n');
  for (let i = 0; i < 2; i++) {
    await pg.run.click();
    await expect(pg.output).toContainText(/Finished in/);
    await expect(pg.output).toContainText('run number 1');
  }
  // A snippet that renders nothing keeps the sandbox hidden.
  await expect(pg.root.locator('.rt-frame-host iframe')).not.toHaveAttribute('data-visible');
});

test('console output logged after the run finished still shows, until the next run', async ({ page }) => {
  const pg = await openWithCode(page, "setTimeout(() => console.log('logged later'), 50);\nconsole.log('top level done');\n");
  await pg.run.click();
  await expect(pg.output).toContainText('top level done');
  await expect(pg.output).toContainText(/Finished in \d+ ms\./);
  await expect(pg.output).toContainText('logged later');
});

test('errors thrown in callbacks (a timer, a microtask) show in the console with their line, as DevTools shows them', async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "queueMicrotask(() => { throw new Error('in a microtask'); });",
      "setTimeout(() => { throw new TypeError('late boom'); }, 20);",
      "console.log('body done');",
      '',
    ].join('\n'),
  );
  const browserErrors = collectPageErrors(page);
  await pg.run.click();
  await expect(pg.output).toContainText('body done');
  await expect(pg.output.locator('.rt-error')).toHaveText([
    'Uncaught Error: in a microtask (line 1, column 30)',
    'Uncaught TypeError: late boom (line 2, column 26)',
  ]);
  // Reported once, where the reader looks, not a second time in the browser's own console.
  expect(browserErrors).toEqual([]);
});

test('a promise the snippet rejects and nobody handles shows as "Uncaught (in promise)", as DevTools shows it, at the column it was written', async ({
  page,
}) => {
  const lines = [
    "const why: string = 'nobody awaited me'; Promise.reject(new Error(why));",
    'async function load(): Promise<void> {',
    '  await null;',
    "  const message: string = 'failed after an await'; throw new TypeError(message);",
    '}',
    'load();',
    "console.log('body done');",
    '',
  ];
  const pg = await openWithCode(page, lines.join('\n'));
  const browserErrors = collectPageErrors(page);
  await pg.run.click();
  await expect(pg.output).toContainText('body done');
  // Columns as written, type annotations and all (the compiler removes them; the column map puts them back).
  const column = (line: number, text: string) => (lines[line - 1] ?? '').indexOf(text) + 1;
  await expect(pg.output.locator('.rt-error')).toHaveText([
    `Uncaught (in promise) Error: nobody awaited me (line 1, column ${column(1, 'new Error')})`,
    `Uncaught (in promise) TypeError: failed after an await (line 4, column ${column(4, 'new TypeError')})`,
  ]);
  expect(browserErrors).toEqual([]);
});

test('console methods from DevTools work: table, group, count, time, assert', async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "console.table([{ id: 1, title: 'Learn HTTP' }]);",
      "console.group('outer');",
      "console.count('hits');",
      'console.groupEnd();',
      "console.time('t');",
      "console.timeEnd('t');",
      "console.assert(1 > 2, 'math broke');",
      "consol.log('typo');",
      '',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output).toContainText('| (index) | id | title      |');
  await expect(pg.output).toContainText('| 0       | 1  | Learn HTTP |');
  await expect(pg.output).toContainText('outer\n');
  await expect(pg.output.locator('.rt-info').first()).toHaveText('  hits: 1');
  await expect(pg.output).toContainText(/t: [\d.]+ ms/);
  await expect(pg.output.locator('.rt-error')).toHaveText('Assertion failed: math broke');
  // The typo on line 8 is placed at its first column, where the editor's marker goes.
  await expect(pg.output).toContainText('Error (line 8, column 1): ReferenceError: consol is not defined');
});

test('a failed sim.fetch shows why it failed (the error\'s cause), not just "Failed to fetch"', async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "import { createSimulation } from 'roundtrip/wire';",
      'const sim = createSimulation({ seed: 1 });',
      "await sim.fetch('https://example.test/nope');",
      '',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output.locator('.rt-failure')).toContainText(/TypeError: Failed to fetch \(caused by \w*Error: .+\)/);
});

test('a rejection reported as unhandled that gets a handler later says so, as Node does (DevTools withdraws its line)', async ({ page }) => {
  const lines = [
    "const late: Promise<never> = Promise.reject(new Error('handled after a while'));",
    'await new Promise((resolve) => setTimeout(resolve, 20));',
    "await late.catch(() => console.log('caught it'));",
    '',
  ];
  const pg = await openWithCode(page, lines.join('\n'));
  await pg.run.click();
  await expect(pg.output).toContainText('caught it');
  const where = `line 1, column ${(lines[0] ?? '').indexOf('new Error') + 1}`;
  await expect(pg.output.locator('.rt-error')).toHaveText(`Uncaught (in promise) Error: handled after a while (${where})`);
  await expect(pg.output.locator('.rt-warn')).toHaveText(
    `Handled later: the rejection above (Error: handled after a while (${where})) got a handler after all.`,
  );
});

test('code the compiler lets through but the engine cannot parse is one error, at its line and column', async ({ page }) => {
  const lines = ["console.log('never runs');", 'let total = 1;', 'const step: number = 2; let total = step;', ''];
  const pg = await openWithCode(page, lines.join('\n'));
  const browserErrors = collectPageErrors(page);
  await pg.run.click();
  const column = (lines[2] ?? '').lastIndexOf('total') + 1;
  await expect(pg.output.locator('.rt-failure')).toHaveText(`Error (line 3, column ${column}): SyntaxError: Identifier 'total' has already been declared`);
  // Reported once: not also as an uncaught error, and nothing of the snippet ran.
  await expect(pg.output.locator('.rt-error')).toHaveCount(0);
  await expect(pg.output).not.toContainText('never runs');
  expect(browserErrors).toEqual([]);
});

test('a sim.fetch nobody awaited that fails shows as "Uncaught (in promise)": the library\'s errors are not muted', async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "import { createSimulation } from 'roundtrip/wire';",
      'const sim = createSimulation({ seed: 1 });',
      "sim.fetch('https://example.test/nope');",
      "console.log('body done');",
      '',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output).toContainText('body done');
  await expect(pg.output.locator('.rt-error')).toContainText(/^Uncaught \(in promise\) TypeError: Failed to fetch \(caused by \w*Error: .+\)/);
});

test('on a host that does not allow CORS for the sandbox scripts, snippets still run', async ({ page }) => {
  const refused: string[] = [];
  // What a static host without the Access-Control-Allow-Origin header (public/_headers) does.
  await page.context().route('**/sandbox/*.js', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['access-control-allow-origin'];
    if (route.request().headers().origin !== undefined) refused.push(new URL(route.request().url()).pathname);
    await route.fulfill({ response, headers });
  });
  const pg = await openWithCode(
    page,
    "import { createSimulation } from 'roundtrip/wire';\nconst sim = createSimulation({ seed: 1 });\nconsole.log('status', (await sim.fetch('/todos')).status);\n",
  );
  await pg.run.click();
  await expect(pg.output).toContainText(/status \d{3}/);
  // The CORS loads were tried (and refused) before the plain ones.
  expect(refused).toContain('/sandbox/wire.js');
  // A spare sandbox may still be loading its scripts through the route: let those end with the test rather
  // than fail a later test's worker with "route.fetch: Test ended" (it did, once in CI).
  await page.context().unrouteAll({ behavior: 'ignoreErrors' });
});

test('unbounded recursion is named, with its line, and the next run works', async ({ page }) => {
  const pg = await openWithCode(page, 'const x = 1;\nfunction down(n: number): number {\n  return down(n + 1) + x;\n}\ndown(0);\n');
  await pg.run.click();
  await expect(pg.output).toContainText(/Error \(line [2-3], column \d+\): RangeError: Maximum call stack size exceeded at line [2-3]: runaway recursion\./);
  await pg.replaceCode("console.log('after recursion')");
  await pg.run.click();
  await expect(pg.output).toContainText('after recursion');
});

test('microtask recursion that never yields is stopped by the watchdog, and the next run works', async ({ page }) => {
  // Three sandboxes start in this test (the run, the stopped one's replacement, the next run) and a spinning one
  // holds a renderer process until it is dropped: on a busy 2-core machine that alone took most of the default
  // 60 s, with Monaco's start on top (issue #29). Waits, not speed: every step below waits for what it needs.
  test.setTimeout(180_000);
  // Each microtask queues the next: the run's own promise resolves (so 'done' arrives), then the thread never
  // reaches a task again. Only the watchdog can tell.
  const pg = await openWithCode(page, "console.log('spinning');\nfunction again(): void {\n  queueMicrotask(again);\n}\nagain();\n");
  await pg.run.click();
  await expect(pg.output).toContainText('spinning');
  // The watchdog stops it after 2 s of silence, as the host's own timer sees it: on a loaded machine, later.
  await expect(pg.output).toContainText('Stopped: the snippet blocked for more than 2 s', { timeout: 60_000 });
  // The page stayed responsive: the UI still reacts.
  await expect(pg.run).toBeEnabled();
  // The next code comes as a link to this playground pasted into the same tab (the island loads a fragment-only
  // change in place), rather than typed into Monaco, whose start on a busy machine was the slow part.
  const next = "console.log('after the spin');\n";
  await page.evaluate(async (hash) => void (location.hash = hash), formatShareHash({ id: 'hello-query', encoded: await encodeShareState({ code: next }) }));
  await expect.poll(() => pg.staticCode.innerText()).toBe(next);
  await pg.run.click();
  await expect(pg.output).toContainText('after the spin', { timeout: 60_000 });
  await expect(pg.output).not.toContainText('Stopped');
});

test('the snippet cannot open a popup (no allow-popups)', async ({ page, context }) => {
  const popups: string[] = [];
  context.on('page', (p) => popups.push(p.url()));
  const pg = await openWithCode(
    page,
    "let opened: Window | null = null;\ntry { opened = window.open('https://example.com/', '_blank'); } catch (e) { console.log('threw', (e as Error).name); }\nconsole.log('popup handle:', String(opened));\n",
  );
  await pg.run.click();
  await expect(pg.output).toContainText('popup handle: null');
  await page.waitForTimeout(500); // a popup, if one opened, would have been reported by now
  expect(popups).toEqual([]);
  expect(context.pages()).toHaveLength(1);
});

test('the page snippet runs precompiled with only the chunks it imports; edited code brings the compiler', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/sandbox/') && path.endsWith('.js')) scripts.push(path);
  });
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  await pg.run.click();
  await expect(pg.output).toContainText('Finished in');
  await expect(pg.output).toContainText('GET http://api.example/todos');
  // The first sandbox, and the spare prepared after the run, load the core and the wire chunk, nothing else.
  await expect.poll(() => scripts.filter((s) => s.endsWith('/wire.js')).length).toBe(2);
  expect([...new Set(scripts)].sort()).toEqual(['/sandbox/runtime.js', '/sandbox/wire.js']);

  // Edited code is compiled in the sandbox, and a syntax error still points at its line and column.
  const hash = formatShareHash({
    id: 'hello-wire',
    encoded: await encodeShareState({ code: "import { createSimulation } from 'roundtrip/wire';\nconst x: number = (1;\n" }),
  });
  await page.goto('about:blank');
  await page.goto(`/http/overview/${hash}`);
  const edited = playground(page, 'hello-wire');
  await edited.run.click();
  await expect(edited.output).toContainText('Syntax error (line 2');
  expect(scripts).toContain('/sandbox/compiler.js');
  expect(scripts).not.toContain('/sandbox/react.js');
});

test('Run pressed before the island hydrated runs the snippet exactly once, in the sandbox opened on the way in', async ({ page }) => {
  const sandboxPages: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/sandbox/') && path.endsWith('.html')) sandboxPages.push(path);
  });
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  // The island cannot hydrate before the press: its component's module is held until the press has landed. (It
  // used to be a race between the press and the island's modules, which a busy machine lost the other way: the
  // island had hydrated by the time the press came, issue #29.)
  const island = pg.root.locator('xpath=ancestor::astro-island');
  const component = new URL((await island.getAttribute('component-url'))!, page.url()).pathname;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route(
    (url) => url.pathname === component,
    async (route) => {
      held.push(route.request().url());
      await released;
      await route.continue();
    },
  );
  // Whether the island had hydrated when the press landed (Astro drops `ssr` from the island once it has).
  await page.evaluate(() => {
    const island = document.querySelector('[data-playground-id="hello-wire"]')!.closest('astro-island')!;
    document.addEventListener('pointerdown', () => ((window as { hydratedAtPress?: boolean }).hydratedAtPress ??= !island.hasAttribute('ssr')), {
      capture: true,
    });
  });
  // The pointer jumps onto Run and presses at once: the directive starts the run, the island takes it over.
  await pg.run.click();
  expect(await page.evaluate(() => (window as { hydratedAtPress?: boolean }).hydratedAtPress)).toBe(false);
  // The press woke the island: its component was asked for (and held). Now let it load.
  await expect.poll(() => held.length).toBeGreaterThan(0);
  release();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const text = await pg.output.innerText();
  expect(text.match(/Finished in/g)).toHaveLength(1);
  expect(text.match(/^200 application\/json/gm)).toHaveLength(1);
  expect(text.match(/reused the connection/g)).toHaveLength(1);
  await expect(pg.root.getByTestId('viz-panel').locator('.rt-viz-now')).not.toHaveText(/^(Nothing recorded|Before the first)/);
  // The page named for the snippet's chunks, opened on the way in, ran it; the next one is the spare.
  expect(sandboxPages[0]).toBe('/sandbox/with-wire.html');
  await expect(pg.root.locator('iframe[sandbox="allow-scripts"]')).toHaveCount(1);
  // Run again: a fresh realm (the spare), and again once.
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  expect((await pg.output.innerText()).match(/reused the connection/g)).toHaveLength(1);
});

test("the island's modules are requested all at once on intent, and not before", async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/_astro/') && path.endsWith('.js')) requested.push(path);
  });
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  const island = pg.root.locator('xpath=ancestor::astro-island');
  const listed = ((await island.getAttribute('data-rt-preload')) ?? '').split(' ');
  // The component, the renderer and what they import (React DOM among them), written by the build.
  const component = (await island.getAttribute('component-url'))!;
  const renderer = (await island.getAttribute('renderer-url'))!;
  const reactDom = listed.find((path) => /\/react-dom\.[\w-]+\.js$/.test(path));
  expect(listed).toContain(component);
  expect(listed).toContain(renderer);
  expect(reactDom).toBeDefined();
  // Small helpers shared with the page's own scripts may load anyway; the island's code does not.
  await page.waitForTimeout(300);
  expect(requested.filter((path) => [component, renderer, reactDom].includes(path))).toEqual([]);
  expect(await page.locator('link[rel="modulepreload"]').count()).toBe(0);

  await pg.run.hover();
  // The directive's links, in the build's order (the bundler's own preloads for later imports may follow).
  await expect
    .poll(async () =>
      (await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => l.getAttribute('href')))).slice(0, listed.length),
    )
    .toEqual(listed);
  await expect.poll(() => listed.every((path) => requested.includes(path))).toBe(true);
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
});

/** The 1-based editor line the first run-problem squiggle sits on. */
async function squiggleLine(pg: ReturnType<typeof playground>): Promise<number> {
  const mark = await pg.root.locator('.squiggly-error').first().boundingBox();
  const numbers = await pg.root.locator('.line-numbers').all();
  for (const number of numbers) {
    const box = await number.boundingBox();
    const middle = mark!.y + mark!.height / 2;
    if (box && middle >= box.y && middle <= box.y + box.height) return Number(await number.innerText());
  }
  return 0;
}

test('an error made inside library code (a failed sim.fetch) points at the snippet line that called it, in the console and the editor', async ({ page }) => {
  const lines = [
    "import { createSimulation } from 'roundtrip/wire';",
    "import { QueryClient } from 'roundtrip/query';",
    'const sim = createSimulation({ seed: 1 });',
    'const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });',
    "const todos = await client.fetchQuery({ queryKey: ['todos'], queryFn: () => sim.fetch('https://example.test/todos') });",
    'console.log(todos);',
    '',
  ];
  await page.goto(PAGE);
  const pg = playground(page, 'hello-query');
  await pg.replaceCode(lines.join('\n'));
  await pg.run.click();
  // V8 and DevTools place a method call at the method's name.
  const column = (lines[4] ?? '').indexOf('fetch(') + 1;
  await expect(pg.output.locator('.rt-failure')).toContainText(`Error (line 5, column ${column}): TypeError: Failed to fetch (caused by`);
  await expect(pg.root.locator('.squiggly-error')).toHaveCount(1);
  expect(await squiggleLine(pg)).toBe(5);

  // Not awaited: the "Uncaught (in promise)" line has the position, and the editor marks it the same way.
  const unawaited = [
    "import { createSimulation } from 'roundtrip/wire';",
    'const sim = createSimulation({ seed: 1 });',
    '',
    "sim.fetch('https://example.test/nope');",
    '',
  ];
  await pg.typeInEditor(unawaited.join('\n'));
  await pg.run.click();
  await expect(pg.output.locator('.rt-error')).toContainText(`(line 4, column ${(unawaited[3] ?? '').indexOf('fetch(') + 1})`);
  await expect(pg.root.locator('.squiggly-error')).toHaveCount(1);
  expect(await squiggleLine(pg)).toBe(4);
});

test('what libraries log in the sandbox shows in the playground console, as DevTools shows it: an error an error boundary caught', async ({ page }) => {
  const lines = [
    "import { Component, type ReactNode } from 'react';",
    "import { createRoot } from 'react-dom/client';",
    'class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {',
    '  override state = { error: null as Error | null };',
    '  static getDerivedStateFromError(error: Error) { return { error }; }',
    '  override render() { return this.state.error ? <p>Caught: {this.state.error.message}</p> : this.props.children; }',
    '}',
    "function Broken(): ReactNode { throw new Error('render failed'); }",
    "createRoot(document.getElementById('root')!).render(<Boundary><Broken /></Boundary>);",
    '',
  ];
  const pg = await openWithCode(page, lines.join('\n'));
  await pg.run.click();
  await expect(page.frameLocator('.rt-frame-host iframe').getByText('Caught: render failed')).toBeVisible();
  // Caught is handled: said once, not in red (React's default onCaughtError would console.error it).
  await expect(pg.output.locator('.rt-info')).toHaveText('Caught by the error boundary <Boundary>: Error: render failed');
  await expect(pg.output.locator('.rt-error')).toHaveCount(0);
});

test('the error-boundary example shows its final error as caught by the boundary, not as an error', async ({ page }) => {
  await page.goto('/query/errors/');
  const pg = playground(page, 'error-boundary');
  await pg.run.click();
  await expect(page.frameLocator('[data-playground-id="error-boundary"] .rt-frame-host iframe').getByText('attempt 2: GET /todos answered 500')).toBeVisible();
  await expect(pg.output.locator('.rt-info')).toHaveText('Caught by the error boundary <ErrorBoundary>: Error: attempt 2: GET /todos answered 500');
  await expect(pg.output.locator('.rt-error, .rt-failure')).toHaveCount(0);
});

test('the retry timeline runs on the virtual clock: 11.5 s of simulated retries, stale times and gc, exact times, no waiting', async ({ page }) => {
  await page.goto('/query/errors/');
  const pg = playground(page, 'retry-timeline');
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  // Only a clock that got past 11 s can have seen gc remove the query 4 s after the unsubscribe at 7 s; the
  // times are exactly what the options say (real timers print them a few ms late).
  await expect(pg.output).toContainText('still cached? false');
  const lines = await pg.output.locator('pre').allInnerTexts();
  expect(lines.filter((l) => / ms /.test(l)).map((l) => l.slice(0, 8).trim())).toEqual([
    '0 ms',
    '300 ms',
    '1100 ms',
    '2400 ms',
    '4401 ms',
    '5400 ms',
    '5700 ms',
  ]);
  expect(lines.indexOf('still cached? false')).toBeLessThan(lines.findIndex((l) => l.startsWith('Finished')));
});

test("the query library's development warnings show in the console, as TanStack Query's do in DevTools", async ({ page }) => {
  const pg = await openWithCode(
    page,
    [
      "import { QueryClient } from 'roundtrip/query';",
      'const client = new QueryClient();',
      "await client.fetchQuery({ queryKey: ['user'], queryFn: async () => undefined, retry: false }).catch((e: Error) => console.log('rejected:', e.message));",
      '',
    ].join('\n'),
  );
  await pg.run.click();
  await expect(pg.output).toContainText('rejected:');
  await expect(pg.output.locator('.rt-error')).toContainText('Query data cannot be undefined');
});

test('a playground the reader scrolled to warms up once the page is idle: hydrated, with its sandbox open, before any pointer comes near; nothing before the scroll', async ({
  page,
}) => {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if ((path.startsWith('/_astro/') && path.endsWith('.js')) || path.startsWith('/sandbox/')) requested.push(path);
  });
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  const island = pg.root.locator('xpath=ancestor::astro-island');
  const component = (await island.getAttribute('component-url'))!;
  // Reading the top of the page: nothing of the playground loads, however long the reader stays.
  await page.waitForTimeout(1000);
  expect(requested.filter((path) => path === component || path.startsWith('/sandbox/'))).toEqual([]);
  await expect(island).toHaveAttribute('ssr', '');

  // Scrolled to (by the page, so no pointer event reaches the playground), and left there.
  await pg.root.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(island).not.toHaveAttribute('ssr', { timeout: 15_000 });
  await expect.poll(() => requested.some((path) => path.startsWith('/sandbox/with-wire'))).toBe(true);
  expect(requested).toContain(component);
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  expect((await pg.output.innerText()).match(/Finished in/g)).toHaveLength(1);
});

test('after an instant run of query clients only, the final state shows at once and Play replays it so its countdowns tick; reduced motion never plays', async ({
  page,
}) => {
  await page.goto('/query/errors/');
  const pg = playground(page, 'retry-timeline');
  await pg.run.click();
  await expect(pg.output).toContainText(/Finished in \d+ ms/);
  const viz = vizPanel(pg.root);
  // The final state, scrubber at the end, nothing playing.
  await expect.poll(async () => (await viz.cursor()) === (await viz.total()) - 1 && (await viz.total()) > 1).toBe(true);
  await expect(viz.pause).toHaveCount(0);
  // Play: the Pause control is up and the cursor moves on by itself from the start.
  await viz.play.click();
  await expect(viz.pause).toBeVisible();
  const early = await viz.cursor();
  expect(early).toBeLessThan((await viz.total()) - 1);
  await expect.poll(() => viz.cursor()).toBeGreaterThan(early);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  const again = playground(page, 'retry-timeline');
  await again.run.click();
  await expect(again.output).toContainText(/Finished in \d+ ms/);
  const still = vizPanel(again.root);
  await expect.poll(async () => (await still.cursor()) === (await still.total()) - 1 && (await still.total()) > 1).toBe(true);
  await expect(still.panel.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expect(still.play).toBeDisabled();
});
