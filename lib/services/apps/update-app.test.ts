// The update-app verb called directly with a ServiceContext: the change and
// its audit row (before/after, by the acting staff member) in one
// transaction, app_not_found for an unknown app, and an outer transaction that
// rolls back takes both with it.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apps, auditLog } from '@/db/schema';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction } from '../context';
import { updateApp } from './update-app';

async function newApp(): Promise<Awaited<ReturnType<typeof testServiceContext>>> {
  const appId = uniqueId('app');
  const t = await testServiceContext(appId, { now: 1_764_000_000_000 });
  await t.db.insert(apps).values({ id: appId, name: 'Before', secretHash: 'x', webhookSecret: 'w', createdAt: 1, secretRotatedAt: 1 });
  return t;
}

describe('updateApp({ ctx, input })', () => {
  it('changes the settings and writes the audit row with the actor, before and after', async () => {
    const { ctx, db } = await newApp();
    const app = await updateApp({ ctx, input: { name: 'After', webhookEventsPerMinute: 1_000 } });
    expect(app).toMatchObject({ id: ctx.appId, name: 'After', webhookEventsPerMinute: 1_000 });
    const rows = await db.select().from(auditLog).where(and(eq(auditLog.appId, ctx.appId), eq(auditLog.action, 'app.update')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: 'staff:ana@example.com', target: `app:${ctx.appId}`, at: 1_764_000_000_000 });
    expect(rows[0].before).toMatchObject({ name: 'Before' });
    expect(rows[0].after).toMatchObject({ name: 'After', webhookEventsPerMinute: 1_000 });
  });

  it('refuses an unknown app with app_not_found', async () => {
    const { ctx } = await testServiceContext(uniqueId('app'));
    await expect(updateApp({ ctx, input: { name: 'x' } })).rejects.toMatchObject({ code: 'app_not_found' });
  });

  it('nests in a caller transaction: a rollback takes the change and its audit row', async () => {
    const { ctx, db } = await newApp();
    await expect(
      withTransaction(ctx, async (tx) => {
        await updateApp({ ctx: tx, input: { name: 'Rolled back' } });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    const [row] = await db.select().from(apps).where(eq(apps.id, ctx.appId));
    expect(row.name).toBe('Before');
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toHaveLength(0);
  });
});
