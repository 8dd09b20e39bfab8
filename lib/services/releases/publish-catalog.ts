// Publishing a catalog document: the live tables made to hold it and the
// release recorded (writeCatalog, in the caller's transaction); once it
// commits, every instance drops its in-memory catalog and the streams of
// players holding a changed mission get its new reading. A draft's publish
// (now or scheduled) and a restore's publish go through here.
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { TxContext } from '../context';
import { applyCatalog } from './apply-catalog';
import { diffCatalogs } from '@/lib/catalog/catalog-document';
import type { CatalogLock, RecordedRelease } from '@/lib/catalog/record-release';
import { writeCatalog } from '../_shared/catalog-write';

/**
 * `publishedBy`: the label the release names (default: the context's actor).
 * `lock`: the app's catalog lock when the caller took it in this transaction
 * (a publish that first checked the draft against the live catalog it read).
 */
export async function publishCatalog({ ctx, input }: { ctx: TxContext; input: { catalog: CatalogDocument; publishedBy?: string; lock?: CatalogLock } }): Promise<RecordedRelease> {
  const { catalog } = input;
  const { release } = await writeCatalog(ctx, {
    lock: input.lock,
    actor: input.publishedBy,
    publish: true,
    write: async (w) => ({
      value: undefined,
      streamed: await applyCatalog(w, catalog),
      // The changes as the draft showed them (a mission left out is "removed", though it stays archived in the live tables).
      changes: diffCatalogs(w.before, catalog),
    }),
  });
  return release!;
}
