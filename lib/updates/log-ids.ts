// Log ids: `<ms>-<seq>` (the Redis stream id shape), compared by (ms, seq),
// and the bus message that carries a logged update.
import type { LogEntry } from './log';

/** The bus message carrying one logged update. */
export function encodeBusMessage(id: string, update: string): string {
  return `{"id":${JSON.stringify(id)},"update":${update}}`;
}

export function decodeBusMessage(message: string): LogEntry | null {
  try {
    const parsed = JSON.parse(message) as { id?: unknown; update?: unknown };
    if (typeof parsed.id !== 'string' || !parsed.update || typeof parsed.update !== 'object') return null;
    return { id: parsed.id, update: JSON.stringify(parsed.update) };
  } catch {
    return null;
  }
}

/** Below every id either adapter makes: "everything after" it is the whole log. */
export const MIN_LOG_ID = '0-0';

const ID = /^(\d{1,16})-(\d{1,16})$/;

/** (ms, seq) of a well-formed id; null otherwise. */
export function parseLogId(id: string): [number, number] | null {
  const m = ID.exec(id);
  if (!m) return null;
  const ms = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? [ms, seq] : null;
}

/** Negative, zero or positive like a sort comparator; both ids must be well formed. */
export function compareLogIds(a: string, b: string): number {
  const pa = parseLogId(a);
  const pb = parseLogId(b);
  if (!pa || !pb) throw new Error(`not a log id: ${pa ? b : a}`);
  return pa[0] - pb[0] || pa[1] - pb[1];
}

/**
 * A client-sent Last-Event-ID we can resume from, or null for "unknown":
 * malformed, or more than a minute in the future (a forged or foreign id
 * would otherwise make the stream skip every live message up to it).
 */
export function resumableId(id: string | null | undefined, now = Date.now()): string | null {
  if (!id) return null;
  const parsed = parseLogId(id.trim());
  if (!parsed || parsed[0] > now + 60_000) return null;
  return id.trim();
}

