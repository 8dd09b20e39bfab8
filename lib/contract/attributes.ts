// User attributes: what the game backend (holding the app secret) tells the
// service about a player, on POST /v1/auth/token or in a signed webhook
// delivery; never settable with a player's token. Stored per app and user,
// merged key by key (null deletes a key). `timezone` is reserved: an IANA zone
// name, the user's calendar for daily, weekly and monthly windows. Audiences
// (missions, campaigns) filter on them.
import { z } from 'zod';

export const MAX_ATTRIBUTES = 32;
const MAX_ATTRIBUTE_KEY_LENGTH = 64;
const MAX_ATTRIBUTE_STRING_LENGTH = 256;
/** The reserved attribute naming the user's IANA time zone. */
export const TIMEZONE_ATTRIBUTE = 'timezone';

/** The zone of every user without a `timezone` attribute. */
export const UTC_ZONE = 'UTC';

type AttributeValue = string | number | boolean;
export type UserAttributes = Record<string, AttributeValue>;

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical IANA name of `zone` (e.g. "europe/berlin" → "Europe/Berlin"),
 * or null when Intl does not know it. UTC offsets ("+01:00") are not zone names.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zone.length === 0 || zone.length > 64 || !ZONE_NAME.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const attributeValueSchema = z.union([
  z.string().max(MAX_ATTRIBUTE_STRING_LENGTH),
  z.number().refine(Number.isFinite, 'must be a finite number'),
  z.boolean(),
  z.null(),
]);

/** An attributes update: key → string, number or boolean (null deletes the key); the stored result is the merge. */
export const attributesUpdateSchema = z
  .record(z.string().min(1).max(MAX_ATTRIBUTE_KEY_LENGTH), attributeValueSchema)
  .superRefine((attrs, ctx) => {
    if (Object.keys(attrs).length > MAX_ATTRIBUTES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_ATTRIBUTES} keys` });
    const zone = attrs[TIMEZONE_ATTRIBUTE];
    if (zone !== undefined && zone !== null && (typeof zone !== 'string' || canonicalTimeZone(zone) === null)) {
      ctx.addIssue({ code: 'custom', path: [TIMEZONE_ATTRIBUTE], message: 'must be an IANA time zone name (e.g. "Europe/Berlin")' });
    }
  })
  .describe(
    `User attributes to merge: key (1–${MAX_ATTRIBUTE_KEY_LENGTH} characters) → string (≤ ${MAX_ATTRIBUTE_STRING_LENGTH} characters), number or boolean; null deletes the key. At most ${MAX_ATTRIBUTES} keys, in the update and stored. \`timezone\` is reserved: an IANA zone name, the user's calendar for daily, weekly and monthly windows.`,
  );
export type AttributesUpdate = z.output<typeof attributesUpdateSchema>;

/**
 * A whole set of attributes, as a player would have them stored (no null: a
 * hypothetical player of the draft preview): the same keys, values, limits
 * and `timezone` check as an update.
 */
export const playerAttributesSchema = z
  .record(z.string().min(1).max(MAX_ATTRIBUTE_KEY_LENGTH), z.union([z.string().max(MAX_ATTRIBUTE_STRING_LENGTH), z.number().refine(Number.isFinite, 'must be a finite number'), z.boolean()]))
  .superRefine((attrs, ctx) => {
    if (Object.keys(attrs).length > MAX_ATTRIBUTES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_ATTRIBUTES} keys` });
    const zone = attrs[TIMEZONE_ATTRIBUTE];
    if (zone !== undefined && (typeof zone !== 'string' || canonicalTimeZone(zone) === null)) {
      ctx.addIssue({ code: 'custom', path: [TIMEZONE_ATTRIBUTE], message: 'must be an IANA time zone name (e.g. "Asia/Tokyo")' });
    }
  })
  .describe(
    `A player's attributes: key (1–${MAX_ATTRIBUTE_KEY_LENGTH} characters) → string (≤ ${MAX_ATTRIBUTE_STRING_LENGTH} characters), number or boolean, at most ${MAX_ATTRIBUTES} keys. \`timezone\` (an IANA zone name) is the calendar of daily, weekly and monthly windows; UTC when absent.`,
  );

/** The stored attributes of a user (the inspector shows them). */
export const userAttributesSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
