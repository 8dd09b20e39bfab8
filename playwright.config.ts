import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The browser suite runs Debian's Chromium (Playwright downloads no browser
// here) against the real Next.js server built and started by `npm start`.
const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  workers: 1,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${port}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      QUESTLINE_DATA_DIR: process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `questline-e2e-${Date.now()}`),
      ADMIN_API_KEY: 'e2e-admin-key-0123456789abcdef',
      JWT_SECRET: process.env.JWT_SECRET ?? 'e2e-jwt-secret-0123456789abcdef0123456789',
      QUESTLINE_DEMO: '1',
    },
  },
});
