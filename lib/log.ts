// Structured one-line JSON logs on stderr; never sent to clients.
export function logError(message: string, err: unknown, fields: Record<string, unknown> = {}): void {
  const detail = err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
  console.error(JSON.stringify({ level: 'error', at: new Date().toISOString(), message, ...fields, ...detail }));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.QUESTLINE_QUIET === '1') return;
  console.log(JSON.stringify({ level: 'info', at: new Date().toISOString(), message, ...fields }));
}

/** Something went wrong that the service absorbed (a fallback answered instead); never silenced. */
export function logWarn(message: string, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: 'warn', at: new Date().toISOString(), message, ...fields }));
}
