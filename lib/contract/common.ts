// Building blocks shared by the contract's entities: ids and timestamps.
import { z } from 'zod';

/**
 * An id of the catalog or of an app (letters, digits and `_ . : -`, 1 to 64), never `.` or `..`:
 * ids are path segments (`/missions/:id`), and a URL resolves those two away, so such an item could
 * never be read, edited or claimed by its path.
 */
export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
  .regex(/^(?!\.{1,2}$)/, 'not "." or ".." (a path segment a URL resolves away)');

/** A Unix time in milliseconds. */
export const timestampSchema = z.number().int().nonnegative();
