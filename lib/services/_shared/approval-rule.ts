// The app's two-person rule (apps.require_approval, docs/api.md "Approval: the
// two-person rule"): read by the draft's publish and by every direct write of
// the live catalog, which it refuses (the draft is the one way to change live).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { apps } from '@/db/schema';
import { AppError } from '@/lib/errors';

export async function approvalRequired(db: DbOrTx, appId: string): Promise<boolean> {
  const [row] = await db.select({ requireApproval: apps.requireApproval }).from(apps).where(eq(apps.id, appId));
  return row?.requireApproval ?? false;
}

/** A direct write of the live catalog (PUT …/catalog, the per-entity routes) of an app that requires approval. */
export function approvalRequiredError(appId: string): AppError {
  return new AppError('approval_required', `App "${appId}" requires approval: change its draft (PUT …/draft or the …/draft/<collection>/:id routes) and publish it; another editor or admin approves`);
}
