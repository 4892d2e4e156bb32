import { expect, test } from '@playwright/test';
import { encodeShareState } from '../src/playground/share/codec';
import { formatShareHash } from '../src/playground/share/hash';
import { playground } from './helpers';

const PAGE = '/query/overview/';

async function openWithCode(page: import('@playwright/test').Page, code: string) {
  const hash = formatShareHash({ id: 'hello-query', encoded: await encodeShareState({ code }) });
  await page.goto(`${PAGE}${hash}`);
  const pg = playground(page, 'hello-query');
  await expect.poll(() => pg.staticCode.innerText()).toBe(code);
  return pg;
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
  const pg = await openWithCode(
    page,
    'const g = globalThis as { runs?: number };\ng.runs = (g.runs ?? 0) + 1;\nconsole.log(`run number ${g.runs}`);\n',
  );
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
