// `npm start`'s server: Questline's own Node HTTP server with Next.js mounted
// through its custom-server API. Bundled at build time (scripts/build-server.mjs)
// into .next/questline-server.mjs, which scripts/start.mjs runs; dependencies
// stay in node_modules, so running it needs Node and the production
// dependencies only. In order: PORT checked free, configuration checked, data directory locked
// (embedded), migrations applied, demo seeded, the start-up lines printed
// once, then Next.js prepared and the port opened.
//
// QUESTLINE_WORKERS=N (N > 1; PostgreSQL and a shared store only): this
// process boots as above (migrations, seed, start-up lines), then forks N
// workers with node:cluster that run this same file (not scripts/start.mjs:
// no build check) and skip what the primary did (lib/boot.ts), each serving
// the same port (the primary hands out connections). A worker that dies is
// replaced, after a delay that doubles from 1 s to 30 s while replacements
// die young. SIGTERM/SIGINT are passed to every worker over IPC (a signal
// sent to the whole process group reaches them from the OS too; that copy
// is not a second signal) and cancel pending replacements; a worker not yet
// serving just exits 0, the others drain as a single server does, then the
// primary closes its resources and exits with the highest worker exit code.
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { boot } from '@/lib/boot';
import { closeBus } from '@/lib/bus';
import { getConfig, portFromEnv, startupErrorLine } from '@/lib/config';
import { checkPortFree } from '@/lib/startup-errors';
import { closeDb } from '@/db/client';
import { closeKv } from '@/lib/kv';
import { createAppServer } from '@/lib/http/app-server';
import { drainOnSignals } from '@/lib/http/drain';
import { customServer } from '@/lib/http/server-mode';
import { FORKED_WORKER_ENV, isForkedWorker } from '@/lib/forked-worker';

// This file sits one level below the project (scripts/ or .next/).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  // React and Next.js pick their production builds from NODE_ENV, read when they load (below).
  (process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
  // First, before the configuration creates the data directory and its secrets: a port in use is one line.
  // (A forked worker shares the port its primary's cluster holds.)
  if (!isForkedWorker()) await checkPortFree(portFromEnv());
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
  if (process.env.QUESTLINE_QUIET !== '1' && !isForkedWorker()) console.log(`Questline: listening on http://localhost:${config.port}`);

  process.off('SIGTERM', stopBeforeServing);
  process.off('SIGINT', stopBeforeServing);
  const drain = drainOnSignals(server, {
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
  stopWorker = drain;
}

/** A worker's stop, once it serves; before that, a stop asked by the primary (or the OS's copy of it) just ends it. */
let stopWorker: ((signal: NodeJS.Signals) => void) | undefined;
function stopBeforeServing(): void {
  process.exit(0);
}
if (isForkedWorker()) {
  process.on('SIGTERM', stopBeforeServing);
  process.on('SIGINT', stopBeforeServing);
  process.on('message', (message: { questline?: string; signal?: NodeJS.Signals }) => {
    if (message?.questline !== 'stop' || !message.signal) return;
    if (stopWorker) stopWorker(message.signal);
    else process.exit(0);
  });
}

/** The primary of QUESTLINE_WORKERS > 1: forks the workers, replaces a dead one, stops them all on a signal. */
async function primary(count: number, port: number): Promise<void> {
  const quiet = process.env.QUESTLINE_QUIET === '1';
  // Workers run the server bundle itself, not process.argv[1] (scripts/start.mjs).
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), args: [] });
  /** The signal that stopped the workers; null while they serve. */
  let stopSignal: NodeJS.Signals | null = null;
  let alive = 0;
  let highestCode = 0;
  let backoffMs = 0;
  // Pending replacements: several workers may die close together.
  const respawns = new Set<NodeJS.Timeout>();
  const forkedAt = new Map<Worker, number>();
  const fork = () => {
    if (stopSignal) return;
    alive++;
    forkedAt.set(cluster.fork({ [FORKED_WORKER_ENV]: '1' }), Date.now());
  };
  const finish = () => void closeAll().then(() => process.exit(highestCode));
  let listening = 0;
  cluster.on('listening', (worker: Worker) => {
    // A stop sent while the worker was still loading its modules found no listener and was dropped
    // (a SIGTERM to the primary alone, as docker stop sends): it is sent again now that the worker listens.
    if (stopSignal && worker.isConnected()) worker.send({ questline: 'stop', signal: stopSignal });
    if (++listening === count && !quiet) console.log(`Questline: listening on http://localhost:${port} (${count} worker processes)`);
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    alive--;
    const lived = Date.now() - (forkedAt.get(worker) ?? 0);
    forkedAt.delete(worker);
    if (stopSignal) {
      highestCode = Math.max(highestCode, code ?? 1, signal ? 1 : 0);
      if (alive === 0) finish();
      return;
    }
    // Dying young again and again (database down at boot): wait longer each time, up to 30 s.
    backoffMs = lived >= 60_000 ? 0 : Math.min(Math.max(backoffMs * 2, 1_000), 30_000);
    console.error(`Questline: worker ${worker.process.pid} exited (${signal ?? code}); starting another${backoffMs ? ` in ${backoffMs / 1000} s` : ''}`);
    const timer = setTimeout(() => {
      respawns.delete(timer);
      fork();
    }, backoffMs);
    respawns.add(timer);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopSignal) return;
    stopSignal = signal;
    for (const timer of respawns) clearTimeout(timer);
    respawns.clear();
    if (!quiet) console.log(`Questline: ${signal}, stopping ${count} workers`);
    if (alive === 0) return finish();
    for (const worker of forkedAt.keys()) if (worker.isConnected()) worker.send({ questline: 'stop', signal });
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
