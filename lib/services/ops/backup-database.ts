// A consistent copy of the embedded database while the service runs
// (GET /api/admin/backup, `node scripts/backup.mjs`): PGlite's own dump of
// its data directory, a gzipped tar, taken while no statement runs (PGlite
// holds its one connection for it). A transaction of several statements
// that is open at that moment is in the copy as a crash would leave it: not
// committed, so not there once the copy is opened. On PostgreSQL there is
// nothing to copy here: pg_dump and the server's own backups do it
// (docs/operations/backup.md).
import { sql } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { actorLabel, type ServiceContext } from '../context';

interface DumpingClient {
  dumpDataDir(compression?: 'gzip' | 'none' | 'auto'): Promise<Blob>;
}

const dumping = (client: unknown): client is DumpingClient =>
  typeof client === 'object' && client !== null && typeof (client as Partial<DumpingClient>).dumpDataDir === 'function';

/** The embedded database as a gzipped tar of its data directory. */
export async function backupDatabase({ ctx }: { ctx: ServiceContext }): Promise<Uint8Array<ArrayBuffer>> {
  const client = (ctx.deps.db as unknown as { $client?: unknown }).$client;
  if (!dumping(client)) {
    throw new AppError('conflict', 'This instance runs on PostgreSQL: back it up with pg_dump or the server’s own backups (docs/operations/backup.md)');
  }
  // Everything written so far in the data files, so the copy opens without replaying much WAL.
  await ctx.deps.db.execute(sql`checkpoint`);
  const tar = new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer());
  // Audited after the copy: the copy holds the audit log up to the moment before it was taken.
  await recordAudit(ctx.deps.db, { actor: actorLabel(ctx.actor), action: 'database.backup', appId: null, target: 'database', after: { bytes: tar.byteLength } }, ctx.now());
  return tar;
}
