// The game backend spends a player's currency (POST /v1/balance/spend): the
// balance row moves down only while it stays >= 0 (one guarded UPDATE), a
// ledger row records the negative amount with actor `backend` and the
// reason, in one transaction under the player's lock and the Idempotency-Key's
// row (lib/idempotency/run-idempotent.ts: a replay answers the first result,
// another request under the key 422); `balance.changed` goes out on the
// player's stream after commit and to the app's outbound endpoints (an
// outbox row in the transaction). Too little balance changes nothing (409
// insufficient_balance), so the balance stays the sum of the ledger.
//
// A defined currency (docs/api.md "Defined currencies and items"): one of the
// app's `currencies` section when its catalog carries one; else a currency
// named by a reward or a budget of the app's live catalog, or by a balance
// row of the app. A spend only lowers a balance, so maxBalance never refuses it.
import { randomUUID } from 'node:crypto';
import { and, eq, gte, sql } from 'drizzle-orm';
import { appUsers, balances, ledger } from '@/db/schema';
import type { z } from 'zod';
import type { spendResponseSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { checkGrantCurrency } from '@/lib/catalog/economy';
import { hashRequest, runIdempotent, type Outcome } from '@/lib/idempotency/run-idempotent';
import { nearestEventName } from '@/lib/missions/did-you-mean';
import { withTransaction, type ServiceContext } from '../context';
import { announceBalance } from '../_shared/balance-changed';
import { rewardsOf } from '@/lib/contract/mission';

export type SpendResult = z.output<typeof spendResponseSchema>;

export interface SpendCommand {
  userId: string;
  currency: string;
  amount: number;
  reason: string | null;
  idempotencyKey: string;
}

/** The ledger's actor of a spend. */
const SPEND_ACTOR = 'backend';

/** Currencies the app's live catalog names (mission rewards, campaign budgets), in a stable order. */
async function catalogCurrencies(ctx: ServiceContext): Promise<string[]> {
  const catalog = await ctx.deps.catalog(ctx.appId);
  const names = new Set<string>();
  for (const mission of catalog.ordered) for (const reward of rewardsOf(mission)) if (reward.kind === 'currency') names.add(reward.currency);
  for (const campaign of catalog.campaigns.values()) for (const line of campaign.budget ?? []) names.add(line.currency);
  return [...names];
}

/** 400 validation_error naming `currency` (with the nearest known one) unless the currency is defined for the app. */
async function checkCurrency(ctx: ServiceContext, currency: string): Promise<void> {
  const defined = (await ctx.deps.catalog(ctx.appId)).economy.currencies;
  if (defined) return checkGrantCurrency(defined, currency);
  const known = await catalogCurrencies(ctx);
  if (known.includes(currency)) return;
  const db = ctx.deps.db;
  const [held] = await db
    .select({ currency: balances.currency })
    .from(balances)
    .where(and(eq(balances.appId, ctx.appId), eq(balances.currency, currency)))
    .limit(1);
  if (held) return;
  const rows = await db.selectDistinct({ currency: balances.currency }).from(balances).where(eq(balances.appId, ctx.appId)).orderBy(balances.currency).limit(500);
  const candidates = [...new Set([...known, ...rows.map((r) => r.currency)])];
  const nearest = nearestEventName(currency, candidates);
  const hint = nearest !== null ? ` (did you mean "${nearest}"?)` : candidates.length > 0 ? ` (known: ${candidates.slice(0, 10).join(', ')})` : '';
  throw new AppError('validation_error', `currency: "${currency}" is not a currency of this app${hint}`);
}

export async function spend({ ctx, input }: { ctx: ServiceContext; input: SpendCommand }): Promise<Outcome<SpendResult>> {
  const { userId, currency, amount, reason } = input;
  const { appId } = ctx;
  // Read before the transaction (the embedded database has one connection, and the catalog may load).
  await checkCurrency(ctx, currency);
  const scope = { appId, userId, key: `spend:${input.idempotencyKey}`, requestHash: hashRequest({ op: 'spend', userId, currency, amount, reason }) };
  return withTransaction(ctx, (tx) =>
    runIdempotent<SpendResult>(
      scope,
      async () => {
        const db = tx.uow.tx;
        const now = ctx.now();
        const [seen] = await db
          .select({ one: sql<number>`1` })
          .from(appUsers)
          .where(and(eq(appUsers.appId, appId), eq(appUsers.userId, userId)))
          .union(db.select({ one: sql<number>`1` }).from(balances).where(and(eq(balances.appId, appId), eq(balances.userId, userId))))
          .limit(1);
        if (!seen) throw new AppError('user_not_found', `The app has never seen user "${userId}"`);
        const where = and(eq(balances.appId, appId), eq(balances.userId, userId), eq(balances.currency, currency));
        // Guarded: a concurrent spend or claim cannot take it below zero (and the player's lock orders them anyway).
        const [row] = await db
          .update(balances)
          .set({ amount: sql`${balances.amount} - ${amount}`, updatedAt: now })
          .where(and(where, gte(balances.amount, amount)))
          .returning();
        if (!row) {
          const [current] = await db.select({ amount: balances.amount }).from(balances).where(where);
          throw new AppError('insufficient_balance', `The ${currency} balance is ${current?.amount ?? 0}; spending ${amount} would take it below zero`);
        }
        const [entry] = await db
          .insert(ledger)
          .values({
            appId,
            userId,
            grantKey: `spend:${randomUUID()}`,
            kind: 'currency',
            currency,
            amount: -amount,
            balanceAfter: row.amount,
            createdAt: now,
            actor: SPEND_ACTOR,
            reason,
          })
          .returning();
        const balance = await announceBalance(tx, { appId, userId }, { currency, amount: row.amount, updatedAt: row.updatedAt }, now);
        const { appId: _a, userId: _u, grantKey: _g, ...shown } = entry;
        return { status: 200, body: { balance, ledgerEntry: shown } };
      },
      { uow: tx.uow },
    ),
  );
}
