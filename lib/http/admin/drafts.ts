// Drafts and releases of an app's catalog (docs/api.md "Drafts and releases"):
// GET|PUT|DELETE /api/admin/apps/:appId/draft – the draft with its changes against live; write it whole; discard it
// Each handler: parse with the contract schema, build the context once, call one verb, answer.
import { deleteDraft } from '@/lib/services/drafts/delete-draft';
import { getDraft } from '@/lib/services/drafts/get-draft';
import { putDraft } from '@/lib/services/drafts/put-draft';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { adminServiceContext } from '../service-context';

/** A draft is a whole catalog: up to 1 MiB (other admin bodies: 64 KiB). */
export const DRAFT_MAX_BYTES = 1024 * 1024;

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
