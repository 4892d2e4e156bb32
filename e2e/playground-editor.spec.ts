import { expect, test, type Page } from '@playwright/test';
import { playground } from './helpers';

// What a reader learning the libraries leans on in the TypeScript playground: completion of option names, types
// on hover, and a type error marked where it is, with its message.
const PAGE = '/query/overview/';

async function openEditor(page: Page, code: string) {
  await page.goto(PAGE);
  const pg = playground(page, 'hello-query');
  await pg.replaceCode(code);
  return pg;
}

/** Moves the text cursor to the end of 1-based `line`. */
async function cursorAtEndOf(page: Page, line: number) {
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

test('completion: inside useQuery({ }) the suggestions are its options, queryKey among them', async ({ page }) => {
  const pg = await openEditor(
    page,
    ["import { useQuery } from 'roundtrip/react';", 'function Todos() {', '  const result = useQuery({  });', '  return result;', '}', ''].join('\n'),
  );
  await cursorAtEndOf(page, 3);
  // Back inside the braces: past ");" and the space before "}".
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+Space');
  // Each row's label; the focused row also shows the item's type after it. The list is virtual: rows out of
  // view are not in the page, so narrow it down as a reader would, by typing.
  const labels = pg.root.locator('.suggest-widget .monaco-list-row .label-name');
  await expect.poll(() => labels.allInnerTexts(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['queryKey', 'enabled', 'gcTime']));
  await page.keyboard.type('quer');
  await expect.poll(() => labels.allInnerTexts()).toEqual(expect.arrayContaining(['queryKey', 'queryFn']));
  // Esc closes the list and stays in the editor (a second Esc would leave for Run).
  await page.keyboard.press('Escape');
  await expect(pg.root.locator('.suggest-widget.visible')).toHaveCount(0);
  await expect(pg.run).not.toBeFocused();
  await page.keyboard.press('Control+Space');
  await expect.poll(() => labels.allInnerTexts()).toEqual(expect.arrayContaining(['queryKey', 'queryFn']));
  // Accepting inserts the option name.
  await labels.getByText('queryKey', { exact: true }).click();
  await expect(pg.root.locator('.view-lines')).toContainText('useQuery({ queryKey\u00a0});');
});

test('hover: a name from roundtrip/query shows its declared type', async ({ page }) => {
  const pg = await openEditor(
    page,
    ["import { QueryClient } from 'roundtrip/query';", 'const client = new QueryClient();', "client.getQueryData(['todos']);", ''].join('\n'),
  );
  const word = pg.root.locator('.view-line').nth(2).getByText('getQueryData');
  await expect(word).toBeVisible();
  // The TypeScript worker may not know the pasted file yet (it was a 1.5 s sleep, which a busy machine
  // outran): point at the word until its hover shows the type, however long the worker takes.
  const hover = page.locator('.monaco-hover:not(.hidden)');
  await expect(async () => {
    await page.mouse.move(0, 0);
    await word.hover();
    await expect(hover).toContainText(/QueryClient\.getQueryData/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
});

test('a wrong option type is marked at the option, and its message says what was expected', async ({ page }) => {
  const lines = [
    "import { QueryClient } from 'roundtrip/query';",
    'const client = new QueryClient();',
    "await client.fetchQuery({ queryKey: 'todos', queryFn: async () => ['milk'] });",
    '',
  ];
  const pg = await openEditor(page, lines.join('\n'));
  const squiggles = pg.root.locator('.squiggly-error');
  await expect(squiggles).toHaveCount(1, { timeout: 30_000 });
  // On line 3, starting at `queryKey` (TypeScript reports the property whose type is wrong).
  const mark = (await squiggles.first().boundingBox())!;
  const lineThree = (await pg.root.locator('.line-numbers', { hasText: /^3$/ }).boundingBox())!;
  expect(mark.y + mark.height / 2).toBeGreaterThanOrEqual(lineThree.y);
  expect(mark.y + mark.height / 2).toBeLessThanOrEqual(lineThree.y + lineThree.height);
  // Monaco's token spans carry the whitespace before them: find where `queryKey` itself starts in its span.
  const span = pg.root.locator('.view-line').nth(2).locator('span span', { hasText: 'queryKey' });
  const [text, box] = [await span.innerText(), (await span.boundingBox())!];
  const keyX = box.x + (text.indexOf('queryKey') * box.width) / text.length;
  expect(Math.abs(mark.x - keyX)).toBeLessThan(2);
  // F8, as in VS Code: the problem's message in place.
  await cursorAtEndOf(page, 1);
  await page.keyboard.press('F8');
  await expect(pg.root.locator('.marker-widget')).toContainText(/Type 'string' is not assignable to type/);
});

test("the editor knows React's types: the docs' React snippets show no problem, and JSX is checked", async ({ page }) => {
  await page.goto('/query/errors/');
  const pg = playground(page, 'error-boundary');
  await pg.edit.click();
  await expect(pg.editor).toBeVisible();
  // Once the TypeScript worker has checked the file (its mark, editor/upgrade.ts WARM_MARK; it was a 4 s sleep,
  // which on a busy machine could end before the check), expect a clean bill.
  await page.waitForFunction(() => performance.getEntriesByName('roundtrip:editor-warm').length > 0, null, { timeout: 60_000 });
  await expect(pg.root.locator('.squiggly-error')).toHaveCount(0);
  // A real JSX type error is found: a number where a string prop belongs, on the last line.
  await pg.typeInEditor(
    [
      "import { createRoot } from 'react-dom/client';",
      'createRoot(document.getElementById(\'root\')!).render(<input type="text" placeholder={42} />);',
      '',
    ].join('\n'),
  );
  await expect(pg.root.locator('.squiggly-error')).toHaveCount(1, { timeout: 30_000 });
  await cursorAtEndOf(page, 1);
  await page.keyboard.press('F8');
  await expect(pg.root.locator('.marker-widget')).toContainText(/Type 'number' is not assignable to type 'string'/);
});

test('clicking into the code gives an editor at once, at the click; what is typed before Monaco arrives is kept, and so is the cursor', async ({ page }) => {
  await page.goto('/http/overview/');
  const pg = playground(page, 'hello-wire');
  const line = pg.root.locator('.rt-code .line', { hasText: 'const sim = createSimulation' });
  await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // Click past the end of that line: the editor's cursor lands at its end.
  const box = (await line.boundingBox())!;
  await page.mouse.click(box.x + box.width + 30, box.y + box.height / 2);
  // Typing goes in at once, wherever the editor is in its loading.
  await page.keyboard.type('typed');
  await expect(pg.editor).toBeVisible({ timeout: 30_000 });
  await expect(pg.root.locator('.rt-lite')).toHaveCount(0);
  // Monaco took the text and the cursor: more typing continues where the first stopped.
  await page.keyboard.type('More');
  await expect(pg.root.locator('.rt-editor .view-lines')).toContainText('seed:\u00a01\u00a0});typedMore');
});
