// POST …/missions/:missionId/duplicate: a copy under a new id (default
// "<id>-copy", then "-copy-2"…), live even when the original is archived;
// audited as mission.duplicate with its release, in one transaction.
import { eq } from 'drizzle-orm';
import { missions as missionsTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { missionFromRow } from '@/lib/catalog/convert';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { writeCatalog } from '../_shared/catalog-write';
import { findMissionRow, insertMission, missionRecordFromRow, parseMission } from '../_shared/missions';

export async function duplicateMission({ ctx, input }: { ctx: ServiceContext; input: { id: string; copy: { id?: string; title?: string } } }): Promise<MissionRecord> {
  const { appId } = ctx;
  const { id, copy: wanted } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const source = await findMissionRow(db, appId, id);
      if (!source) throw new AppError('mission_not_found', `No mission "${id}" in app "${appId}"`);
      const original = missionFromRow(source);
      let copyId = wanted.id;
      if (!copyId) {
        const taken = new Set((await db.select({ id: missionsTable.id }).from(missionsTable).where(eq(missionsTable.appId, appId))).map((r) => r.id));
        const base = `${id.slice(0, 55)}-copy`;
        copyId = base;
        for (let i = 2; taken.has(copyId); i++) copyId = `${base}-${i}`;
      }
      const copy = parseMission({ ...original, id: copyId, title: wanted.title ?? `${original.title} (copy)`.slice(0, 200), archived: false });
      const row = await insertMission(db, appId, copy, now);
      await recordAudit(db, { actor, action: 'mission.duplicate', appId, target: `mission:${copy.id}`, before: null, after: { ...copy, duplicatedFrom: id } }, now);
      return { value: missionRecordFromRow(row) };
    },
  });
  return value;
}
