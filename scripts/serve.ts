// Serves the API (the /v1 and admin routes) on a plain Node HTTP server,
// without Next.js: `npx tsx scripts/serve.ts` (PORT, default 3000). Drains on
// SIGTERM/SIGINT like `npm start` (lib/http/drain.ts).
import { closeDb } from '@/db/client';
import { boot } from '@/lib/boot';
import { closeBus } from '@/lib/bus';
import { getConfig, portFromEnv, startupErrorLine } from '@/lib/config';
import { checkPortFree } from '@/lib/startup-errors';
import { createNodeServer } from '@/lib/http/node-server';
import { drainOnSignals } from '@/lib/http/drain';
import { closeKv } from '@/lib/kv';

async function main(): Promise<void> {
  // Before the configuration creates the data directory and its secrets (lib/startup-errors.ts).
  await checkPortFree(portFromEnv());
  const config = getConfig();
  await boot();
  const server = createNodeServer();
  server.listen(config.port, '0.0.0.0', () => {
    if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline API (plain Node server) on http://localhost:${config.port}`);
  });
  drainOnSignals(server, {
    graceMs: config.shutdownGraceMs,
    onSignal: (signal) => {
      if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline: ${signal}, shutting down`);
    },
    closeResources: async () => {
      await closeBus();
      await closeKv();
      // The database last: PGlite flushes and the data directory's lock is released.
      await closeDb();
    },
  });
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
});
