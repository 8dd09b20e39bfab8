// The currencies and items of an app (issue 39 §1; docs/api.md "Defined currencies and items"):
// GET /api/admin/apps/:appId/economy – the live ones, defined or implied by the catalog and balances
// PUT /api/admin/apps/:appId/draft/economy – the draft's currencies and items sections
// Each handler: parse with the contract schema, build the context once, call one verb, answer.
import { draftEconomyInputSchema } from '@/lib/contract/economy';
import { readEconomy } from '@/lib/services/economy/read-economy';
import { putDraftEconomy } from '@/lib/services/drafts/put-draft-economy';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { adminServiceContext } from '../service-context';

/** Up to 5,000 items: the same 1 MiB as a whole draft. */
const ECONOMY_MAX_BYTES = 1024 * 1024;

export const getEconomyHandler = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await readEconomy({ ctx }));
});

export const putDraftEconomyHandler = adminRoute('catalog.write', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  const { value } = await readJsonBody(req.req, { maxBytes: ECONOMY_MAX_BYTES });
  const input = parseWith(draftEconomyInputSchema, value);
  return json(await putDraftEconomy({ ctx, input }));
});
