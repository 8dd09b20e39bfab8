// What GET /v1/missions would answer one player from the app's draft at a
// given time: the draft document becomes a catalog, and listMissions (the
// very function /v1/missions calls) reads the player's stored records and
// attributes against it with `at` as its clock. No rule is repeated here.
// No draft: draft_not_found (previewing live is what /v1/missions answers).
import { buildCatalog, type Catalog } from '@/lib/catalog/catalog';
import type { MissionView } from '@/lib/missions/read-missions';
import type { ServiceContext } from '../context';
import { listMissions } from '../missions/list-missions';
import { findDraft, noDraft } from './draft-row';

export interface PreviewAsPlayerInput {
  userId: string;
  /** Unix ms the preview reads at; the service clock when absent. */
  at?: number;
}

export interface PlayerPreview {
  userId: string;
  at: number;
  /** The draft as a catalog (the answer's JSON is built from it, as /v1/missions builds it from live). */
  catalog: Catalog;
  views: MissionView[];
}

export async function previewAsPlayer({ ctx, input }: { ctx: ServiceContext; input: PreviewAsPlayerInput }): Promise<PlayerPreview> {
  const row = await findDraft(ctx.deps.db, ctx.appId);
  if (!row) throw noDraft(ctx.appId);
  const at = input.at ?? ctx.now();
  const doc = row.catalog;
  const catalog = buildCatalog(ctx.appId, doc.missions, doc.campaigns, at, new Map(), doc.themes ?? []);
  const { views } = await listMissions({
    ctx: { ...ctx, catalog, now: () => at },
    input: { userId: input.userId, status: 'all', limit: Number.MAX_SAFE_INTEGER, after: null, includeExpired: false },
  });
  return { userId: input.userId, at, catalog, views };
}
