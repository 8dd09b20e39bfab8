// The payload fields the app's events of one name carried lately, for the
// console's filter rows: the events of that name among the app's last
// `scanned` events (read backwards along events_app_received_idx, so the cost
// does not grow with history), at most `sampled` of them, walked for the dot
// paths of their scalar values with a few distinct example values each.
// Arrays are skipped (a filter path does not index into them), as are keys
// with a dot (a dot path cannot name them). Reads only.
import { desc, eq } from 'drizzle-orm';
import { events } from '@/db/schema';
import { PAYLOAD_FIELD_SUGGESTIONS, type PayloadFieldList, type PayloadFieldsQuery } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';

type Scalar = string | number | boolean | null;

interface Field {
  events: number;
  /** The events counted so far, by their index: a path seen twice in one payload counts once. */
  lastEvent: number;
  examples: Scalar[];
}

/** Paths tracked at most, however varied the payloads: bounds memory and time. */
const MAX_TRACKED = 1000;

function walk(value: unknown, path: string, depth: number, visit: (path: string, value: Scalar) => void): void {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (path !== '') visit(path, value);
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value) || depth >= PAYLOAD_FIELD_SUGGESTIONS.depth) return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '' || key.includes('.')) continue;
    walk(child, path === '' ? key : `${path}.${key}`, depth + 1, visit);
  }
}

export async function recentPayloadFields({ ctx, input }: { ctx: ServiceContext; input: PayloadFieldsQuery }): Promise<PayloadFieldList> {
  const limits = PAYLOAD_FIELD_SUGGESTIONS;
  const db = ctx.deps.db;
  const recent = db
    .select({ name: events.name, payload: events.payload, receivedAt: events.receivedAt })
    .from(events)
    .where(eq(events.appId, ctx.appId))
    .orderBy(desc(events.receivedAt))
    .limit(limits.scanned)
    .as('recent');
  const rows = await db
    .select({ payload: recent.payload })
    .from(recent)
    .where(eq(recent.name, input.name))
    .orderBy(desc(recent.receivedAt))
    .limit(limits.sampled);

  const fields = new Map<string, Field>();
  rows.forEach((row, i) => {
    walk(row.payload, '', 0, (path, value) => {
      let field = fields.get(path);
      if (!field) {
        if (fields.size >= MAX_TRACKED) return;
        field = { events: 0, lastEvent: -1, examples: [] };
        fields.set(path, field);
      }
      if (field.lastEvent !== i) {
        field.events += 1;
        field.lastEvent = i;
      }
      if (field.examples.length < limits.examples && !field.examples.includes(value)) field.examples.push(value);
    });
  });
  const sorted = [...fields.entries()]
    .sort(([a, x], [b, y]) => y.events - x.events || a.localeCompare(b))
    .slice(0, limits.maxFields)
    .map(([path, f]) => ({ path, events: f.events, examples: f.examples }));
  return { name: input.name, sampled: rows.length, fields: sorted };
}
