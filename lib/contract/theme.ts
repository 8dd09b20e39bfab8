// The look of a campaign as clients receive it. Named presets per app (a
// theme entity of the catalog) resolve to this object.
import { z } from 'zod';

export const themeSchema = z
  .object({ primaryColor: z.string().min(1).max(64).describe('A CSS color') })
  .loose()
  .describe('Campaign theme: primaryColor plus any fields the app uses');
export type Theme = z.infer<typeof themeSchema>;
