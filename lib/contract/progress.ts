// A user's progress on one mission, as /v1 and the stream carry it.
import { z } from 'zod';
import { streakProgressSchema } from './mission-aggregate';

export const progressStatusSchema = z.enum(['active', 'completed', 'claimed', 'locked']);
export type ProgressStatus = z.infer<typeof progressStatusSchema>;

export const missionProgressSchema = z.object({
  userId: z.string(),
  missionId: z.string(),
  status: progressStatusSchema,
  progress: z.number().min(0).max(1).describe('currentCount / targetCount, capped at 1'),
  currentCount: z.number().int().nonnegative(),
  targetCount: z.number().int().positive(),
  updatedAt: z.number(),
  streak: streakProgressSchema.optional().describe('Streak missions only'),
});
export type MissionProgress = z.infer<typeof missionProgressSchema>;
