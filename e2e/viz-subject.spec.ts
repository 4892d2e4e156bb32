/**
 * The subject pages draw their subject (issue #27 item 1): on the pages whose playgrounds only call the codecs
 * (HTTP/2 frames, HPACK, an HTTP/1 message) or a query, pressing Run opens the visualizer on the view the page
 * names (`view` on <Playground>) and that view has the run's content, not "Nothing to visualize". The second
 * HTTP/2 playground, a simulated exchange, opens on Frames with its PUSH_PROMISE and WINDOW_UPDATE frames, and
 * a gallery page (/playground/<id>/) opens on the view of the docs page it comes from.
 */
import { expect, test, type Locator } from '@playwright/test';
import { playground } from './helpers';
import { vizPanel } from './viz-helpers';

interface Subject {
  readonly page: string;
  readonly id: string;
  /** The tab the run opens on, and its view id. */
  readonly tab: string;
  readonly view: string;
  /** What the open view shows of this run. */
  readonly shows: (tabpanel: Locator) => Promise<void>;
}

const SUBJECTS: readonly Subject[] = [
  {
    page: '/http/http2/',
    id: 'http2-frames',
    tab: 'Frames',
    view: 'frames',
    shows: async (tabpanel) => {
      const lanes = tabpanel.getByRole('table');
      await expect(lanes.getByRole('columnheader', { name: 'Stream 1' })).toBeVisible();
      await expect(lanes.getByRole('columnheader', { name: 'Stream 3' })).toBeVisible();
    },
  },
  {
    page: '/http/http2/',
    id: 'http2-exchange',
    tab: 'Frames',
    view: 'frames',
    shows: async (tabpanel) => {
      await expect(tabpanel.getByText('PUSH_PROMISE').first()).toBeVisible();
      await expect(tabpanel.getByText('WINDOW_UPDATE').first()).toBeVisible();
    },
  },
  {
    page: '/http/hpack/',
    id: 'hpack',
    tab: 'HPACK',
    view: 'hpack',
    shows: async (tabpanel) => {
      await expect(tabpanel.getByTestId('hpack-dynamic-table')).toContainText('api.example');
    },
  },
  {
    page: '/http/messages/',
    id: 'message-anatomy',
    tab: 'Messages',
    view: 'messages',
    shows: async (tabpanel) => {
      await expect(tabpanel.getByRole('region', { name: 'Client → server' })).toContainText('POST /todos HTTP/1.1');
      await expect(tabpanel.getByRole('region', { name: 'Server → client' })).toContainText('201');
    },
  },
  {
    page: '/query/overview/',
    id: 'hello-query',
    tab: 'Event timeline',
    view: 'events',
    shows: async (tabpanel) => {
      await expect(tabpanel.getByRole('list', { name: 'Events of QueryClient 1' }).getByRole('button', { name: /\['greeting'\]: invalidated/ })).toHaveCount(1);
    },
  },
];

for (const subject of SUBJECTS) {
  test(`${subject.page} ${subject.id}: Run opens on ${subject.tab}, with the run's content`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(subject.page);
    const pg = playground(page, subject.id);
    await pg.run.click();
    const viz = vizPanel(pg.root);
    await expect(viz.panel).toBeVisible({ timeout: 30_000 });
    await expect(viz.panel.getByRole('tab', { name: subject.tab, exact: true })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
    await expect(viz.tabpanel).toHaveAttribute('data-view', subject.view);
    await expect(viz.panel).not.toContainText('Nothing to visualize');
    // At the end of the run every event is drawn (Pause first, in case a replay is running).
    await expect(viz.slider).toBeVisible();
    if (await viz.pause.isVisible()) await viz.pause.click();
    await viz.slider.focus();
    await page.keyboard.press('End');
    await subject.shows(viz.tabpanel);
  });
}

test("a gallery page opens on its docs page's view: /playground/hpack/ on HPACK", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/playground/hpack/');
  const pg = playground(page, 'hpack');
  await pg.run.click();
  const viz = vizPanel(pg.root);
  await expect(viz.panel.getByRole('tab', { name: 'HPACK', exact: true })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(viz.tabpanel).toHaveAttribute('data-view', 'hpack');
});
