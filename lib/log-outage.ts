// The log of one place that meets a dependency's outage (Redis or PostgreSQL
// unreachable) again and again: a request path that fails closed, a retry
// loop. One error line when the outage begins, with its cause; the failures
// that follow are counted, not logged; one line when the place works again,
// with how long it failed and how many times. A ten-minute outage so costs
// two lines per place, not one per request or per retry.
import { causeChain } from './errors';
import { logError, logWarn } from './log';
import { processWide } from './process-wide';

// Set while start-up runs: it reports an unreachable dependency itself, in
// one line (lib/boot.ts), so the outages that begin meanwhile are counted,
// not logged again (each still logs "works again" when it ends).
const startup = processWide('outage.startup-warned', () => ({ warned: false }));

/** Runs start-up, which announces an unreachable dependency in one line itself. */
export async function withOutageAnnounced<T>(fn: () => Promise<T>): Promise<T> {
  startup.warned = true;
  try {
    return await fn();
  } finally {
    startup.warned = false;
  }
}

/** True while start-up runs (lib/kv/clients.ts keeps its connection errors quiet then). */
export function outageAnnounced(): boolean {
  return startup.warned;
}

export interface OutageLog {
  /** A failure: the first of an outage is logged (error level, with its cause), later ones counted. */
  failed(err: unknown, fields?: Record<string, unknown>): void;
  /** A success: ends the outage in progress, if any, with one line. */
  recovered(fields?: Record<string, unknown>): void;
}

/**
 * The messages of an error and of its causes, outermost first (lib/errors.ts's
 * causeChain): a circuit breaker's fast failure names the failure that opened it.
 */
function causeOf(err: unknown): string {
  if (!err || typeof err !== 'object') return String(err);
  const chain = [...causeChain(err)];
  const parts = chain.map((e) => (typeof e.message === 'string' ? e.message : String(e)));
  // A cause that is not an object (`new Error('…', { cause: 'ECONNREFUSED' })`) ends the chain, named too.
  const last = chain.at(-1)?.cause;
  if (chain.length < 5 && last !== undefined && last !== null && typeof last !== 'object') parts.push(String(last));
  return parts.join(' <- ');
}

/**
 * The outage log of the place `name` (process-wide: every Next.js chunk's
 * copy of the caller shares it). `what` starts each line, e.g. "staff
 * sign-in": "staff sign-in failing: …", "staff sign-in works again".
 */
export function outageLog(name: string, what: string): OutageLog {
  const state = processWide(`outage.${name}`, () => ({ since: 0, failures: 0 }));
  return {
    failed(err, fields = {}) {
      state.failures += 1;
      if (state.since !== 0) return;
      state.since = Date.now();
      if (startup.warned) return;
      logError(`${what} failing: a dependency is unavailable (repeats are counted until it works again)`, err, { ...fields, cause: causeOf(err) }, { causes: false });
    },
    recovered(fields = {}) {
      if (state.since === 0) return;
      // From the first failure to the first success (the place may not have been tried in between).
      logWarn(`${what} works again`, { ...fields, failingForMs: Date.now() - state.since, failures: state.failures });
      state.since = 0;
      state.failures = 0;
    },
  };
}
