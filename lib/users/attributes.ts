// A user's stored attributes (app_users.attributes): reading them, merging an
// update under the user's lock, and the zone their windows use. Every change
// of attributes takes the user's next sequence number (user_sequences), like
// every writer of progress, so the per-user state cache keyed on that number
// (lib/progress/user-state.ts) sees it:
// the next request reads the new attributes.
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { AppError } from '@/lib/errors';
import { canonicalTimeZone, MAX_ATTRIBUTES, TIMEZONE_ATTRIBUTE, UTC_ZONE, type AttributesUpdate, type UserAttributes } from '@/lib/contract/attributes';

export type { UserAttributes } from '@/lib/contract/attributes';

/** json/jsonb values come back parsed from node-postgres and PGlite; text when a driver does not. */
export function parseAttributes(value: unknown): UserAttributes {
  if (value === null || value === undefined) return {};
  return (typeof value === 'string' ? JSON.parse(value) : value) as UserAttributes;
}

/** The IANA zone of the user's windows: their `timezone` attribute, else UTC. */
export function zoneOf(attributes: UserAttributes): string {
  const zone = attributes[TIMEZONE_ATTRIBUTE];
  if (typeof zone !== 'string') return UTC_ZONE;
  return canonicalTimeZone(zone) ?? UTC_ZONE;
}

/** The user's stored attributes ({} when none). */
export async function readAttributes(db: DbOrTx, appId: string, userId: string): Promise<UserAttributes> {
  const result = await db.execute(sql`select attributes from app_users where app_id = ${appId} and user_id = ${userId}`);
  const rows = (result as unknown as { rows: Array<{ attributes: unknown }> }).rows;
  return parseAttributes(rows[0]?.attributes);
}

/** `current` with `update` merged: null deletes a key; a timezone is stored under its canonical name. */
function mergeAttributes(current: UserAttributes, update: AttributesUpdate): UserAttributes {
  const merged: UserAttributes = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = key === TIMEZONE_ATTRIBUTE && typeof value === 'string' ? (canonicalTimeZone(value) ?? value) : value;
  }
  return merged;
}

/**
 * Merges `update` into the user's attributes in `tx`. The caller holds the
 * user's lock (lockUser / lockUsers: the user_sequences row); the user's
 * sequence number is bumped and answered, to be published (empty) after
 * commit. More than MAX_ATTRIBUTES keys after the merge: 400, nothing written.
 */
export async function applyAttributeUpdate(
  tx: Tx,
  scope: { appId: string; userId: string; field: string },
  update: AttributesUpdate,
  now: number,
): Promise<{ seq: number; attributes: UserAttributes }> {
  const { appId, userId } = scope;
  const current = await readAttributes(tx, appId, userId);
  const attributes = mergeAttributes(current, update);
  if (Object.keys(attributes).length > MAX_ATTRIBUTES) {
    throw new AppError('validation_error', `${scope.field}: a user has at most ${MAX_ATTRIBUTES} attributes (this update would make ${Object.keys(attributes).length})`);
  }
  const json = JSON.stringify(attributes);
  await tx.execute(sql`insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events, attributes)
    values (${appId}, ${userId}, ${now}, ${now}, 0, ${json}::jsonb)
    on conflict (app_id, user_id) do update set attributes = excluded.attributes`);
  const bumped = await tx.execute(
    sql`update user_sequences set seq = seq + 1, changed_at = ${now} where app_id = ${appId} and user_id = ${userId} returning seq::text as seq`,
  );
  const seq = Number((bumped as unknown as { rows: Array<{ seq: string }> }).rows[0].seq);
  return { seq, attributes };
}
