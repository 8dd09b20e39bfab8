// The catalog document of an app (admin API GET/PUT, catalog as code): every
// item is validated with the entity's own schema.
import { z } from 'zod';
import { campaignSchema, type Campaign } from './campaign';
import { missionSchema, type Mission } from './mission';

export const CATALOG_LIMITS = { missions: 5000, campaigns: 1000 } as const;

export const catalogSchema = z.object({
  missions: z.array(missionSchema).max(CATALOG_LIMITS.missions).default([]),
  campaigns: z.array(campaignSchema).max(CATALOG_LIMITS.campaigns).default([]),
});
export type CatalogInput = z.input<typeof catalogSchema>;

/** What GET answers (and PUT after writing): every item with its defaults, `archived` included. */
export interface CatalogDocument {
  missions: Mission[];
  campaigns: Campaign[];
}
