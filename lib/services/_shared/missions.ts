// What the one-mission verbs (lib/services/missions) share: a stored mission
// as the admin API answers it, the parse by the contract's missionSchema (the
// catalog PUT's), the reference check (campaign, prerequisites, no cycle),
// the insert within the app's limit, and the versioned replace that update,
// archive and unarchive are made of.
import { and, count, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, type MissionRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { findCycle } from '@/lib/catalog/catalog-document';
import { missionColumns, missionFromRow, sameColumns } from '@/lib/catalog/convert';
import { CATALOG_LIMITS } from '@/lib/contract/catalog';
import { describeIssues } from '@/lib/contract/describe-issues';
import { missionSchema, type Mission } from '@/lib/contract/mission';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import { AppError } from '@/lib/errors';
import { streamedChanges } from '@/lib/updates/resync';
import type { ServiceContext } from '../context';
import { writeCatalog } from './catalog-write';

export function missionRecordFromRow(row: MissionRow): MissionRecord {
  return { ...missionFromRow(row), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** A mission as missionSchema reads it (400 validation_error naming the field). */
export function parseMission(input: unknown): Mission {
  const result = missionSchema.safeParse(input);
  if (!result.success) throw new AppError('validation_error', describeIssues(result.error));
  return result.data;
}

export async function findMissionRow(db: DbOrTx, appId: string, id: string): Promise<MissionRow | null> {
  const [row] = await db.select().from(missionsTable).where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, id)));
  return row ?? null;
}

/** The campaign and prerequisites a mission names exist in the app, and prerequisites form no cycle. */
async function checkReferences(tx: Tx, appId: string, m: Mission): Promise<void> {
  if (m.campaignId) {
    const [campaign] = await tx
      .select({ id: campaignsTable.id })
      .from(campaignsTable)
      .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, m.campaignId)));
    if (!campaign) throw new AppError('validation_error', `campaignId: "${m.campaignId}" is not a campaign of this app`);
  }
  if (m.prerequisites.length === 0) return;
  if (m.prerequisites.includes(m.id)) throw new AppError('validation_error', 'prerequisites: a mission cannot be its own prerequisite');
  const graph = new Map(
    (await tx.select({ id: missionsTable.id, prerequisites: missionsTable.prerequisites }).from(missionsTable).where(eq(missionsTable.appId, appId))).map((r) => [r.id, r]),
  );
  for (const pre of m.prerequisites) {
    if (!graph.has(pre)) throw new AppError('validation_error', `prerequisites: "${pre}" is not a mission of this app`);
  }
  graph.set(m.id, { id: m.id, prerequisites: m.prerequisites });
  if (findCycle(graph)) throw new AppError('validation_error', 'prerequisites: they would form a cycle');
}

function staleVersion(id: string, sent: number, current: number): AppError {
  return new AppError('conflict', `Mission "${id}" changed since version ${sent} (it is at version ${current}): reload it and apply your change again`);
}

/** Inserts a new mission (400 past the app's limit or on a bad reference, 409 when the id is taken). */
export async function insertMission(tx: Tx, appId: string, m: Mission, now: number): Promise<MissionRow> {
  const [{ n }] = await tx.select({ n: count() }).from(missionsTable).where(eq(missionsTable.appId, appId));
  if (n >= CATALOG_LIMITS.missions) throw new AppError('validation_error', `An app holds at most ${CATALOG_LIMITS.missions} missions`);
  await checkReferences(tx, appId, m);
  const [row] = await tx
    .insert(missionsTable)
    .values({ appId, id: m.id, ...missionColumns(m), createdAt: now, updatedAt: now, version: 1 })
    .onConflictDoNothing({ target: [missionsTable.appId, missionsTable.id] })
    .returning();
  if (!row) throw new AppError('conflict', `A mission with id "${m.id}" exists already in app "${appId}"`);
  return row;
}

/**
 * Writes `change(current)` over the mission if it is still at `version` (when
 * given); answers the record after the write. Audited as `action`. A mission
 * equal to the stored one writes nothing and answers it at its current
 * version. The holders of a mission whose reading changed get it on their streams.
 */
export async function replaceMission(
  ctx: ServiceContext,
  input: { id: string; version: number | undefined; action: string; change: (current: Mission) => Mission },
): Promise<MissionRecord> {
  const { appId } = ctx;
  const { id, version, action, change } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      // FOR UPDATE: a concurrent writer waits, then sees the bumped version.
      const [current] = await db
        .select()
        .from(missionsTable)
        .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, id)))
        .for('update');
      if (!current) throw new AppError('mission_not_found', `No mission "${id}" in app "${appId}"`);
      if (version !== undefined && version !== current.version) throw staleVersion(id, version, current.version);
      const before = missionFromRow(current);
      const next = change(before);
      if (next.id !== id) throw new AppError('validation_error', `id: "${next.id}" differs from the mission in the path ("${id}"); ids never change`);
      // Nothing changes: the mission as it is, same version, no audit row.
      if (sameColumns(missionColumns(next), missionColumns(before))) return { value: missionRecordFromRow(current), unchanged: true };
      await checkReferences(db, appId, next);
      const [row] = await db
        .update(missionsTable)
        .set({ ...missionColumns(next), updatedAt: now, version: current.version + 1 })
        .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, id), eq(missionsTable.version, current.version)))
        .returning();
      if (!row) throw staleVersion(id, current.version, current.version + 1);
      await recordAudit(db, { actor, action, appId, target: `mission:${id}`, before, after: next }, now);
      // The holders' streams get the mission's new reading (lib/updates/resync.ts).
      return { value: missionRecordFromRow(row), streamed: streamedChanges(new Map([[id, before]]), [next]) };
    },
  });
  return value;
}
