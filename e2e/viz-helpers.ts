/**
 * Locators and helpers for the visualizer panel (src/playground/viz/VizPanel.tsx) inside a playground island.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export function vizPanel(root: Locator) {
  const panel = root.getByTestId('viz-panel');
  return {
    panel,
    tabs: panel.getByRole('tab'),
    tabpanel: panel.getByRole('tabpanel'),
    play: panel.getByRole('button', { name: 'Play', exact: true }),
    pause: panel.getByRole('button', { name: 'Pause', exact: true }),
    stepBack: panel.getByRole('button', { name: 'Step back' }),
    stepForward: panel.getByRole('button', { name: 'Step forward' }),
    slider: panel.getByRole('slider', { name: 'Step' }),
    speed: panel.getByRole('combobox', { name: 'Speed' }),
    log: panel.getByTestId('viz-log'),
    exportJson: panel.getByRole('button', { name: 'Export trace (JSON)' }),
    exportHar: panel.getByRole('button', { name: 'Export HAR' }),
    /** The step shown, 0-based, read from the slider. */
    async cursor(): Promise<number> {
      return Number(await this.slider.inputValue());
    },
    async total(): Promise<number> {
      return Number(await this.slider.getAttribute('max')) + 1;
    },
  };
}

/** Clicks `button` and returns the downloaded file's name and text. */
export async function downloadText(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

// axe's tags for WCAG 2.0, 2.1 and 2.2, levels A and AA.
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Serious or critical WCAG 2.2 AA violations inside `selector`, one line each. */
export async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(WCAG_22_AA).setLegacyMode(true).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
}

/** Waits until the player has stopped moving (finished or paused) and returns the cursor. */
export async function settledCursor(viz: ReturnType<typeof vizPanel>): Promise<number> {
  await expect(viz.pause).toHaveCount(0, { timeout: 60_000 });
  return viz.cursor();
}
