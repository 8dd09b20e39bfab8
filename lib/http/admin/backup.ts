// GET /api/admin/backup – the embedded database as a gzipped tar (admins only;
// 409 conflict on PostgreSQL). `node scripts/backup.mjs` calls it.
import { backupDatabase } from '@/lib/services/ops/backup-database';
import { adminRoute } from '../handler';
import { staffServiceContext } from '../service-context';

export const getBackup = adminRoute('apps.manage', async (req) => {
  const tar = await backupDatabase({ ctx: await staffServiceContext(req) });
  const name = `questline-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  return new Response(tar, {
    headers: {
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Content-Length': String(tar.byteLength),
      'Cache-Control': 'no-store',
    },
  });
});
