// Drafts and releases of an app's catalog (docs/api.md "Drafts and releases"):
// at most one draft per app, a catalog document staff edit before it goes
// live; every publish, whatever its path, makes a numbered release that keeps
// the whole catalog it published, who, when and what changed.
import { z } from 'zod';
import { playerAttributesSchema } from './attributes';
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

/** One field of an item that differs: its path in the item (`criteria.count`, `reward`, `budget.gems`), its value before and after (null: not set). */
export const fieldChangeSchema = z
  .object({
    path: z.string(),
    before: z.unknown().describe('The live value (null: not set, or the item is added)'),
    after: z.unknown().describe('The draft’s value (null: not set, or the item is removed)'),
  })
  .meta({ id: 'FieldChange' });
export type FieldChange = z.output<typeof fieldChangeSchema>;

/** A change with its fields: what the review shows, field by field. */
export const catalogChangeDetailSchema = catalogChangeSchema
  .extend({ fields: z.array(fieldChangeSchema).describe('Each field that differs (an added or removed item: each field it has)') })
  .meta({ id: 'CatalogChangeDetail', description: 'A change of the draft against live, field by field' });
export type CatalogChangeDetail = z.output<typeof catalogChangeDetailSchema>;

const DRAFT_WARNING_CODES = ['reward_multiplied', 'reward_added_to_completed', 'budget_removed', 'budget_below_spent'] as const;

/** Something in the draft that may pay out much more than live: publishing it needs acknowledgeWarnings: true. */
export const draftWarningSchema = z
  .object({
    code: z.enum(DRAFT_WARNING_CODES).describe('reward_multiplied: a reward or budget ×10 or more; reward_added_to_completed: a reward a mission did not grant, on a mission players have completed; budget_removed: a campaign budget line removed; budget_below_spent: a budget lowered below what the campaign has paid'),
    kind: z.enum(['mission', 'campaign', 'theme']),
    id: idSchema,
    path: z.string().describe('The field, as in the change’s fields (reward, budget.gems)'),
    message: z.string(),
    factor: z.number().optional().describe('reward_multiplied: after ÷ before'),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
    players: z.number().int().optional().describe('reward_added_to_completed: players who have completed or claimed the mission'),
    spent: z.number().int().optional().describe('budget_below_spent, budget_removed: what the campaign has paid of the currency'),
  })
  .meta({ id: 'DraftWarning' });
export type DraftWarning = z.output<typeof draftWarningSchema>;

/**
 * A scheduled publish: a snapshot of the draft taken when it was scheduled.
 * Edits made after it stay in the draft (the next one) and are not in it.
 */
export const scheduledReleaseSchema = z
  .object({
    scheduledAt: z.number().int().describe('When it goes live (Unix ms)'),
    scheduledBy: z.string().describe('Who scheduled it (staff:<email> or admin-api-key)'),
    release: z.number().int().positive().describe('The release number it will make, unless another publish goes first'),
    changes: z.array(catalogChangeSchema).describe('What it makes live: the draft as it was when scheduled, against the live catalog now'),
    changesSince: z.array(catalogChangeSchema).describe('Edits of the draft since it was scheduled: not in it, they stay in the draft for the next release'),
  })
  .meta({ id: 'ScheduledRelease' });
export type ScheduledRelease = z.output<typeof scheduledReleaseSchema>;

/**
 * A publish waiting for approval (the app's requireApproval, docs/api.md
 * "Approval"): a snapshot of the draft taken when it was asked for, as a
 * scheduled release holds one. Edits made after stay in the draft.
 */
export const pendingApprovalSchema = z
  .object({
    requestedBy: z.string().describe('Who asked to publish (staff:<email> or admin-api-key): they cannot approve it'),
    requestedAt: z.number().int(),
    publishAt: z.number().int().nullable().describe('The time it is to go live once approved (Unix ms; approved after that time, it goes live at once), or null: as soon as it is approved'),
    release: z.number().int().positive().describe('The release number it will make, unless another publish goes first'),
    changes: z.array(catalogChangeSchema).describe('What it makes live: the snapshot against the live catalog now'),
    changeDetails: z.array(catalogChangeDetailSchema).describe('The changes with each field before → after'),
    warnings: z.array(draftWarningSchema).describe('The snapshot’s payout warnings against live now: approving needs acknowledgeWarnings: true while there are any'),
    changesSince: z.array(catalogChangeSchema).describe('Edits of the draft since it was asked for: not in it, they stay in the draft'),
  })
  .meta({ id: 'PendingApproval' });
export type PendingApproval = z.output<typeof pendingApprovalSchema>;

/** The last request that was rejected, until the next one: who rejected it and why. */
export const approvalRejectionSchema = z
  .object({
    requestedBy: z.string(),
    rejectedBy: z.string(),
    rejectedAt: z.number().int(),
    reason: z.string(),
  })
  .meta({ id: 'ApprovalRejection' });

/** GET, PUT …/draft and POST …/releases/:release/restore answer the draft. */
export const draftSchema = z
  .object({
    catalog: catalogSchema.describe('The draft catalog, in the shape of GET …/catalog'),
    baseRelease: z.number().int().min(0).describe('The release the draft was started from (0: before any release)'),
    changes: z.array(catalogChangeSchema).describe('What publishing it would change against the live catalog'),
    updatedAt: z.number().int(),
    updatedBy: z.string().describe('Who wrote it last (staff:<email> or admin-api-key)'),
    scheduledAt: z.number().int().nullable().describe('When its publish is scheduled (Unix ms), or null'),
    schedule: scheduledReleaseSchema.nullable().describe('The scheduled publish (a snapshot of the draft when it was scheduled), or null'),
    changeDetails: z.array(catalogChangeDetailSchema).describe('The changes (in the order of `changes`) with each field before → after'),
    warnings: z.array(draftWarningSchema).describe('Payout warnings of the draft against live: publishing needs acknowledgeWarnings: true while there are any'),
    approval: pendingApprovalSchema.nullable().optional().describe('The publish waiting for another editor’s approval (a snapshot), or null'),
    rejection: approvalRejectionSchema.nullable().optional().describe('The last rejected approval request, until the next request; or null'),
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
    acknowledgeWarnings: z.boolean().optional().describe('Publish (or schedule) although the draft has warnings; without it a draft with warnings answers 409 needs_acknowledgement'),
  })
  .strict()
  .meta({ id: 'PublishDraft' });

export const publishedSchema = z
  .object({ release: z.number().int().positive(), publishedAt: z.number().int() })
  .meta({ id: 'Published', description: 'The release the publish made' });

export const scheduledSchema = z.object({ scheduledAt: z.number().int() }).meta({ id: 'ScheduledPublish' });

/** POST …/draft/publish of an app with requireApproval: 202, nothing live yet. */
export const approvalRequestedSchema = z.object({ approval: pendingApprovalSchema }).meta({ id: 'ApprovalRequested', description: 'The publish waits for another editor’s or admin’s approval' });

export const approveInputSchema = z
  .object({
    acknowledgeWarnings: z.boolean().optional().describe('Approve although the snapshot has payout warnings; without it such a snapshot answers 409 needs_acknowledgement'),
    requestedAt: z.number().int().optional().describe('The requestedAt of the approval reviewed: when the request pending now is another one (withdrawn and asked again), 409 no_pending_approval instead of approving what was not reviewed'),
  })
  .strict()
  .meta({ id: 'ApproveDraft' });

export const rejectInputSchema = z
  .object({ reason: z.string().trim().min(1, { error: 'reason: say why (the requester sees it)' }).max(1000) })
  .strict()
  .meta({ id: 'RejectDraft' });

/** POST …/draft/reject and …/draft/withdraw: the request is gone, its changes are in the draft. */
export const approvalClosedSchema = z
  .object({ approval: z.null(), draft: z.object({ changes: z.array(catalogChangeSchema) }).describe('The draft’s changes against live: the request’s, and those made since') })
  .meta({ id: 'ApprovalClosed' });

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
      .object({
        scheduledAt: z.number().int(),
        scheduledBy: z.string(),
        changes: z.array(catalogChangeSchema).describe('What it makes live (the draft as it was when scheduled) against the live catalog now'),
        release: z.number().int().positive().describe('The release number it will make, unless another publish goes first'),
        changesSince: z.array(catalogChangeSchema).describe('Edits of the draft since it was scheduled, not in it'),
      })
      .nullable()
      .describe('The draft’s scheduled publish, if any: a snapshot of the draft when it was scheduled'),
  })
  .meta({ id: 'ReleaseList' });
export type ReleaseList = z.output<typeof releaseListSchema>;

export const releaseParamSchema = z.coerce.number().int().positive();

/** The hypothetical player's record of one mission (POST …/draft/preview): `count` and `status`, each defaulting from the other. */
const previewProgressSchema = z
  .object({
    count: z.number().int().min(0).optional().describe('Progress toward the target (0 to the mission’s `criteria.count`); default 0, or the target when `status` is completed or claimed'),
    status: z.enum(['active', 'completed', 'claimed']).optional().describe('Default: completed when `count` reaches the target, else active'),
  })
  .strict();

/** POST …/draft/preview: whose view of the draft (a stored user, or a hypothetical player's attributes and progress), and when. */
export const previewInputSchema = z
  .object({
    userId: z.string().min(1).max(200).optional().describe('A stored player whose progress and attributes are read; exactly one of `userId` and `attributes`'),
    attributes: playerAttributesSchema.optional().describe('A hypothetical player’s attributes (audiences; `timezone` for windows): nothing is read or written for them; exactly one of `userId` and `attributes`'),
    progress: z
      .record(idSchema, previewProgressSchema)
      .refine((p) => Object.keys(p).length <= 1000, 'at most 1000 missions')
      .optional()
      .describe('With `attributes` only: the hypothetical player’s records, mission id → `{count?, status?}` in the window containing `at`; a mission absent has no record (a new player)'),
    at: z.number().int().positive().optional().describe('Unix ms the preview reads at (campaign start/end, windows); now when absent'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.userId !== undefined && input.attributes !== undefined) ctx.addIssue({ code: 'custom', path: ['attributes'], message: 'give either `userId` (a stored player) or `attributes` (a hypothetical one), not both' });
    else if (input.userId === undefined && input.attributes === undefined) ctx.addIssue({ code: 'custom', path: ['userId'], message: 'required, or `attributes` for a hypothetical player' });
    if (input.progress !== undefined && input.attributes === undefined) ctx.addIssue({ code: 'custom', path: ['progress'], message: 'only with `attributes` (a stored player’s progress is read)' });
  })
  .meta({ id: 'PreviewInput' });
export type PreviewInput = z.output<typeof previewInputSchema>;

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
const ratedPayoutSchema = z
  .record(z.string(), z.number())
  .describe('Currency → the payout at the observed claim rate: each amount × `claimRate.rate`, rounded to a whole number');
const notLiveSchema = z
  .enum(['new_mission', 'campaign_not_started'])
  .nullable()
  .describe('Why that side’s mission was not live at `to` (new_mission: the draft adds it; campaign_not_started: its campaign starts after `to`), so `asIfLive` holds its figures as if it had been live over the whole period; null: it was live (or absent)');

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
        notLive: z
          .object({ live: notLiveSchema, draft: notLiveSchema })
          .describe('Per side, whether the mission was not live yet at `to` and why (issue 39 §5): the figures above then count only what happened while it was live, often nothing'),
        asIfLive: z
          .object({
            live: impactCountsSchema,
            draft: impactCountsSchema,
            payout: z.object({ live: payoutSchema, draft: payoutSchema }),
            payoutAtClaimRate: z.object({ live: ratedPayoutSchema, draft: ratedPayoutSchema }).nullable().describe('null: no claim rate was observed (`claimRate.basis` none)'),
          })
          .nullable()
          .describe('When a side is not live (`notLive`): the figures as if it had been live over the whole period (a campaign that has not started is taken as started at `from`); the side that is live has its figures above repeated. null when both sides are live'),
        claimRate: z
          .object({
            rate: z.number().min(0).max(1).nullable().describe('claims ÷ completions over the period, at most 1; null when basis is none'),
            basis: z.enum(['mission', 'app', 'none']).describe('mission: this mission’s own completions and claims in the period; app: it has none (a new mission, a campaign not started), so those of every mission of the app; none: the app has no completion in the period either'),
            claims: z.number().int().min(0).describe('Claims counted (of the mission, or of the app for basis app)'),
            completions: z.number().int().min(0).describe('Completions counted (of the mission, or of the app for basis app)'),
          })
          .describe('The observed claim rate, from the dashboard’s per-minute counters of the period'),
        payoutAtClaimRate: z.object({ live: ratedPayoutSchema, draft: ratedPayoutSchema }).nullable().describe('`payout` at the observed claim rate; null when basis is none'),
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
