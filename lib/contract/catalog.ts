// The catalog document of an app (admin API GET/PUT, catalog as code): every
// item is validated with the entity's own schema.
import { z } from 'zod';
import { campaignSchema, type Campaign } from './campaign';
import { currencyDefinitionSchema, ECONOMY_LIMITS, itemDefinitionSchema, type CurrencyDefinition, type ItemDefinition } from './economy';
import { missionSchema, type Mission } from './mission';
import { themePresetSchema, type ThemePreset } from './theme';

export const CATALOG_LIMITS = { missions: 5000, campaigns: 1000, themes: 200 } as const;

export const catalogSchema = z.object({
  missions: z.array(missionSchema).max(CATALOG_LIMITS.missions).default([]),
  campaigns: z.array(campaignSchema).max(CATALOG_LIMITS.campaigns).default([]),
  themes: z.array(themePresetSchema).max(CATALOG_LIMITS.themes).optional().describe('Theme presets; campaigns refer to them by themeId'),
  currencies: z
    .array(currencyDefinitionSchema)
    .max(ECONOMY_LIMITS.currencies)
    .optional()
    .describe('The app’s currencies. Present: every currency reward, budget line and grant must name one of them (400 validation_error otherwise). Absent: the currencies the catalog names are the app’s, each with name = id'),
  items: z
    .array(itemDefinitionSchema)
    .max(ECONOMY_LIMITS.items)
    .optional()
    .describe('The app’s items and badges. Present: every item reward (itemId) must name an item of kind item, every badge reward (badgeId) one of kind badge'),
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
  /** Only when the app defines its currencies (issue 39 §1): a catalog without them keeps its historical shape. */
  currencies?: CurrencyDefinition[];
  items?: ItemDefinition[];
}
