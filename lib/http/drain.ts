// Graceful shutdown of a Node HTTP server on SIGTERM or SIGINT (scripts/server.ts
// for `npm start`, scripts/serve.ts): GET /api/ready answers 503 from then on,
// the listening socket closes (new connections are refused), idle keep-alive
// connections close, open streams end with a last comment (clients resume
// elsewhere with Last-Event-ID), requests in flight finish and their
// connections close after the answer. After `graceMs` whatever is still open
// is cut. Then the resources close and the process exits: 0, or 1 when
// closing them failed or took longer than `closeTimeoutMs`. A second signal
// exits at once (1). The function returned starts the same drain when a
// parent asks (a QUESTLINE_WORKERS worker, over IPC): that request never
// forces an exit, and the one same signal arriving from the OS as well (sent
// to the whole process group: Ctrl-C, systemd) is not counted as a second.
import type { Server } from 'node:http';
import { logError } from '@/lib/log';
import { startDraining } from './ops/lifecycle';
import { closeAllStreams } from './v1/sse';

export interface DrainOptions {
  /** Time in-flight requests get to finish before their connections are cut. */
  graceMs: number;
  /** Closes what the process holds (Next.js, bus, store, database), in order. */
  closeResources: () => Promise<void>;
  /** Bound on closeResources. */
  closeTimeoutMs?: number;
  /** Called once when the first signal arrives (a start-up line, say). */
  onSignal?: (signal: NodeJS.Signals) => void;
  exit?: (code: number) => void;
}

export function drainOnSignals(server: Server, options: DrainOptions): (signal: NodeJS.Signals) => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  // The signal the parent forwarded, until the OS's copy of it arrives.
  let forwarded: NodeJS.Signals | undefined;

  // Requests answered while draining close their connection after the answer.
  server.on('request', (_req, res) => {
    if (stopping) res.shouldKeepAlive = false;
    res.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });

  const drain = (signal: NodeJS.Signals) => {
    stopping = true;
    startDraining();
    options.onSignal?.(signal);
    const cut = setTimeout(() => server.closeAllConnections(), options.graceMs);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      const hard = setTimeout(() => {
        logError('shutdown: closing resources timed out', null, { timeoutMs: options.closeTimeoutMs ?? 10_000 });
        exit(1);
      }, options.closeTimeoutMs ?? 10_000);
      hard.unref();
      options.closeResources().then(
        () => exit(0),
        (err: unknown) => {
          logError('shutdown failed', err);
          exit(1);
        },
      );
    });
    server.closeIdleConnections();
    closeAllStreams();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) return drain(signal);
    if (forwarded === signal) {
      forwarded = undefined;
      return;
    }
    exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return (signal) => {
    if (stopping) return;
    forwarded = signal;
    drain(signal);
  };
}
