// The audit log as the admin API answers it: who did what to which entity,
// when, with the state before and after; filtered and paginated newest first.
import { z } from 'zod';
import { timestampSchema } from './common';

const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: timestampSchema,
    actor: z.string().describe('"staff:<email>", "admin-api-key" or "system"'),
    action: z.string().describe('<entity>.<verb>, e.g. mission.update'),
    appId: z.string().nullable(),
    target: z.string().describe('<entity>:<id>, e.g. mission:daily-win'),
    before: z.unknown().describe('The entity before the change (any JSON; null for a creation)'),
    after: z.unknown().describe('The entity after the change (any JSON; null for a deletion)'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.output<typeof auditEntrySchema>;

const AUDIT_PAGE = { default: 50, max: 200 } as const;

const msParam = z.coerce.number().int().nonnegative();

/** GET /api/admin/audit query. */
export const auditQuerySchema = z
  .object({
    appId: z.string().max(64).optional().describe('Only this app’s entries (staff changes have no app)'),
    actor: z.string().max(320).optional().describe('Case-insensitive substring of the actor'),
    entity: z
      .string()
      .max(64)
      .regex(/^[a-z_]+$/, 'an entity kind such as mission, campaign, app, staff')
      .optional()
      .describe('The entity kind: the part of target before ":"'),
    target: z.string().max(200).optional().describe('One entity, e.g. mission:daily-win'),
    userId: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'One player (exact user id): what staff did to them, the same as target=user:<userId>. Combine with appId for one app’s player.', examples: ['player-42'] }),
    from: msParam.optional().describe('At or after this time (Unix ms)'),
    to: msParam.optional().describe('Before this time (Unix ms)'),
    before: z.coerce.number().int().positive().optional().describe('Cursor: entries older than this id (nextCursor of the previous page)'),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.max).default(AUDIT_PAGE.default),
  })
  .strict();
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditPageSchema = z
  .object({
    entries: z.array(auditEntrySchema),
    nextCursor: z.number().int().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.output<typeof auditPageSchema>;
