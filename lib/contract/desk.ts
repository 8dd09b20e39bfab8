// The support desk's admin API: find a player, make it right (currency
// grants and corrections, mission resets and completions, notes), a dry run
// of a test event, and data requests (export, erasure). Every write carries a
// required reason and is audited; see docs/inspector.md and docs/api.md.
import { z } from 'zod';
import { balanceSchema } from './balance';
import { idSchema, timestampSchema } from './common';
import { ledgerEntrySchema, verdictSchema } from './inspector';
import { missionProgressSchema } from './progress';

/** Why staff did it: kept in the audit log (and on the ledger row of a grant). */
const reasonSchema = z.string().trim().min(3, 'say why (3 characters or more)').max(500).describe('Why (kept in the audit log)');

const MAX_GRANT_AMOUNT = 1_000_000_000;

/** A user the app has never seen is refused (404 user_not_found) unless the request says so. */
const createUserSchema = z
  .boolean()
  .optional()
  .describe('true: act on a user the app has never seen, creating them (first seen now); absent or false: such a user is refused with 404 user_not_found');

export const grantSchema = z
  .object({
    currency: z.string().min(1).max(32),
    amount: z
      .number()
      .int()
      .min(-MAX_GRANT_AMOUNT)
      .max(MAX_GRANT_AMOUNT)
      .refine((n) => n !== 0, 'must not be 0')
      .describe('Positive credits, negative corrects (never below zero: 409 insufficient_balance)'),
    reason: reasonSchema,
    createUser: createUserSchema,
  })
  .strict()
  .meta({ id: 'Grant', description: 'A staff grant or correction of one currency', examples: [{ currency: 'gold', amount: 50, reason: 'Ticket #4411: ranked win not counted' }] });
export type GrantInput = z.output<typeof grantSchema>;

export const grantResultSchema = z
  .object({ balance: balanceSchema, entry: ledgerEntrySchema })
  .meta({
    id: 'GrantResult',
    description: 'The balance after the grant and its ledger row',
    examples: [
      {
        balance: { userId: 'player-42', currency: 'gold', amount: 150, updatedAt: 1764000000000 },
        entry: { id: 17, kind: 'currency', currency: 'gold', amount: 50, itemId: null, quantity: null, badgeId: null, missionId: null, balanceAfter: 150, createdAt: 1764000000000, actor: 'staff:ana@example.com', reason: 'Ticket #4411: ranked win not counted' },
      },
    ],
  });
export type GrantResult = z.output<typeof grantResultSchema>;

export const reasonBodySchema = z
  .object({ reason: reasonSchema })
  .strict()
  .meta({ id: 'Reason', examples: [{ reason: 'Ticket #4411: the ranked win was lost in an outage' }] });

/** The body of a staff mission reset or completion. */
export const missionActionBodySchema = z
  .object({ reason: reasonSchema, createUser: createUserSchema })
  .strict()
  .meta({ id: 'MissionActionInput', examples: [{ reason: 'Ticket #4411: the ranked win was lost in an outage' }] });

export const missionActionResultSchema = z
  .object({ progress: missionProgressSchema })
  .meta({
    id: 'MissionActionResult',
    description: 'The player’s progress of the mission after the reset or completion (as GET /v1/missions/:id shows it)',
    examples: [{ progress: { userId: 'player-42', missionId: 'ranked-wins', status: 'completed', progress: 1, currentCount: 2, targetCount: 2, updatedAt: 1764000000000 } }],
  });
export type MissionActionResult = z.output<typeof missionActionResultSchema>;

export const noteInputSchema = z
  .object({ text: z.string().trim().min(1).max(2000) })
  .strict()
  .meta({ id: 'NoteInput', examples: [{ text: 'Player reports the ranked win of 24 Nov; granted 50 gold.' }] });

const noteSchema = z
  .object({ id: z.number().int(), author: z.string().describe('staff:<email> or admin-api-key'), text: z.string(), createdAt: timestampSchema })
  .meta({ id: 'Note' });
export type Note = z.output<typeof noteSchema>;

export const noteAnswerSchema = z
  .object({ note: noteSchema })
  .meta({ id: 'NoteAnswer', examples: [{ note: { id: 3, author: 'staff:ana@example.com', text: 'Granted 50 gold for the lost win.', createdAt: 1764000000000 } }] });

export const noteListSchema = z
  .object({ notes: z.array(noteSchema).describe('Newest first') })
  .meta({ id: 'NoteList', examples: [{ notes: [{ id: 3, author: 'staff:ana@example.com', text: 'Granted 50 gold for the lost win.', createdAt: 1764000000000 }] }] });

export const dryRunResultSchema = z
  .object({
    dryRun: z.literal(true),
    missionsUpdated: z.array(z.string()).describe('The missions the event would advance'),
    verdicts: z.array(verdictSchema).describe('One per mission not archived, as the inspector shows stored events'),
  })
  .meta({
    id: 'DryRunResult',
    description: 'What the event would do now: nothing is stored, nothing is sent',
    examples: [{ dryRun: true, missionsUpdated: [], verdicts: [{ missionId: 'ranked-wins', counted: false, code: 'filter_mismatch', key: 'mode', condition: 'ranked', missing: false, seen: 'casual' }] }],
  });
export type DryRunResult = z.output<typeof dryRunResultSchema>;

/** GET /api/admin/apps/:appId/users query. */
export const userSearchQuerySchema = z
  .object({
    query: z.string().max(256).optional().describe('Any part of a user id, in any case (`7f3a`, `7F3A21C9` and `P-7F3A` all find `p-7f3a21c9`); empty or absent: every user'),
    cursor: z.string().max(400).optional().describe('nextCursor of the previous page'),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type UserSearchQuery = z.output<typeof userSearchQuerySchema>;

const userSummarySchema = z
  .object({ userId: z.string(), firstSeenAt: timestampSchema, lastSeenAt: timestampSchema, events: z.number().int().nonnegative() })
  .meta({ id: 'UserSummary', description: 'A user the app has seen (from their events)' });

export const userPageSchema = z
  .object({ users: z.array(userSummarySchema).describe('Most recently seen first'), nextCursor: z.string().nullable() })
  .meta({
    id: 'UserPage',
    examples: [{ users: [{ userId: 'player-42', firstSeenAt: 1763000000000, lastSeenAt: 1764000000000, events: 118 }], nextCursor: null }],
  });
export type UserPage = z.output<typeof userPageSchema>;


export const erasureResultSchema = z
  .object({
    erased: z.literal(true),
    userId: z.string(),
    removed: z.object({
      events: z.number().int(),
      progress: z.number().int(),
      balances: z.number().int(),
      ledger: z.number().int(),
      notes: z.number().int(),
      idempotencyKeys: z.number().int(),
    }),
  })
  .meta({
    id: 'ErasureResult',
    description: 'How many rows of each kind were removed; the user’s tokens are revoked',
    examples: [{ erased: true, userId: 'player-42', removed: { events: 118, progress: 4, balances: 1, ledger: 3, notes: 1, idempotencyKeys: 2 } }],
  });
export type ErasureResult = z.output<typeof erasureResultSchema>;

export const userExportSchema = z
  .object({
    appId: idSchema,
    userId: z.string(),
    exportedAt: timestampSchema,
    user: userSummarySchema.nullable().describe('First and last seen; null for a user the app never saw'),
    events: z.array(z.record(z.string(), z.unknown())).describe('Every stored event, oldest first'),
    progress: z.array(z.record(z.string(), z.unknown())),
    balances: z.array(balanceSchema),
    ledger: z.array(ledgerEntrySchema).describe('Oldest first'),
    notes: z.array(noteSchema),
    audit: z.array(z.record(z.string(), z.unknown())).describe('Audit entries whose target is the user'),
    claimRefusals: z
      .array(z.record(z.string(), z.unknown()))
      .describe('The user’s last claim of each mission refused by its campaign’s budget (missionId, campaignId, currency, amount, budget, idempotencyKey, at)'),
  })
  .meta({ id: 'UserExport', description: 'Everything stored about one user of the app (a data-access request)' });
export type UserExport = z.output<typeof userExportSchema>;
