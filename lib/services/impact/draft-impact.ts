// What the app's draft would have done over the last `days` days of stored
// events, against the live catalog (POST …/draft/impact): the draft document
// becomes a catalog the engine reads, then replayImpact replays the events
// through the same engine function ingestion uses, once per catalog.
import { buildCatalog } from '@/lib/catalog/catalog';
import type { ServiceContext } from '../context';
import { findDraft, noDraft } from '../drafts/draft-row';
import { replayImpact, type ImpactReport } from './replay-impact';

export async function draftImpact({ ctx, input }: { ctx: ServiceContext; input: { days: number } }): Promise<ImpactReport> {
  const row = await findDraft(ctx.deps.db, ctx.appId);
  if (!row) throw noDraft(ctx.appId);
  const live = await ctx.deps.catalog(ctx.appId);
  const doc = row.catalog;
  const draft = buildCatalog(ctx.appId, doc.missions, doc.campaigns, ctx.now(), new Map(), doc.themes ?? []);
  return replayImpact({ ctx, input: { days: input.days, live, draft } });
}
