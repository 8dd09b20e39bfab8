import type { CampaignInput } from '@/lib/contract/campaign';
import type { MissionInput } from '@/lib/contract/mission';

export interface CatalogInput {
  missions?: MissionInput[];
  campaigns?: CampaignInput[];
}
