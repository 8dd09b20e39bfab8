import type { CampaignInput } from '@/lib/contract/campaign';
import type { MissionInput } from '@/lib/contract/mission';
import type { ThemePresetInput } from '@/lib/contract/theme';

export interface CatalogInput {
  missions?: MissionInput[];
  campaigns?: CampaignInput[];
  themes?: ThemePresetInput[];
}
