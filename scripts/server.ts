// `npm start`'s server: Questline's own Node HTTP server with Next.js mounted
// through its custom-server API. Bundled at build time (scripts/build-server.mjs)
// into .next/questline-server.mjs, which scripts/start.mjs runs; dependencies
// stay in node_modules, so running it needs Node and the production
// dependencies only. In order: configuration checked, data directory locked
// (embedded), migrations applied, demo seeded, the start-up lines printed
// once, then Next.js prepared and the port opened.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { boot } from '@/lib/boot';
import { closeBus } from '@/lib/bus';
import { getConfig, startupErrorLine } from '@/lib/config';
import { closeDb } from '@/db/client';
import { closeKv } from '@/lib/kv';
import { createAppServer } from '@/lib/http/app-server';
import { drainOnSignals } from '@/lib/http/drain';
import { customServer } from '@/lib/http/server-mode';

// This file sits one level below the project (scripts/ or .next/).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  // React and Next.js pick their production builds from NODE_ENV, read when they load (below).
  (process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
  const config = getConfig();
  // Booted here, once: the instrumentation hook of Next.js sees the marker and does nothing.
  customServer().active = true;
  await boot();

  const { default: next } = await import('next');
  const app = next({ dev: false, dir: root, port: config.port, hostname: 'localhost' });
  await app.prepare();
  const server = createAppServer(app.getRequestHandler());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => resolve());
  });
  if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline: listening on http://localhost:${config.port}`);

  drainOnSignals(server, {
    graceMs: config.shutdownGraceMs,
    onSignal: (signal) => {
      if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline: ${signal}, shutting down`);
    },
    closeResources: async () => {
      await app.close();
      await closeBus();
      await closeKv();
      // Last: PGlite flushes and the data directory's lock is released.
      await closeDb();
    },
  });
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
});
