// The catalog document of an app (admin API GET/PUT, catalog as code): every
// item is validated with the entity's own schema.
import { z } from 'zod';
import { campaignSchema, type Campaign } from './campaign';
import { missionSchema, type Mission } from './mission';
import { themePresetSchema, type ThemePreset } from './theme';

export const CATALOG_LIMITS = { missions: 5000, campaigns: 1000, themes: 200 } as const;

export const catalogSchema = z.object({
  missions: z.array(missionSchema).max(CATALOG_LIMITS.missions).default([]),
  campaigns: z.array(campaignSchema).max(CATALOG_LIMITS.campaigns).default([]),
  themes: z.array(themePresetSchema).max(CATALOG_LIMITS.themes).optional().describe('Theme presets; campaigns refer to them by themeId'),
});

/**
 * What GET answers (and PUT after writing): every item with its defaults,
 * `archived` included; `themes` only when the app has any (a catalog
 * without presets keeps its historical shape).
 */
export interface CatalogDocument {
  missions: Mission[];
  campaigns: Campaign[];
  themes?: ThemePreset[];
}
