// App secrets are generated with 256 bits of entropy, so a plain SHA-256 is a
// safe and fast way to store them (no dictionary to attack); compares are
// constant-time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function generateSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Burns the same work as a real comparison when the app does not exist. */
export function secretMatchesNothing(secret: string): false {
  secretMatches(secret, hashSecret('questline-no-such-app'));
  return false;
}
