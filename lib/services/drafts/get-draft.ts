// The app's draft catalog with what publishing it would change (404 draft_not_found when there is none).
import type { Draft } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { draftAnswer, findDraft, noDraft } from './draft-row';

export async function getDraft({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<Draft> {
  const row = await findDraft(ctx.deps.db, ctx.appId);
  if (!row) throw noDraft(ctx.appId);
  return draftAnswer(ctx.deps.db, row);
}
