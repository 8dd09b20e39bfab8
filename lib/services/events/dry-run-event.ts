// A test event's dry run: the verdict the criteria engine would give it now on
// every mission (not archived) of the catalog, against the player's stored
// records. Nothing is stored, published, counted or audited. The event's time
// is bounded as a recorded test event's is (lib/events/event-time.ts).
import type { DryRunResult } from '@/lib/contract/desk';
import type { InspectorVerdict } from '@/lib/contract/inspector';
import { checkEventTime } from '@/lib/events/event-time';
import { claimedMissionIds, explainEvent, missionLock } from '@/lib/missions/engine';
import type { EngineEvent } from '@/lib/missions/schema';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';

export async function dryRunEvent({ ctx, input }: { ctx: ServiceContext; input: { event: EngineEvent } }): Promise<DryRunResult> {
  const { event } = input;
  checkEventTime(event.timestamp, ctx.now(), 'test');
  const catalog = await ctx.deps.catalog(ctx.appId);
  const records = await readRecords(ctx.deps.db, ctx.appId, event.userId);
  const attributes = await readAttributes(ctx.deps.db, ctx.appId, event.userId);
  const zone = zoneOf(attributes);
  const claimed = claimedMissionIds(records.values());
  const now = ctx.now();
  const verdicts: InspectorVerdict[] = [];
  const missionsUpdated: string[] = [];
  for (const mission of catalog.ordered) {
    if (mission.archived) continue;
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const lock = missionLock({ mission, campaign, claimedMissionIds: claimed, now });
    const { verdict } = explainEvent({ mission, campaign, record: records.get(mission.id) ?? null, event, lock, now, zone, attributes });
    verdicts.push({ missionId: mission.id, ...verdict } as InspectorVerdict);
    if (verdict.counted) missionsUpdated.push(mission.id);
  }
  return { dryRun: true, missionsUpdated, verdicts };
}
