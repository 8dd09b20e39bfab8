// Apps (games): the new app's row (its verb: lib/services/apps/create-app.ts; start-up seeds one too), look-up and credential checks; rotation, listing and settings are verbs in lib/services/apps/.
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { apps, type AppRow } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAudit } from '@/lib/audit';
import type { PublicApp } from '@/lib/contract/app';
import { generateSecret, hashSecret, secretMatches, secretMatchesNothing } from './secrets';

export type { PublicApp } from '@/lib/contract/app';

/** What the admin API shows of an app: never a secret. */
export function toPublicApp(row: AppRow, now = Date.now()): PublicApp {
  const graceEnds = row.previousWebhookSecretExpiresAt;
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt,
    secretRotatedAt: row.secretRotatedAt,
    previousWebhookSecretExpiresAt: row.previousWebhookSecret && graceEnds !== null && graceEnds > now ? graceEnds : null,
    webhookEventsPerMinute: row.webhookEventsPerMinute,
    grantLimits: row.grantLimits ?? null,
    requireApproval: row.requireApproval,
  };
}

export interface CreatedApp {
  app: PublicApp;
  appSecret: string;
  webhookSecret: string;
}

export interface NewApp {
  id: string;
  name: string;
  /** Given by start-up's demo seed (its kept secret); else generated. */
  appSecret?: string;
  webhookSecret?: string;
}

/** A new app (409 conflict when the id is taken) with its audit row, in `tx`; its secrets answered this once. */
export async function insertApp(tx: Tx, input: NewApp, actor: string, now: number): Promise<CreatedApp> {
  const appSecret = input.appSecret ?? generateSecret('qs');
  const webhookSecret = input.webhookSecret ?? generateSecret('whs');
  const inserted = await tx
    .insert(apps)
    .values({ id: input.id, name: input.name, secretHash: hashSecret(appSecret), webhookSecret, createdAt: now, secretRotatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0) throw new AppError('conflict', `An app with id "${input.id}" already exists`);
  const app = toPublicApp(inserted[0], now);
  await recordAudit(tx, { actor, action: 'app.create', appId: app.id, target: `app:${app.id}`, after: app }, now);
  return { app, appSecret, webhookSecret };
}

export async function findApp(db: DbOrTx, appId: string): Promise<AppRow | null> {
  const rows = await db.select().from(apps).where(eq(apps.id, appId)).limit(1);
  return rows[0] ?? null;
}

/** True when the secret belongs to the app; the same work either way. */
export async function checkAppSecret(db: DbOrTx, appId: string, appSecret: string): Promise<boolean> {
  const app = await findApp(db, appId);
  if (!app) return secretMatchesNothing(appSecret);
  return secretMatches(appSecret, app.secretHash);
}
