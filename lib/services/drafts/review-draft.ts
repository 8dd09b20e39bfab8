// The draft read before it pays out (issue 39 §5): each change field by field
// (before → after), and the payout warnings publishing it needs acknowledged:
// a reward or budget multiplied by 10 or more, a reward a mission did not
// grant added to a mission players have already completed, a budget line
// removed, a budget lowered below what the campaign has paid. Generic over
// the document's sections: an item is found by its change's kind.
import { and, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { campaignBudgetSpent, progress } from '@/db/schema';
import { diffCatalogs } from '@/lib/catalog/catalog-document';
import { fieldDiffs } from '@/lib/catalog/field-diff';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CatalogChange, CatalogChangeDetail, DraftWarning } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';

/** The document section of each change kind (a kind's plural otherwise, for sections added later). */
const SECTION: Record<string, string> = { mission: 'missions', campaign: 'campaigns', theme: 'themes', currency: 'currencies', item: 'items' };

type Item = { id: string } & Record<string, unknown>;

function itemOf(doc: CatalogDocument, kind: string, id: string): Item | null {
  const list = (doc as unknown as Record<string, unknown>)[SECTION[kind] ?? `${kind}s`];
  return Array.isArray(list) ? ((list as Item[]).find((item) => item.id === id) ?? null) : null;
}

/** The changes of `next` against `current`, each with its fields. */
export function changeDetailsOf(current: CatalogDocument, next: CatalogDocument, changes: CatalogChange[] = diffCatalogs(current, next)): CatalogChangeDetail[] {
  return changes.map((c) => ({ ...c, fields: fieldDiffs(itemOf(current, c.kind, c.id), itemOf(next, c.kind, c.id)) }));
}

type RewardLike = { kind: string; currency?: string; amount?: number; itemId?: string; quantity?: number; badgeId?: string };

const rewardsOfItem = (mission: Item) => (Array.isArray(mission.rewards) ? mission.rewards : mission.reward ? [mission.reward] : []) as RewardLike[];

/** A mission's rewards as "what" → how many: currency:gems → 100, item:sword → 2, badge:winter → 1 (every reward of a bundle). */
function rewardAmounts(mission: Item): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rewardsOfItem(mission)) {
    const key = r.kind === 'currency' ? `${r.currency}` : r.kind === 'item' ? `item ${r.itemId}` : `badge ${r.badgeId}`;
    const n = r.kind === 'currency' ? (r.amount ?? 0) : r.kind === 'item' ? (r.quantity ?? 1) : 1;
    out.set(key, (out.get(key) ?? 0) + n);
  }
  return out;
}

/** The path of the reward granting `what` in a mission: `reward` for a mission of one reward, `rewards[i]` in a bundle of several. */
function rewardPath(mission: Item, what: string): string {
  const rewards = rewardsOfItem(mission);
  if (rewards.length <= 1) return 'reward';
  const i = rewards.findIndex((r) => (r.kind === 'currency' ? `${r.currency}` : r.kind === 'item' ? `item ${r.itemId}` : `badge ${r.badgeId}`) === what);
  return i < 0 ? 'rewards' : `rewards[${i}]`;
}

const num = (n: number) => n.toLocaleString('en-US');
const MULTIPLIED = 10;

/** The payout warnings of `next` against `current` (the live catalog), read with `db` (players' completions, budgets spent). */
export async function draftWarnings(db: DbOrTx, appId: string, current: CatalogDocument, next: CatalogDocument, changes: CatalogChange[] = diffCatalogs(current, next)): Promise<DraftWarning[]> {
  const out: DraftWarning[] = [];
  const added: Array<{ id: string; path: string; what: string[] }> = [];
  for (const c of changes) {
    if (c.kind !== 'mission' || c.change !== 'changed') continue;
    const before = itemOf(current, 'mission', c.id)!;
    const after = itemOf(next, 'mission', c.id)!;
    const a = rewardAmounts(before);
    const b = rewardAmounts(after);
    const newOnes: string[] = [];
    for (const [what, amount] of b) {
      const was = a.get(what);
      if (was === undefined) newOnes.push(what);
      else if (amount >= was * MULTIPLIED) {
        const factor = amount / was;
        out.push({ code: 'reward_multiplied', kind: 'mission', id: c.id, path: rewardPath(after, what), message: `Mission "${c.id}": reward ${num(was)} ${what} → ${num(amount)} ${what} (×${num(factor)})`, factor, before: was, after: amount });
      }
    }
    if (newOnes.length > 0) added.push({ id: c.id, path: newOnes.length === 1 ? rewardPath(after, newOnes[0]) : rewardPath(after, ''), what: newOnes });
  }
  if (added.length > 0) {
    const rows = await db
      .select({ missionId: progress.missionId, n: count() })
      .from(progress)
      .where(and(eq(progress.appId, appId), inArray(progress.missionId, added.map((m) => m.id)), inArray(progress.status, ['completed', 'claimed'])))
      .groupBy(progress.missionId);
    const players = new Map(rows.map((r) => [r.missionId, Number(r.n)]));
    for (const m of added) {
      const n = players.get(m.id) ?? 0;
      if (n === 0) continue;
      out.push({
        code: 'reward_added_to_completed',
        kind: 'mission',
        id: m.id,
        path: m.path,
        message: `Mission "${m.id}": ${m.what.join(', ')} added as a reward; ${num(n)} player${n === 1 ? ' has' : 's have'} completed it already`,
        players: n,
        after: m.what,
      });
    }
  }

  const budgetChanges = changes.filter((c) => c.kind === 'campaign' && c.change === 'changed');
  if (budgetChanges.length > 0) {
    const spentRows = await db
      .select({ campaignId: campaignBudgetSpent.campaignId, currency: campaignBudgetSpent.currency, spent: campaignBudgetSpent.spent })
      .from(campaignBudgetSpent)
      .where(and(eq(campaignBudgetSpent.appId, appId), inArray(campaignBudgetSpent.campaignId, budgetChanges.map((c) => c.id))));
    const spentOf = (campaignId: string, currency: string) => spentRows.find((r) => r.campaignId === campaignId && r.currency === currency)?.spent ?? 0;
    for (const c of budgetChanges) {
      for (const f of fieldDiffs(itemOf(current, 'campaign', c.id), itemOf(next, 'campaign', c.id))) {
        if (!f.path.startsWith('budget.')) continue;
        const currency = f.path.slice('budget.'.length);
        const was = f.before as number | null;
        const now = f.after as number | null;
        const spent = spentOf(c.id, currency);
        if (was !== null && now === null) {
          out.push({ code: 'budget_removed', kind: 'campaign', id: c.id, path: f.path, message: `Campaign "${c.id}": the ${currency} budget of ${num(was)} is removed: its missions may pay without a cap (${num(spent)} paid so far)`, before: was, after: null, spent });
        } else if (was !== null && now !== null && now >= was * MULTIPLIED) {
          const factor = now / was;
          out.push({ code: 'reward_multiplied', kind: 'campaign', id: c.id, path: f.path, message: `Campaign "${c.id}": ${currency} budget ${num(was)} → ${num(now)} (×${num(factor)})`, factor, before: was, after: now });
        } else if (now !== null && now < spent) {
          out.push({ code: 'budget_below_spent', kind: 'campaign', id: c.id, path: f.path, message: `Campaign "${c.id}": ${currency} budget ${was === null ? 'set' : `lowered from ${num(was)}`} to ${num(now)}, below the ${num(spent)} it has paid already: every further claim of it is refused`, before: was, after: now, spent });
        }
      }
    }
  }
  return out;
}

/** 409 needs_acknowledgement listing the warnings (nothing published or scheduled). */
export function needsAcknowledgement(warnings: DraftWarning[], scheduling: boolean): AppError {
  const list = warnings.map((w) => w.message).join('; ');
  return new AppError('needs_acknowledgement', `${scheduling ? 'Scheduling' : 'Publishing'} this draft needs acknowledgeWarnings: true: ${list}`, { extra: { warnings } });
}
