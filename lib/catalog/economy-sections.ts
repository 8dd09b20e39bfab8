// An app's currencies and items as the catalog_economy row holds them: the one
// reader of that row, for the catalog cache (lib/catalog/catalog.ts), the live
// catalog document, its export and write, and a staff grant's currency check.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { catalogEconomy } from '@/db/schema';
import type { EconomySections } from '@/lib/contract/economy';

/**
 * The sections the app defines (none: {}), read with `db`: inside a
 * transaction pass it (on the embedded database's one connection, a read
 * through another handle waits for the transaction to end: a deadlock).
 */
export async function readEconomySections(db: DbOrTx, appId: string): Promise<EconomySections> {
  const [row] = await db.select({ currencies: catalogEconomy.currencies, items: catalogEconomy.items }).from(catalogEconomy).where(eq(catalogEconomy.appId, appId));
  const out: EconomySections = {};
  if (row?.currencies) out.currencies = row.currencies;
  if (row?.items) out.items = row.items;
  return out;
}
