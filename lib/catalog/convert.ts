// Row ↔ domain conversions for missions and campaigns.
import type { CampaignRow, MissionRow } from '@/db/schema';
import type { Campaign, Mission } from '@/lib/missions/schema';

export function missionFromRow(row: MissionRow): Mission {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    criteria: row.criteria,
    reward: row.reward,
    campaignId: row.campaignId,
    expiresAt: row.expiresAt,
    iconUrl: row.iconUrl,
    prerequisites: row.prerequisites,
    archived: row.archived,
  };
}

export function campaignFromRow(row: CampaignRow, missionIds: string[]): Campaign {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    startAt: row.startAt,
    endAt: row.endAt,
    missionIds,
    ...(row.theme ? { theme: row.theme } : {}),
    bannerUrl: row.bannerUrl,
    archived: row.archived,
  };
}

/** The public Mission of the spec (plus prerequisites); archived is internal. */
export function publicMission(m: Mission) {
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    criteria: m.criteria,
    reward: m.reward,
    campaignId: m.campaignId,
    expiresAt: m.expiresAt,
    iconUrl: m.iconUrl,
    prerequisites: m.prerequisites,
  };
}

export function publicCampaign(c: Campaign) {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    startAt: c.startAt,
    endAt: c.endAt,
    missionIds: c.missionIds,
    ...(c.theme ? { theme: c.theme } : {}),
    bannerUrl: c.bannerUrl,
  };
}
