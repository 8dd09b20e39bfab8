// Serves the API (the /v1 and admin routes) on a plain Node HTTP server,
// without Next.js: `npx tsx scripts/serve.ts` (PORT, default 3000).
import { closeDb } from '@/db/client';
import { boot } from '@/lib/boot';
import { closeBus } from '@/lib/bus';
import { getConfig, startupErrorLine } from '@/lib/config';
import { createNodeServer } from '@/lib/http/node-server';
import { closeAllStreams } from '@/lib/http/v1/sse';
import { closeKv } from '@/lib/kv';

async function main(): Promise<void> {
  const config = getConfig();
  await boot();
  const server = createNodeServer();
  server.listen(config.port, '0.0.0.0', () => {
    if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline API (plain Node server) on http://localhost:${config.port}`);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close(() => {
      // The database last: PGlite flushes and the data directory's lock is released.
      void closeBus()
        .then(closeKv)
        .then(closeDb)
        .then(
          () => process.exit(0),
          (err: unknown) => {
            console.error(err);
            process.exit(1);
          },
        );
    });
    server.closeIdleConnections();
    closeAllStreams();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
});
