// GET …/economy: the app's live currencies and items as pickers and the
// Economy screen read them: the sections the app defines, completed with what
// its catalog names and (currencies) what its players hold, those marked
// implied (name = id).
import { eq } from 'drizzle-orm';
import { balances } from '@/db/schema';
import { effectiveEconomy, namedIds } from '@/lib/catalog/economy';
import type { Economy } from '@/lib/contract/economy';
import type { ServiceContext } from '../context';

export async function readEconomy({ ctx }: { ctx: ServiceContext }): Promise<Economy> {
  const catalog = await ctx.deps.catalog(ctx.appId);
  const named = namedIds(catalog.ordered, [...catalog.campaigns.values()]);
  const held = await ctx.deps.db
    .selectDistinct({ currency: balances.currency })
    .from(balances)
    .where(eq(balances.appId, ctx.appId))
    .orderBy(balances.currency)
    .limit(500);
  named.currencies.push(...held.map((r) => r.currency));
  return effectiveEconomy(catalog.economy, named);
}
