// Staff addresses on the bare host `localhost` (the embedded default's first
// admin is admin@localhost). Better Auth's sign-in accepts only addresses with
// a dotted domain, so such an address is stored as `…@localhost.localdomain`
// and shown, typed and audited as `…@localhost`. Imports nothing server-side.
const STORED_SUFFIX = '@localhost.localdomain';
const SHOWN_SUFFIX = '@localhost';

/** The address as the staff table and Better Auth hold it. */
export function toStoredEmail(email: string): string {
  const normal = email.trim().toLowerCase();
  return normal.endsWith(SHOWN_SUFFIX) ? normal.slice(0, -SHOWN_SUFFIX.length) + STORED_SUFFIX : normal;
}

/** The address as people type and read it. */
export function toShownEmail(stored: string): string {
  return stored.endsWith(STORED_SUFFIX) ? stored.slice(0, -STORED_SUFFIX.length) + SHOWN_SUFFIX : stored;
}
