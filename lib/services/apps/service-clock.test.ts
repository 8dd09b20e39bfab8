// Secret rotations, token revocations and the app listing read the time from
// ctx.now() (the test clock route moves it), not from Date.now(): with a
// context clock a year away from the wall clock, every time they store or
// compare is the context's.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apps, auditLog } from '@/db/schema';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { revokeTokens } from '../auth/revoke-tokens';
import { listApps } from './list-apps';
import { rotateAppSecret } from './rotate-app-secret';
import { rotateWebhookSecret } from './rotate-webhook-secret';

const NOW = 1_700_000_000_000; // Nov 2023: far from the wall clock of any run

async function newApp(): Promise<Awaited<ReturnType<typeof testServiceContext>>> {
  const appId = uniqueId('app');
  const t = await testServiceContext(appId, { now: NOW });
  await t.db.insert(apps).values({ id: appId, name: 'Clock', secretHash: 'x', webhookSecret: 'w', createdAt: 1, secretRotatedAt: 1 });
  return t;
}

async function auditAt(db: Awaited<ReturnType<typeof testServiceContext>>['db'], appId: string, action: string) {
  const rows = await db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.action, action)));
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe('the clock of rotations and revocations is ctx.now()', () => {
  it('rotateWebhookSecret: the grace period ends graceMs after ctx.now()', async () => {
    const { ctx, db } = await newApp();
    const rotated = await rotateWebhookSecret({ ctx, input: { graceMs: 60_000 } });
    expect(rotated.previousSecretExpiresAt).toBe(NOW + 60_000);
    const [row] = await db.select().from(apps).where(eq(apps.id, ctx.appId));
    expect(row.previousWebhookSecretExpiresAt).toBe(NOW + 60_000);
    const audit = await auditAt(db, ctx.appId, 'app.rotate_webhook_secret');
    expect(audit.at).toBe(NOW);
    expect(audit.after).toMatchObject({ rotatedAt: NOW, previousSecretExpiresAt: NOW + 60_000 });
  });

  it('rotateAppSecret: the rotation time is ctx.now()', async () => {
    const { ctx, db } = await newApp();
    await rotateAppSecret({ ctx, input: { appId: ctx.appId } });
    const [row] = await db.select().from(apps).where(eq(apps.id, ctx.appId));
    expect(row.secretRotatedAt).toBe(NOW);
    expect((await auditAt(db, ctx.appId, 'app.rotate_secret')).at).toBe(NOW);
  });

  it('revokeTokens: a player\'s tokens issued before ctx.now() end', async () => {
    const { ctx, db } = await newApp();
    await revokeTokens({ ctx, input: { userId: 'u1' } });
    const audit = await auditAt(db, ctx.appId, 'user.revoke_tokens');
    expect(audit.at).toBe(NOW);
    expect(audit.after).toEqual({ before: NOW });
  });

  it('listApps: a grace period that ends after ctx.now() is shown', async () => {
    const { ctx } = await newApp();
    await rotateWebhookSecret({ ctx, input: { graceMs: 60_000 } });
    const listed = (await listApps({ ctx })).find((app) => app.id === ctx.appId);
    expect(listed?.previousWebhookSecretExpiresAt).toBe(NOW + 60_000);
  });
});
