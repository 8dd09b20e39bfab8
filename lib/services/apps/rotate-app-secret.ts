// A new app secret, shown once: the old one stops working at once, and so do
// the app's tokens issued before now (the rotation time, cached after commit
// for the token check). One transaction with its audit row.
import { eq } from 'drizzle-orm';
import { apps } from '@/db/schema';
import { generateSecret, hashSecret } from '@/lib/apps/secrets';
import { recordAudit } from '@/lib/audit';
import { cacheSecretRotation } from '@/lib/auth/revocation';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function rotateAppSecret({ ctx, input }: { ctx: ServiceContext; input: { appId: string } }): Promise<string> {
  const { appId } = input;
  // The service clock (the wall clock in production, as the tokens' issue times are; the test clock route moves it).
  const now = ctx.now();
  const appSecret = generateSecret('qs');
  await withTransaction(ctx, async ({ deps: { db: tx } }) => {
    const updated = await tx
      .update(apps)
      .set({ secretHash: hashSecret(appSecret), secretRotatedAt: now })
      .where(eq(apps.id, appId))
      .returning();
    if (updated.length === 0) throw new AppError('app_not_found', `No app "${appId}"`);
    await recordAudit(tx, { actor: actorLabel(ctx.actor), action: 'app.rotate_secret', appId, target: `app:${appId}`, after: { secretRotatedAt: now } }, now);
  });
  await cacheSecretRotation(appId, now, now);
  return appSecret;
}
