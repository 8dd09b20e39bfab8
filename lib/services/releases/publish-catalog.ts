// Publishing a catalog document: the live tables made to hold it and the
// release recorded, in the caller's transaction; once it commits, every
// instance drops its in-memory catalog and the streams of players holding a
// changed mission get its new reading. A draft's publish (now or scheduled)
// and a restore's publish go through here.
import type { CatalogDocument } from '@/lib/contract/catalog';
import { actorLabel, type TxContext } from '../context';
import { applyCatalog } from './apply-catalog';
import { diffCatalogs } from '@/lib/catalog/catalog-document';
import { recordRelease, type RecordedRelease } from '@/lib/catalog/record-release';

/** `publishedBy`: the label the release names (default: the context's actor). */
export async function publishCatalog({ ctx: tx, input }: { ctx: TxContext; input: { catalog: CatalogDocument; publishedBy?: string } }): Promise<RecordedRelease> {
  const { catalog } = input;
  const now = tx.now();
  const actor = input.publishedBy ?? actorLabel(tx.actor);
  const { before, streamed } = await applyCatalog({ ctx: tx, input: { catalog, actor, now } });
  // The changes as the draft showed them (a mission left out is "removed", though it stays archived in the live tables).
  const release = await recordRelease(tx.uow.tx, { appId: tx.appId, before, actor, now, changes: diffCatalogs(before, catalog), always: true });
  const appId = tx.appId;
  tx.uow.afterCommit(() => tx.deps.catalogChanged(appId, streamed, now));
  return release!;
}
