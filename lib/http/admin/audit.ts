// GET /api/admin/audit – the audit log, newest first: filters (appId, actor, entity, target, from, to), keyset pages
import { listAudit } from '@/lib/services/audit/list-audit';
import { auditQuerySchema } from '@/lib/contract/audit';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { staffServiceContext } from '../service-context';

export const getAudit = adminRoute('audit.read', async (request) => {
  const query = parseWith(auditQuerySchema, queryOf(request.req), { prefix: 'query' });
  return json(await listAudit({ ctx: await staffServiceContext(request), input: query }));
});
