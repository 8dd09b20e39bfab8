// One mission at a time, for the console and scripts: list with filters, get,
// create, update, duplicate, archive and unarchive. Every write is validated by
// the contract's missionSchema (the catalog PUT's), checks its references,
// guards against a stale version (409 conflict), writes its audit row in the
// same transaction and invalidates the app's cached catalog once committed.
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, type MissionRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { findApp } from '@/lib/apps/apps';
import { CATALOG_LIMITS } from '@/lib/contract/catalog';
import { missionSchema, type Mission } from '@/lib/contract/mission';
import type { MissionListQuery, MissionRecord } from '@/lib/contract/mission-admin';
import { AppError } from '@/lib/errors';
import { describeIssues } from '@/lib/contract/describe-issues';
import { afterCatalogEdit, streamedChanges } from '@/lib/updates/resync';
import { invalidateCatalog } from './catalog';
import { missionColumns, missionFromRow, sameColumns } from './convert';
import { findCycle } from './put-catalog';
import { beginCatalogWrite, recordRelease } from './record-release';

/** Who acts (for the audit log) and when. */
export interface CatalogVerbContext {
  actor: string;
  now?: number;
}

function missionRecordFromRow(row: MissionRow): MissionRecord {
  return { ...missionFromRow(row), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

async function requireApp(appId: string): Promise<void> {
  if (!(await findApp(await getDb(), appId))) throw new AppError('app_not_found', `No app "${appId}"`);
}

function parseMission(input: unknown): Mission {
  const result = missionSchema.safeParse(input);
  if (!result.success) throw new AppError('validation_error', describeIssues(result.error));
  return result.data;
}

/** `%` and `_` are literal in a search box. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listMissionRecords(appId: string, query: MissionListQuery): Promise<MissionRecord[]> {
  await requireApp(appId);
  const where: SQL[] = [eq(missionsTable.appId, appId)];
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(or(ilike(missionsTable.id, pattern), ilike(missionsTable.title, pattern), ilike(missionsTable.description, pattern))!);
  }
  if (query.campaignId === 'none') where.push(sql`${missionsTable.campaignId} is null`);
  else if (query.campaignId) where.push(eq(missionsTable.campaignId, query.campaignId));
  if (query.status === 'live') where.push(eq(missionsTable.archived, false));
  if (query.status === 'archived') where.push(eq(missionsTable.archived, true));
  if (query.eventName) where.push(sql`${missionsTable.criteria}->>'eventName' = ${query.eventName}`);
  if (query.window) where.push(sql`coalesce(${missionsTable.criteria}->>'window', 'lifetime') = ${query.window}`);
  const db = await getDb();
  const rows = await db.select().from(missionsTable).where(and(...where)).orderBy(asc(missionsTable.id)).limit(CATALOG_LIMITS.missions);
  return rows.map(missionRecordFromRow);
}

async function findRow(tx: Tx | Awaited<ReturnType<typeof getDb>>, appId: string, id: string): Promise<MissionRow | null> {
  const [row] = await tx.select().from(missionsTable).where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, id)));
  return row ?? null;
}

export async function getMissionRecord(appId: string, id: string): Promise<MissionRecord> {
  await requireApp(appId);
  const row = await findRow(await getDb(), appId, id);
  if (!row) throw new AppError('mission_not_found', `No mission "${id}" in app "${appId}"`);
  return missionRecordFromRow(row);
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

async function insertMission(tx: Tx, appId: string, m: Mission, now: number): Promise<MissionRow> {
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

/** One transaction of the live catalog: the app's catalog lock first, the release last (lib/catalog/record-release.ts). */
async function committed<T>(appId: string, ctx: { actor: string; now: number }, work: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const before = await beginCatalogWrite(tx, appId);
    const value = await work(tx);
    await recordRelease(tx, { appId, before, actor: ctx.actor, now: ctx.now });
    return value;
  });
  await invalidateCatalog(appId);
  return result;
}

export async function createMission({ ctx, appId, input }: { ctx: CatalogVerbContext; appId: string; input: unknown }): Promise<MissionRecord> {
  await requireApp(appId);
  const m = parseMission(input);
  const now = ctx.now ?? Date.now();
  return committed(appId, { actor: ctx.actor, now }, async (tx) => {
    const row = await insertMission(tx, appId, m, now);
    await recordAudit(tx, { actor: ctx.actor, action: 'mission.create', appId, target: `mission:${m.id}`, before: null, after: m }, now);
    return missionRecordFromRow(row);
  });
}

/**
 * Writes `next` over the mission if it is still at `version` (when given);
 * answers the record after the write. Audited as `action`. A `next` equal to
 * the stored mission writes nothing and answers it at its current version.
 */
async function replaceMission(
  ctx: CatalogVerbContext,
  appId: string,
  id: string,
  version: number | undefined,
  action: string,
  change: (current: Mission) => Mission,
): Promise<MissionRecord> {
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  let streamed: string[] = [];
  const { record, changed } = await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    // FOR UPDATE: a concurrent writer waits, then sees the bumped version.
    const [current] = await tx
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
    if (sameColumns(missionColumns(next), missionColumns(before))) return { record: missionRecordFromRow(current), changed: false };
    await checkReferences(tx, appId, next);
    const [row] = await tx
      .update(missionsTable)
      .set({ ...missionColumns(next), updatedAt: now, version: current.version + 1 })
      .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, id), eq(missionsTable.version, current.version)))
      .returning();
    if (!row) throw staleVersion(id, current.version, current.version + 1);
    await recordAudit(tx, { actor: ctx.actor, action, appId, target: `mission:${id}`, before, after: next }, now);
    streamed = streamedChanges(new Map([[id, before]]), [next]);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
    return { record: missionRecordFromRow(row), changed: true };
  });
  if (changed) {
    await invalidateCatalog(appId);
    // The holders' streams get the mission's new reading (lib/updates/resync.ts).
    void afterCatalogEdit(appId, streamed, now);
  }
  return record;
}

export async function updateMission({
  ctx,
  appId,
  id,
  input,
}: {
  ctx: CatalogVerbContext;
  appId: string;
  id: string;
  input: { version: number; mission: unknown };
}): Promise<MissionRecord> {
  const raw = input.mission as Record<string, unknown>;
  const next = parseMission({ ...raw, id: raw.id ?? id });
  return replaceMission(ctx, appId, id, input.version, 'mission.update', () => next);
}

export async function setMissionArchived({
  ctx,
  appId,
  id,
  input,
}: {
  ctx: CatalogVerbContext;
  appId: string;
  id: string;
  input: { archived: boolean; version?: number };
}): Promise<MissionRecord> {
  return replaceMission(ctx, appId, id, input.version, input.archived ? 'mission.archive' : 'mission.unarchive', (current) => ({
    ...current,
    archived: input.archived,
  }));
}

/** A copy under a new id (default "<id>-copy", then "-copy-2"…), live even when the original is archived. */
export async function duplicateMission({
  ctx,
  appId,
  id,
  input,
}: {
  ctx: CatalogVerbContext;
  appId: string;
  id: string;
  input: { id?: string; title?: string };
}): Promise<MissionRecord> {
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  return committed(appId, { actor: ctx.actor, now }, async (tx) => {
    const source = await findRow(tx, appId, id);
    if (!source) throw new AppError('mission_not_found', `No mission "${id}" in app "${appId}"`);
    const original = missionFromRow(source);
    let copyId = input.id;
    if (!copyId) {
      const taken = new Set((await tx.select({ id: missionsTable.id }).from(missionsTable).where(eq(missionsTable.appId, appId))).map((r) => r.id));
      const base = `${id.slice(0, 55)}-copy`;
      copyId = base;
      for (let i = 2; taken.has(copyId); i++) copyId = `${base}-${i}`;
    }
    const copy = parseMission({ ...original, id: copyId, title: input.title ?? `${original.title} (copy)`.slice(0, 200), archived: false });
    const row = await insertMission(tx, appId, copy, now);
    await recordAudit(tx, { actor: ctx.actor, action: 'mission.duplicate', appId, target: `mission:${copy.id}`, before: null, after: { ...copy, duplicatedFrom: id } }, now);
    return missionRecordFromRow(row);
  });
}
