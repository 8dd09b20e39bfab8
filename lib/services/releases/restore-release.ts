// Revert: the draft becomes the catalog release `release` published (then
// publish it as usual). An existing draft is replaced; its schedule, if any,
// stays and publishes its snapshot (the draft as it was when scheduled); the
// restored catalog is the next draft.
import type { Draft } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import { withTransaction, type ServiceContext } from '../context';
import { storeDraft } from '../drafts/put-draft';
import { latestRelease, releaseCatalog } from '@/lib/catalog/record-release';

export async function restoreRelease({ ctx, input }: { ctx: ServiceContext; input: { release: number } }): Promise<Draft> {
  return withTransaction(ctx, async (tx) => {
    const catalog = await releaseCatalog(tx.uow.tx, ctx.appId, input.release);
    if (!catalog) throw new AppError('release_not_found', `App "${ctx.appId}" has no release ${input.release}`);
    return storeDraft(tx, catalog, 'release.restore', { baseRelease: await latestRelease(tx.uow.tx, ctx.appId) });
  });
}
