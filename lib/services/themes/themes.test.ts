// The theme verbs called directly with a ServiceContext, no server: a create
// writes the preset, its audit row (by the acting staff member) and its
// release in one transaction and announces the catalog change only once it
// committed; an update naming a stale version is refused (409 conflict) and
// writes nothing; inside a caller's transaction that rolls back, nothing
// stays and nothing is announced.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { apps, auditLog, catalogReleases, themes } from '@/db/schema';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { createTheme } from './create-theme';
import { deleteTheme } from './delete-theme';
import { updateTheme } from './update-theme';

const NOW = 1_764_000_000_000;
let t: TestServiceContext;
let db: Db;

beforeAll(async () => {
  t = await testServiceContext('themes', { actor: { kind: 'staff', id: 'eve@example.com', role: 'editor' }, now: NOW });
  db = t.db;
});

/** A context for a fresh app, recording the catalog changes it announces. */
async function appCtx(): Promise<{ ctx: ServiceContext; announced: string[] }> {
  const appId = uniqueId('app');
  await db.insert(apps).values({ id: appId, name: appId, secretHash: 'x', webhookSecret: 'w', createdAt: 1, secretRotatedAt: 1 });
  const announced: string[] = [];
  const ctx: ServiceContext = { ...t.ctx, appId, deps: { ...t.ctx.deps, catalogChanged: async (id) => void announced.push(id) } };
  return { ctx, announced };
}
const preset = (id: string, primaryColor = '#0284c7') => ({ id, name: `Theme ${id}`, primaryColor });
const auditOf = (appId: string, action: string) => db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.action, action)));
const releasesOf = (appId: string) => db.select().from(catalogReleases).where(eq(catalogReleases.appId, appId));

describe('theme verbs', () => {
  it('createTheme stores the preset at version 1 with its audit row and release, then announces the change', async () => {
    const { ctx, announced } = await appCtx();
    const theme = await createTheme({ ctx, input: { theme: preset('sky') } });
    expect(theme).toMatchObject({ id: 'sky', version: 1, createdAt: NOW, updatedAt: NOW, usedBy: [] });
    const [audit, ...more] = await auditOf(ctx.appId, 'theme.create');
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: 'staff:eve@example.com', target: 'theme:sky', at: NOW, before: null, after: { id: 'sky', version: 1 } });
    expect(await releasesOf(ctx.appId)).toEqual([expect.objectContaining({ release: 1, publishedBy: 'staff:eve@example.com', publishedAt: NOW })]);
    expect(announced).toEqual([ctx.appId]);
  });

  it('updateTheme with a stale version answers conflict and writes nothing', async () => {
    const { ctx, announced } = await appCtx();
    await createTheme({ ctx, input: { theme: preset('sky') } });
    await updateTheme({ ctx, input: { theme: preset('sky', '#be123c'), version: 1 } });
    await expect(updateTheme({ ctx, input: { theme: preset('sky', '#000000'), version: 1 } })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('is at version 2, not 1'),
    });
    const [row] = await db.select().from(themes).where(and(eq(themes.appId, ctx.appId), eq(themes.id, 'sky')));
    expect(row).toMatchObject({ version: 2, primaryColor: '#be123c' });
    expect(await auditOf(ctx.appId, 'theme.update')).toHaveLength(1);
    expect(await releasesOf(ctx.appId)).toHaveLength(2);
    expect(announced).toHaveLength(2);
  });

  it('nests in a caller transaction: a rollback takes the preset, its audit row and its release, and nothing is announced', async () => {
    const { ctx, announced } = await appCtx();
    await expect(
      withTransaction(ctx, async (tx) => {
        await createTheme({ ctx: tx, input: { theme: preset('sky') } });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    expect(await db.select().from(themes).where(eq(themes.appId, ctx.appId))).toEqual([]);
    expect(await auditOf(ctx.appId, 'theme.create')).toEqual([]);
    expect(await releasesOf(ctx.appId)).toEqual([]);
    expect(announced).toEqual([]);
  });

  it('deleteTheme removes the preset with its audit row; an unknown one is not_found', async () => {
    const { ctx } = await appCtx();
    await createTheme({ ctx, input: { theme: preset('sky') } });
    await deleteTheme({ ctx, input: { id: 'sky', version: 1 } });
    expect(await db.select().from(themes).where(eq(themes.appId, ctx.appId))).toEqual([]);
    expect(await auditOf(ctx.appId, 'theme.delete')).toEqual([expect.objectContaining({ target: 'theme:sky', after: null })]);
    await expect(deleteTheme({ ctx, input: { id: 'sky' } })).rejects.toMatchObject({ code: 'not_found' });
  });
});
