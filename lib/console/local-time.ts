// The value of an <input type="datetime-local">: a time in the reader's zone,
// with no zone written. The console's forms convert with these two.
const pad = (n: number) => String(n).padStart(2, '0');

/** Unix ms → a datetime-local value in the reader's zone; empty for none. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value → Unix ms: null when empty, NaN when not a time (so the schema names the field). */
export function fromLocalInput(text: string): number | null {
  if (text.trim() === '') return null;
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? Number.NaN : ms;
}
