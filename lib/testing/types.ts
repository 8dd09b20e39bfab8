import type { CampaignInput, MissionInput } from '@/lib/missions/schema';

export interface CatalogInput {
  missions?: MissionInput[];
  campaigns?: CampaignInput[];
}
