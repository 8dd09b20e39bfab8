// Conversions between the contract's entities, the database rows and the
// public /v1 form, driven by the entities' zod schemas: no field is listed
// here. An optional field of an entity is a nullable column (absent ↔ NULL).
import type { z } from 'zod';
import type { CampaignRow, MissionRow, ThemeRow } from '@/db/schema';
import { campaignSchema, publicCampaignSchema, type Campaign, type PublicCampaign } from '@/lib/contract/campaign';
import { missionSchema, publicMissionSchema, rewardsOf, type Mission, type PublicMission } from '@/lib/contract/mission';
import { themePresetSchema, type ThemePreset } from '@/lib/contract/theme';

/** True for a field declared `.optional()` (absent rather than null). */
const isOptional = (field: z.ZodType) => field.def.type === 'optional';

/**
 * The object `schema` describes, its fields in the schema's order (the JSON
 * key order clients see), taken from `derived` first, then from `source`.
 */
function project<S extends z.ZodObject>(schema: S, source: object, derived: Record<string, unknown> = {}): z.output<S> {
  const from = source as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = key in derived ? derived[key] : from[key];
    if (value === undefined || (value === null && isOptional(field))) continue;
    out[key] = value;
  }
  return out as z.output<S>;
}

/** The column values of an entity: every stored field, absent optional ones as NULL. */
function columns<S extends z.ZodObject>(schema: S, entity: object, skip: readonly string[]): Record<string, unknown> {
  const from = entity as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (skip.includes(key)) continue;
    out[key] = from[key] === undefined && isOptional(field) ? null : from[key];
  }
  return out;
}

// The rows' columns have the entities' types; projecting relies on it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Stored<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] };
type StoredCampaign = Omit<Campaign, 'missionIds'>;
const rowTypesMatch: [
  Same<Pick<MissionRow, keyof Mission>, Stored<Mission>>,
  Same<Pick<CampaignRow, keyof StoredCampaign>, Stored<StoredCampaign>>,
  Same<Omit<PublicMission, 'locked' | 'rewards'>, Omit<Mission, 'archived' | 'audience' | 'rewards'>>,
  Same<Omit<PublicCampaign, 'missionIds'>, Omit<StoredCampaign, 'archived' | 'themeId' | 'audience' | 'budget'>>,
  Same<Pick<ThemeRow, keyof ThemePreset>, Stored<ThemePreset>>,
] = [true, true, true, true, true];
void rowTypesMatch;

export function missionFromRow(row: MissionRow): Mission {
  return project(missionSchema, row);
}

/** The columns of a mission row other than its keys (app id, id) and timestamps. */
export function missionColumns(m: Mission): Omit<Stored<Mission>, 'id'> {
  return columns(missionSchema, m, ['id']) as Omit<Stored<Mission>, 'id'>;
}

export function campaignFromRow(row: CampaignRow, missionIds: string[]): Campaign {
  return project(campaignSchema, row, { missionIds }) as Campaign;
}

/** The columns of a campaign row other than its keys and timestamps (missionIds is derived, not stored). */
export function campaignColumns(c: z.output<typeof campaignSchema>): Omit<Stored<StoredCampaign>, 'id'> {
  return columns(campaignSchema, c, ['id', 'missionIds']) as Omit<Stored<StoredCampaign>, 'id'>;
}

export function themeFromRow(row: ThemeRow): ThemePreset {
  return project(themePresetSchema, row);
}

/** The columns of a theme row other than its keys, version and timestamps. */
export function themeColumns(t: ThemePreset): Omit<Stored<ThemePreset>, 'id'> {
  return columns(themePresetSchema, t, ['id']) as Omit<Stored<ThemePreset>, 'id'>;
}

/** A value as JSON with every object's keys sorted: equal for equal content (jsonb does not keep key order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Whether two sets of column values (from the *Columns functions) hold the
 * same content: a save that changes nothing is then a no-op (no version bump,
 * no audit row, no cache invalidation).
 */
export function sameColumns(a: object, b: object): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The /v1 form of a mission for one user (`archived` is internal). */
export function publicMission(m: Mission, locked: boolean): PublicMission {
  return project(publicMissionSchema, m, { locked, rewards: rewardsOf(m) });
}

export function publicCampaign(c: Campaign): PublicCampaign {
  return project(publicCampaignSchema, c);
}
