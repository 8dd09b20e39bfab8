// The SDKUpdate messages of the live stream, as zod schemas (types, OpenAPI, SDK).
import { z } from 'zod';
import { missionProgressSchema, rewardSchema } from '@/lib/missions/schema';
import { balanceSchema } from '@/lib/balances/schema';

export const sdkUpdateSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('mission.progress'), data: missionProgressSchema }),
    z.object({ type: z.literal('mission.completed'), data: missionProgressSchema }),
    z.object({
      type: z.literal('reward.granted'),
      data: z.object({ userId: z.string(), missionId: z.string(), reward: rewardSchema }),
    }),
    z.object({ type: z.literal('balance.changed'), data: balanceSchema }),
    z.object({
      type: z.literal('recommendation'),
      data: z.object({ userId: z.string(), missionIds: z.array(z.string()), reason: z.string() }),
    }),
  ])
  .meta({ id: 'SDKUpdate' });
export type SdkUpdate = z.infer<typeof sdkUpdateSchema>;
