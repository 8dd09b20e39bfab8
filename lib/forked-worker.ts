// Whether this process is a worker forked by Questline's own QUESTLINE_WORKERS
// primary (scripts/server.ts), which sets QUESTLINE_FORKED_WORKER=1 in the
// worker's environment. Not `cluster.isWorker`: under another cluster
// manager (PM2's cluster mode, say) every instance is a cluster worker, and
// each must still migrate, seed and warm up as a single server does.
export const FORKED_WORKER_ENV = 'QUESTLINE_FORKED_WORKER';

export function isForkedWorker(): boolean {
  return process.env[FORKED_WORKER_ENV] === '1';
}
