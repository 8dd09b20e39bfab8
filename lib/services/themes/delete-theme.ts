// DELETE …/themes/:themeId: deletes a preset no campaign uses (409 conflict
// naming them otherwise, or when `version` is given and stale), audited as
// theme.delete with its release, in one transaction.
import { and, eq } from 'drizzle-orm';
import { themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { staleVersion, writeCatalog } from '../_shared/catalog-write';
import { campaignsUsing, lockTheme, themeRecord } from '../_shared/themes';

export async function deleteTheme({ ctx, input }: { ctx: ServiceContext; input: { id: string; version?: number } }): Promise<void> {
  const { appId } = ctx;
  const { id, version } = input;
  const now = ctx.now();
  await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const current = await lockTheme(db, appId, id);
      if (version !== undefined && current.version !== version) throw staleVersion('Theme', id, version, current.version);
      const usedBy = await campaignsUsing(db, appId, id);
      if (usedBy.length > 0) {
        throw new AppError('conflict', `Theme "${id}" is used by campaign${usedBy.length > 1 ? 's' : ''} ${usedBy.map((c) => `"${c}"`).join(', ')}: give them another theme first`);
      }
      await db.delete(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id)));
      await recordAudit(db, { actor, action: 'theme.delete', appId, target: `theme:${id}`, before: themeRecord(current, []), after: null }, now);
      return { value: undefined };
    },
  });
}
