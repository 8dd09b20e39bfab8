// POST …/missions: a new mission, validated by missionSchema (400), its
// references checked, audited as mission.create with its release, in one
// transaction (409 conflict when the id is taken).
import type { Mission } from '@/lib/contract/mission';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';
import { recordAudit } from '@/lib/audit';
import { writeCatalog } from '../_shared/catalog-write';
import { insertMission, missionRecordFromRow } from '../_shared/missions';

/** `input`: the mission as missionSchema parsed it. */
export async function createMission({ ctx, input: m }: { ctx: ServiceContext; input: Mission }): Promise<MissionRecord> {
  const { appId } = ctx;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const row = await insertMission(db, appId, m, now);
      await recordAudit(db, { actor, action: 'mission.create', appId, target: `mission:${m.id}`, before: null, after: m }, now);
      return { value: missionRecordFromRow(row) };
    },
  });
  return value;
}
