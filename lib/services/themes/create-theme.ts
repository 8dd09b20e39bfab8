// POST …/themes: a new preset (409 conflict when the id is taken), audited as
// theme.create with its release, in one transaction. /v1 resolves campaigns'
// presets from the in-memory catalog, so the commit invalidates it.
import { themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { themeColumns } from '@/lib/catalog/convert';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import type { ThemePreset } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { writeCatalog } from '../_shared/catalog-write';
import { themeRecord } from '../_shared/themes';

export async function createTheme({ ctx, input }: { ctx: ServiceContext; input: { theme: ThemePreset } }): Promise<ThemeRecord> {
  const { appId } = ctx;
  const { theme } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const [row] = await db
        .insert(themesTable)
        .values({ appId, id: theme.id, ...themeColumns(theme), version: 1, createdAt: now, updatedAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new AppError('conflict', `A theme "${theme.id}" exists already in app "${appId}"`);
      const created = themeRecord(row, []);
      await recordAudit(db, { actor, action: 'theme.create', appId, target: `theme:${theme.id}`, before: null, after: created }, now);
      return { value: created };
    },
  });
  return value;
}
