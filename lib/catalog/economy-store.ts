// Writes an app's currencies and items (the catalog_economy row) inside a
// catalog write: the sections it will hold, completed with what the catalog
// still names outside them (name = id), audited when they change.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { balances, catalogEconomy } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { Campaign } from '@/lib/contract/campaign';
import type { EconomySections } from '@/lib/contract/economy';
import type { Mission } from '@/lib/contract/mission';
import { canonicalJson } from './convert';
import { completeSections, namedIds } from './economy';

/** The currencies players of the app hold (at most 500, by id): what a first definition of the section keeps. */
async function heldCurrencies(tx: Tx, appId: string): Promise<string[]> {
  const rows = await tx.selectDistinct({ currency: balances.currency }).from(balances).where(eq(balances.appId, appId)).orderBy(balances.currency).limit(500);
  return rows.map((r) => r.currency);
}

/**
 * Stores `wanted` (a section absent: the stored one kept) completed with the
 * ids `missions` and `campaigns` (the whole catalog after the write, archived
 * included) name outside it; a section defined for the first time also keeps
 * every currency players hold. Answers whether anything changed.
 */
export async function storeEconomy(
  tx: Tx,
  input: { appId: string; stored: EconomySections; wanted: EconomySections; missions: readonly Mission[]; campaigns: ReadonlyArray<Pick<Campaign, 'budget'>>; actor: string; now: number },
): Promise<boolean> {
  const { appId, stored, now } = input;
  const wanted: EconomySections = { currencies: input.wanted.currencies ?? stored.currencies, items: input.wanted.items ?? stored.items };
  if (!wanted.currencies && !wanted.items) return false;
  const named = namedIds(input.missions, input.campaigns);
  if (wanted.currencies && !stored.currencies) named.currencies.push(...(await heldCurrencies(tx, appId)));
  const next = completeSections(wanted, named);
  const before = { currencies: stored.currencies ?? null, items: stored.items ?? null };
  const after = { currencies: next.currencies ?? null, items: next.items ?? null };
  if (canonicalJson(before) === canonicalJson(after)) return false;
  await tx
    .insert(catalogEconomy)
    .values({ appId, ...after, updatedAt: now })
    .onConflictDoUpdate({ target: catalogEconomy.appId, set: { currencies: sql`excluded.currencies`, items: sql`excluded.items`, updatedAt: now } });
  await recordAudit(tx, { actor: input.actor, action: 'economy.update', appId, target: 'economy', before, after }, now);
  return true;
}
