// The app's draft catalog with what publishing it would change (404 draft_not_found when there is none; null instead with allowMissing).
import type { Draft } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { draftAnswer, findDraft, noDraft } from './draft-row';

export async function getDraft(args: { ctx: ServiceContext; input?: { allowMissing?: false } }): Promise<Draft>;
export async function getDraft(args: { ctx: ServiceContext; input: { allowMissing: boolean } }): Promise<Draft | null>;
export async function getDraft({ ctx, input }: { ctx: ServiceContext; input?: { allowMissing?: boolean } }): Promise<Draft | null> {
  const row = await findDraft(ctx.deps.db, ctx.appId);
  if (!row) {
    if (input?.allowMissing) return null;
    throw noDraft(ctx.appId);
  }
  return draftAnswer(ctx.deps.db, row);
}
