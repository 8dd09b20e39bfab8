// How the draft's review reads one changed field: "Reward: 100 coins → 10,000
// coins", "Target count: 5 → 3", "Budget (gems): — → 50". Pure, shared by the
// console's review and its tests.
import type { FieldChange } from '@/lib/contract/release';

const LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  reward: 'Reward',
  rewards: 'Rewards',
  'criteria.count': 'Target count',
  'criteria.eventName': 'Event',
  'criteria.window': 'Window',
  'criteria.filter': 'Filter',
  campaignId: 'Campaign',
  expiresAt: 'Expires',
  startAt: 'Starts',
  endAt: 'Ends',
  archived: 'Archived',
  prerequisites: 'Prerequisites',
  audience: 'Audience',
  iconUrl: 'Icon',
  bannerUrl: 'Banner',
  themeId: 'Theme preset',
  theme: 'Theme',
};
const TIMES = new Set(['expiresAt', 'startAt', 'endAt']);

const words = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function fieldLabel(path: string): string {
  if (LABELS[path]) return LABELS[path];
  if (path.startsWith('budget.')) return `Budget (${path.slice('budget.'.length)})`;
  const text = path.split('.').map(words).join(' › ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type RewardLike = { kind?: string; currency?: string; amount?: number; itemId?: string; quantity?: number; badgeId?: string };

const num = (n: number) => n.toLocaleString('en-US');

function rewardText(r: RewardLike): string {
  if (r.kind === 'currency') return `${num(r.amount ?? 0)} ${r.currency}`;
  if (r.kind === 'item') return `${num(r.quantity ?? 1)} × ${r.itemId}`;
  if (r.kind === 'badge') return `${r.badgeId} badge`;
  return JSON.stringify(r);
}

/** One value as the review shows it; `formatTime` for the timestamps (the console's local format). */
function fieldValue(path: string, value: unknown, formatTime: (ms: number) => string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (TIMES.has(path) && typeof value === 'number') return formatTime(value);
  if ((path === 'reward' || path.endsWith('.reward')) && typeof value === 'object') return rewardText(value as RewardLike);
  if (path === 'rewards' && Array.isArray(value)) return (value as RewardLike[]).map(rewardText).join(' + ');
  if (typeof value === 'number') return num(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.length === 0 ? '—' : value.join(', ');
  return JSON.stringify(value);
}

/** "Reward: 100 coins → 10,000 coins". */
export function fieldChangeText(f: FieldChange, formatTime: (ms: number) => string): string {
  return `${fieldLabel(f.path)}: ${fieldValue(f.path, f.before, formatTime)} → ${fieldValue(f.path, f.after, formatTime)}`;
}
