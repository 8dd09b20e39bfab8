// Drafts and releases of an app's catalog (docs/api.md "Drafts and releases"):
// GET|PUT|DELETE /api/admin/apps/:appId/draft – the draft with its changes against live (?allowMissing=true: 204 without one); write it whole; discard it
// POST|DELETE /api/admin/apps/:appId/draft/publish – publish it now ({} → 200) or at a time ({at} → 202); cancel the schedule
// POST /api/admin/apps/:appId/draft/approve|reject|withdraw – the two-person rule: approve another's publish, reject it with a reason, or the requester takes it back
// POST /api/admin/apps/:appId/draft/preview – what GET /v1/missions would answer a user from the draft at a time
// POST /api/admin/apps/:appId/draft/impact – what the draft would have done over the last days of stored events
// GET /api/admin/apps/:appId/releases – the releases, newest first, and the scheduled publish
// POST /api/admin/apps/:appId/releases/:release/restore – the draft becomes that release's catalog
// PUT|DELETE /api/admin/apps/:appId/draft/{missions,campaigns,themes}/:id – one item of the draft: write it; remove it
// POST /api/admin/apps/:appId/draft/{missions,campaigns,themes}/:id/revert – the draft's item back to its live version
// POST /api/admin/apps/:appId/draft/campaigns/:id/duplicate – a copy of a campaign and its missions in the draft, with new ids
// GET /api/admin/apps/:appId/missions/:missionId/progress – players with progress on the mission now, by status
// Each handler: parse with the contract schema, build the context once, call one verb, answer.
import { deleteDraft } from '@/lib/services/drafts/delete-draft';
import { getDraft } from '@/lib/services/drafts/get-draft';
import { putDraft } from '@/lib/services/drafts/put-draft';
import { cancelScheduledPublish, publishDraft } from '@/lib/services/drafts/publish-draft';
import { approveDraft } from '@/lib/services/drafts/approve-draft';
import { rejectDraft } from '@/lib/services/drafts/reject-draft';
import { withdrawApproval } from '@/lib/services/drafts/withdraw-approval';
import { listReleases } from '@/lib/services/releases/list-releases';
import { restoreRelease } from '@/lib/services/releases/restore-release';
import { approveInputSchema, rejectInputSchema, draftQuerySchema, duplicateCampaignInputSchema, previewInputSchema, impactInputSchema, publishInputSchema, releaseParamSchema, type DraftCollection } from '@/lib/contract/release';
import { campaignFormSchema } from '@/lib/contract/campaign';
import { missionSchema } from '@/lib/contract/mission';
import { themePresetSchema } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { putDraftItem } from '@/lib/services/drafts/put-draft-item';
import { removeDraftItem } from '@/lib/services/drafts/remove-draft-item';
import { revertDraftItem } from '@/lib/services/drafts/revert-draft-item';
import { duplicateCampaign } from '@/lib/services/drafts/duplicate-campaign';
import { missionProgressCounts } from '@/lib/services/progress/mission-progress-counts';
import { draftImpact } from '@/lib/services/impact/draft-impact';
import { previewAsPlayer } from '@/lib/services/drafts/preview-as-player';
import { missionListJson } from '../v1/mission-list-json';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json, jsonText } from '../respond';
import { parseWith, queryOf } from '../validate';
import { adminServiceContext } from '../service-context';

/** A draft is a whole catalog: up to 1 MiB (other admin bodies: 64 KiB). */
const DRAFT_MAX_BYTES = 1024 * 1024;

export const getDraftHandler = adminRoute('catalog.read', async (req) => {
  const query = parseWith(draftQuerySchema, queryOf(req.req), { prefix: 'query' });
  const ctx = await adminServiceContext(req, req.params.appId);
  const draft = await getDraft({ ctx, input: { allowMissing: query.allowMissing === 'true' } });
  return draft ? json(draft) : new Response(null, { status: 204 });
});

export const putDraftHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  const { value } = await readJsonBody(req.req, { maxBytes: DRAFT_MAX_BYTES });
  return json(await putDraft({ ctx, input: { catalog: value } }));
});

export const deleteDraftHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  await deleteDraft({ ctx });
  return new Response(null, { status: 204 });
});

export const postPublishHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  const { raw, value } = await readJsonBody(req.req);
  const input = parseWith(publishInputSchema, raw.trim() === '' ? {} : value);
  const outcome = await publishDraft({ ctx, input });
  return json(outcome.body, { status: outcome.status });
});

export const deletePublishHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await cancelScheduledPublish({ ctx }));
});

export const postApproveHandler = adminRoute('catalog.write', async (req) => {
  const { raw, value } = await readJsonBody(req.req);
  const input = parseWith(approveInputSchema, raw.trim() === '' ? {} : value);
  const ctx = await adminServiceContext(req, req.params.appId);
  const outcome = await approveDraft({ ctx, input });
  return json(outcome.body, { status: outcome.status });
});

export const postRejectHandler = adminRoute('catalog.write', async (req) => {
  const { value } = await readJsonBody(req.req);
  const input = parseWith(rejectInputSchema, value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await rejectDraft({ ctx, input }));
});

export const postWithdrawHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await withdrawApproval({ ctx }));
});

export const getReleasesHandler = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await listReleases({ ctx }));
});

export const postRestoreHandler = adminRoute('catalog.write', async (req) => {
  const release = parseWith(releaseParamSchema, req.params.release, { prefix: 'release' });
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await restoreRelease({ ctx, input: { release } }));
});

// Read-only, every staff role: the body is what /v1/missions answers (one page holding every listed mission).
export const postPreviewHandler = adminRoute('catalog.read', async (req) => {
  const { value } = await readJsonBody(req.req);
  const input = parseWith(previewInputSchema, value);
  const ctx = await adminServiceContext(req, req.params.appId);
  const preview = await previewAsPlayer({ ctx, input });
  return jsonText(missionListJson(preview.catalog, preview.views, null));
});

// Read-only (support may run it, like reading the draft); the replay pages through the events and never blocks ingestion.
export const postImpactHandler = adminRoute('catalog.read', async (req) => {
  const { value } = await readJsonBody(req.req);
  const input = parseWith(impactInputSchema, value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await draftImpact({ ctx, input }));
});

/** The schema each item route parses its body with: the one PUT …/catalog and the live routes use. */
const ITEM_SCHEMAS = { missions: missionSchema, campaigns: campaignFormSchema, themes: themePresetSchema } as const;

/** The route's id goes into the item: a body may omit it, and may not name another. */
function itemBody(collection: DraftCollection, id: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('validation_error', 'body: expected an object');
  const body = value as Record<string, unknown>;
  if (body.id !== undefined && body.id !== id) throw new AppError('validation_error', `id: must be the id in the path ("${id}")`);
  return parseWith(ITEM_SCHEMAS[collection], { ...body, id }) as Record<string, unknown>;
}

/** PUT, DELETE …/draft/<collection>/:id and POST …/revert of one collection. */
export function draftItemHandlers(collection: DraftCollection) {
  return {
    put: adminRoute('catalog.write', async (req) => {
      const { value } = await readJsonBody(req.req);
      const item = itemBody(collection, req.params.id, value);
      const ctx = await adminServiceContext(req, req.params.appId);
      return json(await putDraftItem({ ctx, input: { collection, id: req.params.id, item } }));
    }),
    remove: adminRoute('catalog.write', async (req) => {
      const ctx = await adminServiceContext(req, req.params.appId);
      return json(await removeDraftItem({ ctx, input: { collection, id: req.params.id } }));
    }),
    revert: adminRoute('catalog.write', async (req) => {
      const ctx = await adminServiceContext(req, req.params.appId);
      return json(await revertDraftItem({ ctx, input: { collection, id: req.params.id } }));
    }),
  };
}

export const duplicateCampaignHandler = adminRoute('catalog.write', async (req) => {
  const { value } = await readJsonBody(req.req);
  const input = parseWith(duplicateCampaignInputSchema, value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await duplicateCampaign({ ctx, input: { ...input, campaignId: req.params.id } }), { status: 201 });
});

export const getMissionProgressHandler = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await missionProgressCounts({ ctx, input: { missionId: req.params.missionId } }));
});
