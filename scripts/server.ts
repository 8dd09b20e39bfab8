// `npm start`'s server: Questline's own Node HTTP server with Next.js mounted
// through its custom-server API. Bundled at build time (scripts/build-server.mjs)
// into .next/questline-server.mjs, which scripts/start.mjs runs; dependencies
// stay in node_modules, so running it needs Node and the production
// dependencies only. In order: configuration checked, data directory locked
// (embedded), migrations applied, demo seeded, the start-up lines printed
// once, then Next.js prepared and the port opened.
//
// QUESTLINE_WORKERS=N (N > 1; PostgreSQL and a shared store only): this
// process boots as above (migrations, seed, start-up lines), then forks N
// workers with node:cluster that each serve the same port (the primary hands
// out connections); a worker that dies is replaced, SIGTERM/SIGINT are passed
// to every worker, which drain as a single server does, then the primary
// closes its resources and exits.
import cluster, { type Worker } from 'node:cluster';
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
  if (config.workers > 1 && cluster.isPrimary) return primary(config.workers, config.port);

  const { default: next } = await import('next');
  const app = next({ dev: false, dir: root, port: config.port, hostname: 'localhost' });
  await app.prepare();
  const server = createAppServer(app.getRequestHandler());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => resolve());
  });
  if (process.env.QUESTLINE_QUIET !== '1' && cluster.isPrimary) console.log(`Questline: listening on http://localhost:${config.port}`);

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

/** The primary of QUESTLINE_WORKERS > 1: forks the workers, replaces a dead one, stops them all on a signal. */
async function primary(count: number, port: number): Promise<void> {
  const quiet = process.env.QUESTLINE_QUIET === '1';
  let stopping = false;
  const fork = () => cluster.fork();
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === count && !quiet) console.log(`Questline: listening on http://localhost:${port} (${count} worker processes)`);
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) void closeAll().then(() => process.exit(0));
      return;
    }
    console.error(`Questline: worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!quiet) console.log(`Questline: ${signal}, stopping ${count} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let i = 0; i < count; i++) fork();
}

async function closeAll(): Promise<void> {
  await closeBus();
  await closeKv();
  await closeDb();
}

main().catch((err: unknown) => {
  console.error(startupErrorLine(err) ?? err);
  process.exit(1);
});
