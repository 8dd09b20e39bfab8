// The campaign entity: a time-bounded group of missions, as authored and as
// /v1 answers it. Its missionIds are derived from the missions naming it.
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { themeSchema } from './theme';

/** A campaign as authored and stored; `missionIds`, when given, must match the missions that name it. */
export const campaignSchema = z.object({
  id: idSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).default(''),
  startAt: timestampSchema,
  endAt: z.number().int().positive(),
  missionIds: z.array(idSchema).optional(),
  theme: themeSchema.optional(),
  bannerUrl: z.string().max(2048).default(''),
  archived: z.boolean().default(false),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** What a form checks beyond the fields: the campaign ends after it starts. */
export const campaignFormSchema = campaignSchema.refine((c) => c.endAt > c.startAt, {
  path: ['endAt'],
  message: 'must be after startAt',
});

/** A campaign as /v1 answers it (missionIds always present, `archived` internal). */
export const publicCampaignSchema = campaignSchema.omit({ archived: true }).extend({ missionIds: z.array(idSchema) });
export type PublicCampaign = z.output<typeof publicCampaignSchema>;

/** A stored campaign; missionIds is derived from the missions that name it. */
export type Campaign = Omit<z.output<typeof campaignSchema>, 'missionIds'> & { missionIds: string[] };
