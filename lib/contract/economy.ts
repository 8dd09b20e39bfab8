// The economy an app defines (issue 39 §1): its currencies and its items and
// badges, two optional sections of the catalog document. With a section
// present every reward, budget line and grant must name one of its ids (the
// check is lib/catalog/economy.ts); without it the ids the catalog names are
// the app's, each with name = id (docs/api.md "Defined currencies and items").
import { z } from 'zod';

/** How many definitions a section may hold. */
export const ECONOMY_LIMITS = { currencies: 200, items: 5000 } as const;

const displayName = z.string().trim().min(1, { error: 'Enter a name' }).max(100);
const description = z.string().max(2000);
const iconUrl = z.string().max(2048);

export const currencyDefinitionSchema = z
  .object({
    id: z.string().min(1).max(64).describe('What rewards, budget lines, grants and balances name (case-sensitive)'),
    name: displayName.describe('The display name players see'),
    description: description.optional(),
    iconUrl: iconUrl.optional(),
    maxBalance: z
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('A grant, claim or spend that would take a balance past it answers 409 balance_limit (nothing written); absent: no limit'),
  })
  .meta({ id: 'CurrencyDefinition', examples: [{ id: 'gems', name: 'Gems', iconUrl: 'https://cdn.example.com/gems.png', maxBalance: 100000 }] });
export type CurrencyDefinition = z.output<typeof currencyDefinitionSchema>;

export const itemDefinitionSchema = z
  .object({
    id: z.string().min(1).max(128).describe('What item rewards (itemId) or badge rewards (badgeId) name (case-sensitive)'),
    name: displayName.describe('The display name players see'),
    kind: z.enum(['item', 'badge']).describe('item: named by item rewards (itemId); badge: by badge rewards (badgeId)'),
    description: description.optional(),
    iconUrl: iconUrl.optional(),
    stackable: z.boolean().optional().describe('Whether a player holds a count of it (display only)'),
  })
  .meta({ id: 'ItemDefinition', examples: [{ id: 'winter-badge', name: 'Winter badge', kind: 'badge', iconUrl: 'https://cdn.example.com/winter.png' }] });
export type ItemDefinition = z.output<typeof itemDefinitionSchema>;

/** The sections of a catalog document (each optional: absent is not empty). */
export interface EconomySections {
  currencies?: CurrencyDefinition[];
  items?: ItemDefinition[];
}

/** PUT …/draft/economy: the draft's sections (a section absent here is left as the draft has it). */
export const draftEconomyInputSchema = z
  .object({
    currencies: z.array(z.unknown()).max(ECONOMY_LIMITS.currencies).optional().describe('CurrencyDefinition items (each validated with its schema)'),
    items: z.array(z.unknown()).max(ECONOMY_LIMITS.items).optional().describe('ItemDefinition items (each validated with its schema)'),
  })
  .strict()
  .meta({
    id: 'DraftEconomy',
    examples: [{ currencies: [{ id: 'gems', name: 'Gems', maxBalance: 100000 }, { id: 'coins', name: 'Coins' }], items: [{ id: 'winter-badge', name: 'Winter badge', kind: 'badge' }] }],
  });

/** GET …/economy: the app's live currencies and items, defined or implied (name = id). */
export const economySchema = z
  .object({
    currencies: z.array(currencyDefinitionSchema.extend({ implied: z.boolean().describe('true: named by the catalog or a balance, not defined (name = id)') })),
    items: z.array(itemDefinitionSchema.extend({ implied: z.boolean() })),
    defined: z
      .object({ currencies: z.boolean(), items: z.boolean() })
      .describe('Whether the live catalog carries the section: then grants, rewards and budgets must name its ids'),
  })
  .meta({ id: 'Economy' });
export type Economy = z.output<typeof economySchema>;
