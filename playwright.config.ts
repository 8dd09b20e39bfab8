import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumPath } from './scripts/chromium-path.mjs';

// The browser suite runs Debian's Chromium (Playwright downloads no browser
// here) against the production build served two ways: `npm start` (the
// custom server: /v1 and /api/admin straight to the route table, the rest to
// Next.js) and `next start` (the Next.js route files and proxy.ts, as a
// serverless platform runs them). Both use the one build scripts/start.mjs
// makes when it is stale (npm test makes it first).
const port = Number(process.env.E2E_PORT ?? 3100);
const nextStartPort = port + 1;
const dataDir = process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `questline-e2e-${Date.now()}`);
const env = {
  ADMIN_API_KEY: 'e2e-admin-key-0123456789abcdef',
  JWT_SECRET: process.env.JWT_SECRET ?? 'e2e-jwt-secret-0123456789abcdef0123456789',
  QUESTLINE_DEMO: '1',
  // Outbound webhooks: the specs' receivers listen on 127.0.0.1 (docs/operations/README.md).
  OUTBOUND_WEBHOOK_ALLOW_PRIVATE: '1',
  // One info line per request would fill CI's log with every page and API
  // call; warnings and errors (a 5xx, a failed start) still show, on stderr
  // and stdout alike (both piped into Playwright's output). LOG_LEVEL in the
  // environment overrides it when a failure needs the request log.
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};

/** The specs that also run under `next start` (see the project below). */
const NEXT_START_SPECS = [
  'api.spec.ts',
  'sse.spec.ts',
  'webhook-recommendations.spec.ts',
  'docs.spec.ts',
  'console-auth.spec.ts',
  'console-roles.spec.ts',
  'console-authoring-flow.spec.ts',
  'console-desk-live.spec.ts',
  'console-dot-user.spec.ts',
];

export default defineConfig({
  testDir: './e2e',
  // Room for a loaded 2-core machine (other suites and builds beside it): a
  // page that renders in 200 ms alone took several seconds there, past the
  // default 5 s of expect(); assertions wait on conditions, so a passing one
  // costs no more with a longer bound.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // Two spec files at a time (E2E_WORKERS to change it): every spec makes its
  // own apps, users and staff changes under unique names, so two can share a
  // server; on a 2-core machine the suite took 4.3–4.6 min instead of 5.8
  // with one (docs/engineering/reliability.md, "Browser suite on two workers").
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    launchOptions: {
      // Debian's headless shell when installed, else its full browser (scripts/chromium-path.mjs).
      executablePath: chromiumPath() ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'npm start', use: { baseURL: `http://127.0.0.1:${port}` } },
    // The console's pages are the same Next.js build under both servers, so
    // every spec runs under npm start. Under next start only what differs
    // there: the route files (the same handlers; the table and the files are
    // compared in lib/http/routes.test.ts), proxy.ts (a signed-out visitor's
    // redirect, the CORS preflight), Better Auth's route, streaming through
    // Next.js (the player's and the support desk's live streams), the raw body
    // of a signed webhook, the docs route, and one whole authoring flow.
    // Running every console spec twice cost about 5 of the suite's 12 minutes
    // (docs/engineering/reliability.md).
    {
      name: 'next start',
      use: { baseURL: `http://127.0.0.1:${nextStartPort}` },
      testMatch: NEXT_START_SPECS.map((spec) => `**/${spec}`),
    },
  ],
  // Started one after the other (a stale build is built once, by the first).
  webServer: [
    {
      command: 'node scripts/start.mjs',
      url: `http://127.0.0.1:${port}/`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: { ...env, PORT: String(port), QUESTLINE_DATA_DIR: `${dataDir}-npm-start` },
    },
    {
      command: 'node scripts/start.mjs --next-start',
      url: `http://127.0.0.1:${nextStartPort}/`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: { ...env, PORT: String(nextStartPort), QUESTLINE_DATA_DIR: `${dataDir}-next-start` },
    },
  ],
});
