// Building blocks shared by the contract's entities: ids and timestamps.
import { z } from 'zod';

/** An id of the catalog or of an app (letters, digits and `_ . : -`, 1 to 64). */
export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

/** A Unix time in milliseconds. */
export const timestampSchema = z.number().int().nonnegative();
