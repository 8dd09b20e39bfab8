// Drafts and releases of an app's catalog (docs/api.md "Drafts and releases"):
// at most one draft per app, a catalog document staff edit before it goes
// live; every publish, whatever its path, makes a numbered release that keeps
// the whole catalog it published, who, when and what changed.
import { z } from 'zod';
import { catalogSchema } from './catalog';
import { idSchema } from './common';

export const catalogChangeSchema = z
  .object({
    kind: z.enum(['mission', 'campaign', 'theme', 'currency', 'item']),
    id: idSchema,
    change: z.enum(['added', 'changed', 'removed']),
  })
  .meta({ id: 'CatalogChange', description: 'One item of the catalog that differs from the other catalog (the draft against live, or a release against the one before it)' });
export type CatalogChange = z.output<typeof catalogChangeSchema>;

/** GET, PUT …/draft and POST …/releases/:release/restore answer the draft. */
export const draftSchema = z
  .object({
    catalog: catalogSchema.describe('The draft catalog, in the shape of GET …/catalog'),
    baseRelease: z.number().int().min(0).describe('The release the draft was started from (0: before any release)'),
    changes: z.array(catalogChangeSchema).describe('What publishing it would change against the live catalog'),
    updatedAt: z.number().int(),
    updatedBy: z.string().describe('Who wrote it last (staff:<email> or admin-api-key)'),
    scheduledAt: z.number().int().nullable().describe('When its publish is scheduled (Unix ms), or null'),
  })
  .meta({ id: 'Draft' });
export type Draft = z.output<typeof draftSchema>;

/**
 * GET …/draft's query: allowMissing=true answers 204 (no body) instead of 404
 * draft_not_found when the app has no draft, for a reader to whom no draft is
 * an ordinary state (the console's screens: a 404 is a failed request in the
 * browser). Other parameters are ignored, as before this one.
 */
export const draftQuerySchema = z.object({
  allowMissing: z.enum(['true', 'false']).optional().describe('true: 204 with no body when the app has no draft (instead of 404 draft_not_found)'),
}); // no meta id: a query schema is documented as its parameters

export const publishInputSchema = z
  .object({
    at: z.number().int().positive().optional().describe('Publish at this time (Unix ms, in the future) instead of now'),
  })
  .strict()
  .meta({ id: 'PublishDraft' });

export const publishedSchema = z
  .object({ release: z.number().int().positive(), publishedAt: z.number().int() })
  .meta({ id: 'Published', description: 'The release the publish made' });

export const scheduledSchema = z.object({ scheduledAt: z.number().int() }).meta({ id: 'ScheduledPublish' });

export const releaseSummarySchema = z
  .object({
    release: z.number().int().positive(),
    publishedAt: z.number().int(),
    publishedBy: z.string(),
    changes: z.array(catalogChangeSchema),
  })
  .meta({ id: 'ReleaseSummary' });

export const releaseListSchema = z
  .object({
    releases: z.array(releaseSummarySchema).describe('Newest first'),
    scheduled: z
      .object({ scheduledAt: z.number().int(), scheduledBy: z.string(), changes: z.array(catalogChangeSchema) })
      .nullable()
      .describe('The draft’s scheduled publish, if any, with what it would change now'),
  })
  .meta({ id: 'ReleaseList' });
export type ReleaseList = z.output<typeof releaseListSchema>;

export const releaseParamSchema = z.coerce.number().int().positive();

/** POST …/draft/preview: whose view of the draft, and when (Unix ms; the service clock when absent). */
export const previewInputSchema = z
  .object({
    userId: z.string().min(1).max(200).describe('The player whose stored progress and attributes are read'),
    at: z.number().int().positive().optional().describe('Unix ms the preview reads at (campaign start/end, windows); now when absent'),
  })
  .strict()
  .meta({ id: 'PreviewInput' });

/** POST …/draft/impact: how many days of stored events to replay. */
export const impactInputSchema = z
  .object({ days: z.number().int().min(1).max(90).default(30).describe('Replay the stored events of the last `days` days (1 to 90)') })
  .strict()
  .meta({ id: 'ImpactInput' });

const impactCountsSchema = z.object({
  inProgress: z.number().int().min(0).describe('Users with at least one counted event who never reached the target in the period'),
  completed: z.number().int().min(0).describe('Distinct users who reached the target at least once in the period'),
});
const payoutSchema = z.record(z.string(), z.number()).describe('Currency → amount those completions would grant if claimed (every cycle of a recurring mission)');

/** What the draft would have done over the period, against the live catalog, per mission it adds, changes or removes. */
export const impactReportSchema = z
  .object({
    from: z.number().int().describe('Start of the period (Unix ms, inclusive)'),
    to: z.number().int().describe('End of the period (Unix ms, exclusive): the service clock when the replay started'),
    events: z.number().int().min(0).describe('Stored events of the period the replay read (those whose name a replayed mission counts)'),
    missions: z.array(
      z.object({
        missionId: idSchema,
        change: z.enum(['added', 'changed', 'removed']),
        live: impactCountsSchema,
        draft: impactCountsSchema,
        payout: z.object({ live: payoutSchema, draft: payoutSchema }),
      }),
    ),
  })
  .meta({ id: 'ImpactReport' });

/** The collections of a catalog document an item route names: …/draft/missions/:id, …/draft/campaigns/:id, …/draft/themes/:id. */
export const DRAFT_COLLECTIONS = { missions: 'mission', campaigns: 'campaign', themes: 'theme' } as const;
export type DraftCollection = keyof typeof DRAFT_COLLECTIONS;

/** POST …/draft/:collection/:id/revert answers the draft and what the item now is in it. */
export const draftItemRevertSchema = z
  .object({
    draft: draftSchema,
    restored: z.enum(['live', 'removed']).describe('live: the draft holds the live version of the item again; removed: the item is not live, so it left the draft'),
  })
  .meta({ id: 'DraftItemReverted' });

/** POST …/draft/campaigns/:id/duplicate: the copy's id and title, both optional. */
export const duplicateCampaignInputSchema = z
  .object({
    id: idSchema.optional().describe('The copy’s id; `<id>-copy` (then `-copy-2`, …) when absent. Refused (409 conflict) when the draft or the live catalog has it'),
    title: z.string().min(1).max(200).optional().describe('The copy’s title; "<title> (copy)" when absent'),
  })
  .strict()
  .meta({ id: 'DuplicateCampaignInput' });
export type DuplicateCampaignInput = z.output<typeof duplicateCampaignInputSchema>;

/** What POST …/draft/campaigns/:id/duplicate answers: the draft, the copy's id and each copied mission's new id. */
export const draftCampaignDuplicatedSchema = z
  .object({
    draft: draftSchema,
    campaignId: idSchema.describe('The copy’s id'),
    missionIds: z.record(z.string(), idSchema).describe('Original mission id → its copy’s id (the campaign’s missions that are not archived)'),
  })
  .meta({ id: 'DraftCampaignDuplicated' });
export type DraftCampaignDuplicated = z.output<typeof draftCampaignDuplicatedSchema>;

/** GET …/missions/:missionId/progress: the players who have a progress record of the mission now, by status. */
export const missionProgressCountsSchema = z
  .object({
    missionId: idSchema,
    players: z.number().int().min(0).describe('Players with a progress record of the mission (one record per player)'),
    active: z.number().int().min(0).describe('Counting towards the target (of the current cycle, for a recurring mission)'),
    completed: z.number().int().min(0).describe('Reached the target, not claimed yet'),
    claimed: z.number().int().min(0).describe('Reached the target and claimed the reward'),
  })
  .meta({ id: 'MissionProgressCounts', examples: [{ missionId: 'ranked-ace', players: 12, active: 4, completed: 5, claimed: 3 }] });
export type MissionProgressCounts = z.output<typeof missionProgressCountsSchema>;
