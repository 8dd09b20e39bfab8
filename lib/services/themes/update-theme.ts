// PUT …/themes/:themeId: the preset replaced if it is still at `version` (409
// conflict otherwise), audited as theme.update with its release, in one
// transaction. A preset equal to the stored one writes nothing.
import { and, eq } from 'drizzle-orm';
import { themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { sameColumns, themeColumns, themeFromRow } from '@/lib/catalog/convert';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import type { ThemePreset } from '@/lib/contract/theme';
import type { ServiceContext } from '../context';
import { staleVersion, writeCatalog } from '../_shared/catalog-write';
import { campaignsUsing, lockTheme, themeRecord } from '../_shared/themes';

export async function updateTheme({ ctx, input }: { ctx: ServiceContext; input: { theme: ThemePreset; version: number } }): Promise<ThemeRecord> {
  const { appId } = ctx;
  const { theme, version } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const current = await lockTheme(db, appId, theme.id);
      if (current.version !== version) throw staleVersion('Theme', theme.id, version, current.version);
      const usedBy = await campaignsUsing(db, appId, theme.id);
      // Nothing changes: the preset as it is, same version, no audit row.
      if (sameColumns(themeColumns(theme), themeColumns(themeFromRow(current)))) return { value: themeRecord(current, usedBy), unchanged: true };
      const [row] = await db
        .update(themesTable)
        .set({ ...themeColumns(theme), version: current.version + 1, updatedAt: now })
        .where(and(eq(themesTable.appId, appId), eq(themesTable.id, theme.id)))
        .returning();
      const after = themeRecord(row, usedBy);
      await recordAudit(db, { actor, action: 'theme.update', appId, target: `theme:${theme.id}`, before: themeRecord(current, usedBy), after }, now);
      return { value: after };
    },
  });
  return value;
}
