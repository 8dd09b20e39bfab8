// The frame of every write of an app's live catalog by the per-entity verbs
// (lib/services/themes, campaigns, missions) and the catalog PUT: in the
// verb's transaction (the caller's when there is one), the app's catalog lock
// first (beginCatalogWrite, lib/catalog/record-release.ts), the release last;
// once it commits, every instance drops its copy of the catalog and the
// holders of the missions whose reading changed get it on their streams.
import type { CatalogDocument } from '@/lib/contract/catalog';
import { recordRelease } from '@/lib/catalog/record-release';
import { AppError } from '@/lib/errors';
import { actorLabel, type TxContext } from '../context';
import { approvalRequired, approvalRequiredError } from './approval-rule';

/** A write that names a version other than the stored one (themes, campaigns): someone saved in between. */
export function staleVersion(kind: string, id: string, sent: number, current: number): AppError {
  return new AppError('conflict', `${kind} "${id}" is at version ${current}, not ${sent}: it changed since you read it; reload and apply your change again`);
}

/**
 * The end of a write that changed the live catalog: its release recorded in
 * the same transaction (none when nothing changed against `before`), and after
 * the commit the catalog dropped everywhere and the holders of `streamed`
 * resynced (ServiceContext's catalogChanged). An app that requires approval
 * refuses it (409 approval_required): its live catalog changes only through
 * an approved publish of the draft (which does not come through here).
 */
export async function recordCatalogWrite(tx: TxContext, input: { before: CatalogDocument; now: number; streamed?: string[] }): Promise<void> {
  const { appId } = tx;
  // The two-person rule: live changes only through an approved draft (this write rolls back whole).
  if (await approvalRequired(tx.uow.tx, appId)) throw approvalRequiredError(appId);
  await recordRelease(tx.uow.tx, { appId, before: input.before, actor: actorLabel(tx.actor), now: input.now });
  const streamed = input.streamed ?? [];
  tx.uow.afterCommit(() => tx.deps.catalogChanged(appId, streamed, input.now));
}
