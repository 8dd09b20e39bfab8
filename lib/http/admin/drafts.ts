// Drafts and releases of an app's catalog (docs/api.md "Drafts and releases"):
// GET|PUT|DELETE /api/admin/apps/:appId/draft – the draft with its changes against live; write it whole; discard it
// POST|DELETE /api/admin/apps/:appId/draft/publish – publish it now ({} → 200) or at a time ({at} → 202); cancel the schedule
// POST /api/admin/apps/:appId/draft/impact – what the draft would have done over the last days of stored events
// GET /api/admin/apps/:appId/releases – the releases, newest first, and the scheduled publish
// POST /api/admin/apps/:appId/releases/:release/restore – the draft becomes that release's catalog
// Each handler: parse with the contract schema, build the context once, call one verb, answer.
import { deleteDraft } from '@/lib/services/drafts/delete-draft';
import { getDraft } from '@/lib/services/drafts/get-draft';
import { putDraft } from '@/lib/services/drafts/put-draft';
import { cancelScheduledPublish, publishDraft } from '@/lib/services/drafts/publish-draft';
import { listReleases } from '@/lib/services/releases/list-releases';
import { restoreRelease } from '@/lib/services/releases/restore-release';
import { impactInputSchema, publishInputSchema, releaseParamSchema } from '@/lib/contract/release';
import { draftImpact } from '@/lib/services/impact/draft-impact';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { adminServiceContext } from '../service-context';

/** A draft is a whole catalog: up to 1 MiB (other admin bodies: 64 KiB). */
const DRAFT_MAX_BYTES = 1024 * 1024;

export const getDraftHandler = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await getDraft({ ctx }));
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

export const getReleasesHandler = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await listReleases({ ctx }));
});

export const postRestoreHandler = adminRoute('catalog.write', async (req) => {
  const release = parseWith(releaseParamSchema, req.params.release, { prefix: 'release' });
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await restoreRelease({ ctx, input: { release } }));
});

// Read-only (support may run it, like reading the draft); the replay pages through the events and never blocks ingestion.
export const postImpactHandler = adminRoute('catalog.read', async (req) => {
  const { value } = await readJsonBody(req.req);
  const input = parseWith(impactInputSchema, value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await draftImpact({ ctx, input }));
});
