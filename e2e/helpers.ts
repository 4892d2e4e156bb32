import { expect, type Page } from '@playwright/test';

/** Collects console errors and uncaught exceptions on a page, so a test can assert there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return errors;
}

export function playground(page: Page, id: string) {
  const root = page.locator(`[data-playground-id="${id}"]`);
  return {
    root,
    run: root.getByRole('button', { name: 'Run', exact: true }),
    edit: root.getByRole('button', { name: 'Edit', exact: true }),
    share: root.getByRole('button', { name: 'Share', exact: true }),
    output: root.getByRole('log'),
    staticCode: root.locator('.rt-code'),
    editor: root.locator('.rt-editor .monaco-editor'),
    /** Replaces the whole snippet through Monaco, the way a reader would with select-all and paste. */
    async replaceCode(code: string) {
      await this.edit.click();
      // The light editor takes typing at once; Monaco replaces it once its TypeScript worker has checked the
      // snippet (src/playground/editor/upgrade.ts), which on a loaded 2-core machine can take over 15 s.
      await expect(this.editor).toBeVisible({ timeout: 30_000 });
      await this.typeInEditor(code);
    },
    /** Selects everything in the (already open) editor and pastes `code` over it. */
    async typeInEditor(code: string) {
      const lines = this.root.locator('.rt-editor .view-lines');
      // Keys go where the focus is: wait until Monaco has it. The page can still shift as Monaco settles in (its
      // height replaces the light editor's), and a click made during the shift can miss the text, so click again
      // until the editor is focused, as a reader would (a fresh-clone CI run lost a paste this way: 2026-11-29).
      await expect(async () => {
        await lines.click();
        await expect(this.root.locator('.rt-editor .monaco-editor.focused')).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await page.keyboard.press('ControlOrMeta+A');
      // Paste, as a reader would: typed newlines would trigger auto-indent and auto-closing brackets.
      await page.evaluate((text) => navigator.clipboard.writeText(text), code);
      await page.keyboard.press('ControlOrMeta+V');
      // Monaco draws only the lines in view, and a long paste leaves the view at its end: go back to the top.
      await page.keyboard.press('ControlOrMeta+Home');
      // The first lines on screen are the pasted ones (not only the first, which a fix often leaves as it was).
      for (const line of code
        .split('\n')
        .slice(0, 6)
        .filter((l) => l.trim() !== '')) {
        await expect(lines).toContainText(line.slice(0, 20).replace(/ /g, '\u00a0'));
      }
    },
  };
}
