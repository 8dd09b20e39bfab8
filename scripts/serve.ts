// Serves the API (the /v1 and admin routes) on a plain Node HTTP server,
// without Next.js: `npx tsx scripts/serve.ts` (PORT, default 3000).
import { boot } from '@/lib/boot';
import { getConfig, startupErrorLine } from '@/lib/config';
import { createNodeServer } from '@/lib/http/node-server';

async function main(): Promise<void> {
  const config = getConfig();
  await boot();
  const server = createNodeServer();
  server.listen(config.port, '0.0.0.0', () => {
    if (process.env.QUESTLINE_QUIET !== '1') console.log(`Questline API (plain Node server) on http://localhost:${config.port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
});
