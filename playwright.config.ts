import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

// Overridable so a second checkout's e2e run can share the machine with another's.
const PORT = Number(process.env.E2E_PORT ?? 4329);
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

// Playwright cannot download its own browsers on every machine (CI here has no access to its CDN), so use the
// system Chromium when there is one and fall back to Playwright's browser on a developer's laptop.
const launchOptions = existsSync(SYSTEM_CHROMIUM)
  ? {
      executablePath: SYSTEM_CHROMIUM,
      // Without the background-networking flags Chromium floods a closed network with requests.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }
  : {};

export default defineConfig({
  testDir: './e2e',
  // Beside the build of the same checkout when RT_OUT_DIR names one (see astro.config.mjs).
  outputDir: process.env.RT_OUT_DIR ? `${process.env.RT_OUT_DIR}-results` : 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  // Generous: these assert behaviour, never speed, and a loaded 2-core machine can take seconds to start Monaco.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    // Tests paste code into the editor and read what Share copied.
    permissions: ['clipboard-read', 'clipboard-write'],
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions } }],
  webServer: {
    // The production build, served as it would be deployed.
    // --ignore-lock: Astro 7 allows one preview per project by default (a lock file) and, when it thinks an
    // agent runs it, moves the server to the background; Playwright needs it in the foreground, and
    // parallel checkouts (RT_OUT_DIR) need one each.
    command: `npm run build && npm run preview -- --host 127.0.0.1 --port ${PORT} --ignore-lock`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
