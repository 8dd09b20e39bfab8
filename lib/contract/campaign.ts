// The campaign entity: a time-bounded group of missions, as authored and as
// /v1 answers it. Its missionIds are derived from the missions naming it. Its
// look is a theme preset of the app (`themeId`) or its own `theme`, not both;
// /v1 answers the resolved `theme` object either way.
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { audienceSchema } from './mission';
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
  themeId: idSchema.optional().describe('A theme preset of the app (catalog `themes`); exclusive with `theme`'),
  audience: audienceSchema.optional().describe('Who the campaign exists for (a filter over user attributes, as a mission audience); a user outside it sees none of its missions'),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** The checks beyond the fields: the campaign ends after it starts; a preset or its own theme, not both. */
export function checkCampaign(c: { startAt: number; endAt: number; theme?: unknown; themeId?: unknown }, ctx: z.RefinementCtx): void {
  if (!(c.endAt > c.startAt)) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be after startAt' });
  if (c.theme !== undefined && c.themeId !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['themeId'], message: 'give a theme preset (themeId) or an own theme, not both' });
  }
}

/** A campaign as a form or the catalog document writes it (the checks above included). */
export const campaignFormSchema = campaignSchema.superRefine(checkCampaign);

/** A campaign as /v1 answers it (missionIds always present; `archived` internal; `themeId` resolved into `theme`). */
export const publicCampaignSchema = campaignSchema.omit({ archived: true, themeId: true, audience: true }).extend({ missionIds: z.array(idSchema) });
export type PublicCampaign = z.output<typeof publicCampaignSchema>;

/** A stored campaign; missionIds is derived from the missions that name it. */
export type Campaign = Omit<z.output<typeof campaignSchema>, 'missionIds'> & { missionIds: string[] };
