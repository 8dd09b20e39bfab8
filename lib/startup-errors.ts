// A dependency that stops or degrades start-up, said in one line: which
// variable, where (host and port, never a user or password), what failed.
// Printed by the start scripts instead of a driver's stack.

/** `host:port/path` of a URL, without its user, password or query. */
export function hostAndPort(url: string, defaultPort: number): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 1 ? parsed.pathname : '';
    return `${parsed.hostname}:${parsed.port || defaultPort}${path}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** The innermost useful message along an error's causes (and of an AggregateError's first error), on one line. */
export function rootMessage(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5; depth++) {
    const next = e instanceof AggregateError && e.errors.length > 0 ? e.errors[0] : e instanceof Error ? e.cause : undefined;
    if (next === undefined || next === null) break;
    e = next;
  }
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error && e.message ? e.message : typeof code === 'string' ? code : String(e);
  return message.split('\n')[0];
}

/** What went wrong, for a person: the driver's code turned into words, the code kept. */
function databaseProblem(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : '';
    if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED): is PostgreSQL running and listening there?';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${code})`;
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') return `host unreachable (${code})`;
    if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/.test(message)) {
      return 'no answer within DATABASE_CONNECT_TIMEOUT_MS (host unreachable or a firewall dropping packets?)';
    }
    // SQLSTATE: 3D000 no such database, 28P01/28000 authentication, 42501 permission.
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && message) return `${message.split('\n')[0]} (SQLSTATE ${code})`;
    e = e instanceof AggregateError && e.errors.length > 0 ? e.errors[0] : e instanceof Error ? e.cause : undefined;
  }
  return rootMessage(err);
}

/** Start-up could not open or migrate the database of DATABASE_URL. The cause is kept: a request that meets it still answers 503. */
export class DatabaseStartError extends Error {
  constructor(databaseUrl: string, cause: unknown) {
    super(`Questline: cannot start on the database at DATABASE_URL (${hostAndPort(databaseUrl, 5432)}): ${databaseProblem(cause)}`, { cause });
    this.name = 'DatabaseStartError';
  }
}

/** PORT is taken (or not ours to take): said before anything is created or migrated. */
class PortInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortInUseError';
  }
}

/**
 * Opens and closes a listener on `port` as the server will (all addresses):
 * a port in use stops start-up in one line before the data directory,
 * secrets or migrations are touched. The port may still be taken between
 * this check and the real listen; that rare case ends as before, later.
 */
export async function checkPortFree(port: number): Promise<void> {
  const { createServer } = await import('node:net');
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new PortInUseError(`Questline: PORT ${port} is already in use (another Questline or another server?); stop it or set PORT to a free port`));
      else if (err.code === 'EACCES') reject(new PortInUseError(`Questline: PORT ${port} may not be opened by this user (ports below 1024 need privileges); set PORT to another port`));
      else reject(err);
    });
    probe.listen(port, () => probe.close(() => resolve()));
  });
}
