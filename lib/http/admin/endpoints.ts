// Outbound webhooks' admin API (docs/webhooks.md "Outbound webhooks", docs/api.md):
// POST   /api/admin/apps/:appId/endpoints                                  – register an endpoint (its secret shown once)
// GET    /api/admin/apps/:appId/endpoints                                  – the app's endpoints
// DELETE /api/admin/apps/:appId/endpoints/:endpointId                      – delete one
// GET    /api/admin/apps/:appId/endpoints/:endpointId/deliveries           – its delivery log, newest first
// POST   /api/admin/apps/:appId/endpoints/:endpointId/deliveries/:deliveryId/redeliver – send one again
// Admins only (apps.manage): endpoints carry a signing secret and decide where player data goes.
import { createEndpointSchema } from '@/lib/contract/outbound';
import { createEndpoint } from '@/lib/services/endpoints/create-endpoint';
import { deleteEndpoint } from '@/lib/services/endpoints/delete-endpoint';
import { listDeliveries } from '@/lib/services/endpoints/list-deliveries';
import { listEndpoints } from '@/lib/services/endpoints/list-endpoints';
import { redeliver } from '@/lib/services/endpoints/redeliver';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { adminServiceContext } from '../service-context';
import { parseWith } from '../validate';

export const postEndpoint = adminRoute('apps.manage', async (req) => {
  const input = parseWith(createEndpointSchema, (await readJsonBody(req.req)).value);
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await createEndpoint({ ctx, input }), { status: 201 });
});

export const getEndpoints = adminRoute('apps.manage', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await listEndpoints({ ctx }));
});

export const deleteEndpointItem = adminRoute('apps.manage', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  await deleteEndpoint({ ctx, input: { endpointId: req.params.endpointId } });
  return new Response(null, { status: 204 });
});

export const getDeliveries = adminRoute('apps.manage', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await listDeliveries({ ctx, input: { endpointId: req.params.endpointId } }));
});

export const postRedeliver = adminRoute('apps.manage', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json(await redeliver({ ctx, input: { endpointId: req.params.endpointId, deliveryId: req.params.deliveryId } }), { status: 202 });
});
