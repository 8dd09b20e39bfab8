// The look of a campaign. Clients receive the `theme` object; staff author
// named presets per app (the theme entity of the catalog) that a campaign
// references by `themeId`, and the preset resolves to that object.
import { z } from 'zod';
import { idSchema } from './common';
import { CSS_COLOR_MESSAGE, isCssColor } from './css-color';

/** A CSS colour (it reaches the console's CSS): hex, rgb()/hsl()/oklch()… with numbers, or a named colour. */
const cssColorSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isCssColor, { message: CSS_COLOR_MESSAGE })
  .describe('A CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch() with numbers, or a named colour')
  .meta({ examples: ['#7c3aed', 'rgb(124 58 237)', 'rebeccapurple'] });

export const themeSchema = z
  .object({
    primaryColor: cssColorSchema,
    accentColor: cssColorSchema.optional(),
    backgroundColor: cssColorSchema.optional(),
    textColor: cssColorSchema.optional(),
  })
  .loose()
  .describe('Campaign theme: primaryColor (and optionally accentColor, backgroundColor, textColor), CSS colours, plus any other fields the app uses');
export type Theme = z.infer<typeof themeSchema>;

/** A colour as the console's picker writes it: #rgb or #rrggbb. */
const hexColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #7c3aed');

/** The colours of a preset, in the order /v1 answers them; every one but primaryColor optional. */
export const THEME_COLOR_FIELDS = ['primaryColor', 'accentColor', 'backgroundColor', 'textColor'] as const;
export type ThemeColorField = (typeof THEME_COLOR_FIELDS)[number];

/** A named theme preset of an app, as authored (catalog document `themes`, admin API, console form). */
export const themePresetSchema = z.object({
  id: idSchema,
  name: z.string().trim().min(1, 'Enter a name').max(100),
  primaryColor: hexColorSchema.describe('Buttons, progress bars, highlights'),
  accentColor: hexColorSchema.optional().describe('Secondary highlights, badges'),
  backgroundColor: hexColorSchema.optional().describe('Card or screen background'),
  textColor: hexColorSchema.optional().describe('Text on the background colour'),
});
export type ThemePreset = z.output<typeof themePresetSchema>;
export type ThemePresetInput = z.input<typeof themePresetSchema>;

/** The `theme` object /v1 answers for a campaign using a preset: its colours only. */
export function themeOfPreset(preset: ThemePreset): Theme {
  const out: Record<string, string> = {};
  for (const field of THEME_COLOR_FIELDS) {
    const value = preset[field];
    if (value !== undefined) out[field] = value;
  }
  return out as Theme;
}
