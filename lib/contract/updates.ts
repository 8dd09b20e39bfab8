// The messages of the live stream (GET /v1/sse/updates): `{type, data}`.
import { z } from 'zod';
import { balanceSchema } from './balance';
import { shownRewardSchema } from './mission';
import { missionProgressSchema } from './progress';

const rewardGrantedSchema = z.object({ userId: z.string(), missionId: z.string(), reward: shownRewardSchema });
const recommendationUpdateSchema = z.object({ userId: z.string(), missionIds: z.array(z.string()), reason: z.string() });

export const sdkUpdateSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('mission.progress'), data: missionProgressSchema }),
  z.object({ type: z.literal('mission.completed'), data: missionProgressSchema }),
  z.object({ type: z.literal('reward.granted'), data: rewardGrantedSchema }),
  z.object({ type: z.literal('balance.changed'), data: balanceSchema }),
  z.object({ type: z.literal('recommendation'), data: recommendationUpdateSchema }),
]);
export type SdkUpdate = z.infer<typeof sdkUpdateSchema>;
