// The demo app's catalog: one campaign and missions that show every feature
// (windows, a filter, a prerequisite, currency, item and badge rewards), so
// the quickstart's walkthrough (docs/quickstart.md) works on a fresh start.
import type { CampaignInput } from '@/lib/contract/campaign';
import type { MissionInput } from '@/lib/contract/mission';

const DAY = 24 * 60 * 60 * 1000;

export function demoCatalog(now: number): { missions: MissionInput[]; campaigns: CampaignInput[] } {
  return {
    campaigns: [
      {
        id: 'launch-week',
        title: 'Launch Week',
        description: 'Celebrate the launch: win ranked matches for a limited-time skin.',
        startAt: now - DAY,
        endAt: now + 30 * DAY,
        theme: { primaryColor: '#7c3aed' },
        bannerUrl: 'https://example.com/banners/launch-week.png',
      },
    ],
    missions: [
      {
        id: 'first-match',
        title: 'First match',
        description: 'Play your first match.',
        criteria: { eventName: 'match_played', count: 1, window: 'lifetime' },
        reward: { kind: 'currency', currency: 'gems', amount: 50 },
      },
      {
        id: 'daily-three',
        title: 'Daily grind',
        description: 'Play three matches today (resets at midnight in your time zone, or at 00:00 UTC when you have none).',
        criteria: { eventName: 'match_played', count: 3, window: 'daily' },
        reward: { kind: 'currency', currency: 'coins', amount: 100 },
      },
      {
        id: 'ranked-ace',
        title: 'Ranked ace',
        description: 'Win two ranked matches with a score of 1000 or more.',
        criteria: { eventName: 'match_won', count: 2, window: 'lifetime', filter: { mode: 'ranked', score: { gte: 1000 } } },
        reward: { kind: 'item', itemId: 'launch-skin', quantity: 1 },
        campaignId: 'launch-week',
      },
      {
        id: 'weekly-veteran',
        title: 'Weekly veteran',
        description: 'After your first match, play ten matches in one week.',
        criteria: { eventName: 'match_played', count: 10, window: 'weekly' },
        reward: { kind: 'badge', badgeId: 'veteran' },
        prerequisites: ['first-match'],
      },
      {
        id: 'monthly-collector',
        title: 'Collector of the month',
        description: 'Open twenty chests this month.',
        criteria: { eventName: 'chest_opened', count: 20, window: 'monthly' },
        reward: { kind: 'currency', currency: 'coins', amount: 500 },
        campaignId: 'launch-week',
      },
    ],
  };
}
