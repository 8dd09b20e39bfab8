// The admin API's view of missions (console and automation): a stored mission
// with its version (optimistic concurrency) and timestamps, the list filters,
// and the bodies of update, duplicate and archive. The mission itself is
// always validated by missionSchema, the one the catalog PUT uses.
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { missionFields, missionSchema, windowSchema } from './mission';

/** A stored mission as the admin API answers it. */
export const missionRecordSchema = missionSchema
  .extend({
    version: z.number().int().positive().describe('Bumped by every write; send it back on update and archive (a stale one answers 409 conflict)'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'MissionRecord' });
export type MissionRecord = z.output<typeof missionRecordSchema>;

export const missionRecordListSchema = z.object({ missions: z.array(missionRecordSchema) }).meta({ id: 'MissionRecordList' });

const MISSION_STATUS_FILTERS = ['live', 'archived', 'all'] as const;

/** GET /api/admin/apps/:appId/missions query: every given filter must match. */
export const missionListQuerySchema = z
  .object({
    q: z.string().max(200).optional().describe('Case-insensitive substring of the id, title or description'),
    campaignId: z.string().max(64).optional().describe('A campaign id, or "none" for missions outside any campaign'),
    status: z.enum(MISSION_STATUS_FILTERS).default('all').describe('live: not archived'),
    eventName: z.string().max(128).optional().describe('Exact criteria.eventName'),
    window: windowSchema.optional(),
  })
  .strict();
export type MissionListQuery = z.output<typeof missionListQuerySchema>;

const versionField = z.number().int().positive().describe('The version the change is based on');

/** PUT /api/admin/apps/:appId/missions/:missionId: the whole mission plus the version it was read at. */
// Documentation: the body is parsed by missionSchema (the bundle rules) once the version is taken off.
export const missionUpdateSchema = missionFields
  .extend({ id: idSchema.optional().describe('When given, must be the id in the path (ids never change)'), version: versionField })
  .meta({ id: 'MissionUpdate' });

/** POST …/missions/:missionId/duplicate: the copy's id and title (defaults: "<id>-copy", "<title> (copy)"). */
export const missionDuplicateSchema = z
  .object({ id: idSchema.optional(), title: z.string().min(1).max(200).optional() })
  .strict()
  .meta({ id: 'MissionDuplicate' });

/** POST …/missions/:missionId/archive and /unarchive: the version is optional for scripts, checked when given. */
export const missionArchiveSchema = z.object({ version: versionField.optional() }).strict().meta({ id: 'MissionArchive' });

export const EVENT_NAME_SUGGESTIONS = { scanned: 5000, max: 100 } as const;

/** GET /api/admin/apps/:appId/event-names: names of the app's most recent events. */
export const eventNameListSchema = z
  .object({
    eventNames: z.array(
      z.object({
        name: z.string(),
        lastSeenAt: timestampSchema.nullable().describe('When an event of this name was last received; null: only used by a mission so far'),
      }),
    ),
  })
  .meta({ id: 'EventNameList', description: `At most ${EVENT_NAME_SUGGESTIONS.max} names, from the app's last ${EVENT_NAME_SUGGESTIONS.scanned} events, most recent first, then the names missions use` });
export type EventNameList = z.output<typeof eventNameListSchema>;

export const PAYLOAD_FIELD_SUGGESTIONS = { scanned: 5000, sampled: 200, maxFields: 100, examples: 5, depth: 6 } as const;

/** GET /api/admin/apps/:appId/event-payload-fields?name=…: the query. */
export const payloadFieldsQuerySchema = z
  .object({ name: z.string().min(1).max(128).describe('The event name whose payloads are read') })
  .strict(); // no meta id: a query schema is documented as its parameters (a named schema would be a $ref with no properties)

const payloadScalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** GET /api/admin/apps/:appId/event-payload-fields: the payload fields recent events of a name carried. */
export const payloadFieldListSchema = z
  .object({
    name: z.string(),
    sampled: z.number().int().nonnegative().describe(`How many events of this name were read (at most ${PAYLOAD_FIELD_SUGGESTIONS.sampled}, among the app's last ${PAYLOAD_FIELD_SUGGESTIONS.scanned} events)`),
    fields: z.array(
      z.object({
        path: z.string().describe('Dot path of a scalar value in the payload, as a filter row names it (match.mode)'),
        events: z.number().int().positive().describe('How many of the sampled events carried it'),
        examples: z.array(payloadScalarSchema).describe(`Up to ${PAYLOAD_FIELD_SUGGESTIONS.examples} distinct values, most recent first`),
      }),
    ),
  })
  .meta({
    id: 'PayloadFieldList',
    description: `The dot paths of scalar values (strings, numbers, booleans, null; arrays are skipped) in the payloads of the app's most recent events of one name, most common first, at most ${PAYLOAD_FIELD_SUGGESTIONS.maxFields}`,
  });
export type PayloadFieldList = z.output<typeof payloadFieldListSchema>;
export type PayloadFieldsQuery = z.output<typeof payloadFieldsQuerySchema>;
