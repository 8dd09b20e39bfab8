// A campaign's payout budgets as the console shows them: per currency, what
// its missions granted against the budget (a meter), the 80 % / 100 %
// alerts recorded and the claims the budget refused (from GET …/campaigns:
// budgetSpent, budgetAlerts, budgetRefusals).
import { Badge } from '@/components/ui/badge';
import { useNow } from '@/components/console/browser-store';
import { cn } from '@/lib/cn';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';

const number = new Intl.NumberFormat();

export interface BudgetRow {
  currency: string;
  amount: number;
  spent: number;
  /** The highest alert threshold recorded for the currency (80, 100), or null. */
  alert: number | null;
  /** Claims the budget refused: how many, the first and the last (null: none). */
  refused: { count: number; firstAt: number; lastAt: number } | null;
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const fullTime = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });
const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

/** A time in the reader's zone: "01:23" today, "28 Nov, 01:23" another day. */
function formatRefusalTime(ms: number, now: number): string {
  return sameDay(ms, now) ? timeOfDay.format(ms) : dayAndTime.format(ms);
}

/** "3 claims refused since 01:23". */
export function refusalText(refused: { count: number; firstAt: number }, now: number): string {
  return `${number.format(refused.count)} ${refused.count === 1 ? 'claim' : 'claims'} refused since ${formatRefusalTime(refused.firstAt, now)}`;
}

/** The claims a budget line refused, in the reader's zone; the full times on hover. */
function RefusalLine({ refused, className }: { refused: NonNullable<BudgetRow['refused']>; className?: string }) {
  const now = useNow();
  return (
    <p className={cn('text-xs text-destructive', className)} data-testid="budget-refusals" title={`First ${fullTime.format(refused.firstAt)}, last ${fullTime.format(refused.lastAt)}`}>
      <time dateTime={new Date(refused.firstAt).toISOString()}>{refusalText(refused, now)}</time>
    </p>
  );
}

/** One row per budget line of the campaign, with what was spent and its highest alert. */
export function budgetRows(c: Pick<CampaignRecord, 'budget' | 'budgetSpent' | 'budgetAlerts' | 'budgetRefusals'>): BudgetRow[] {
  return (c.budget ?? []).map(({ currency, amount }) => {
    const thresholds = (c.budgetAlerts ?? []).filter((a) => a.currency === currency).map((a) => a.threshold);
    const refused = (c.budgetRefusals ?? []).find((r) => r.currency === currency);
    return {
      currency,
      amount,
      spent: c.budgetSpent?.[currency] ?? 0,
      alert: thresholds.length ? Math.max(...thresholds) : null,
      refused: refused ? { count: refused.count, firstAt: refused.firstAt, lastAt: refused.lastAt } : null,
    };
  });
}

function BudgetAlertBadge({ row }: { row: BudgetRow }) {
  if (row.spent >= row.amount) return <Badge variant="destructive">{row.spent > row.amount ? 'Over budget' : 'Exhausted'}</Badge>;
  if (row.alert !== null) return <Badge variant="warning">{row.alert} % reached</Badge>;
  return null;
}

/** A labelled meter: "1,200 of 5,000 gems (24 %)". */
export function BudgetMeter({ row, campaignTitle, className }: { row: BudgetRow; campaignTitle: string; className?: string }) {
  const percent = row.amount > 0 ? Math.round((row.spent / row.amount) * 100) : 0;
  const tone = row.spent >= row.amount ? 'bg-destructive' : percent >= 80 ? 'bg-warning' : 'bg-primary';
  const text = `${number.format(row.spent)} of ${number.format(row.amount)} ${row.currency} (${percent} %)`;
  return (
    <div className={cn('space-y-1', className)}>
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="tabular-nums">{text}</span>
        <BudgetAlertBadge row={row} />
      </div>
      <div
        role="meter"
        aria-label={`${campaignTitle}: ${row.currency} budget spent`}
        aria-valuemin={0}
        aria-valuemax={row.amount}
        aria-valuenow={Math.min(row.spent, row.amount)}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full', tone)} style={{ width: `${Math.min(percent, 100)}%` }} />
      </div>
      {row.refused && <RefusalLine refused={row.refused} />}
    </div>
  );
}

/** Every budget line of a campaign, or a word that it has none. */
export function CampaignBudgets({ campaign }: { campaign: Pick<CampaignRecord, 'title' | 'budget' | 'budgetSpent' | 'budgetAlerts' | 'budgetRefusals'> }) {
  const rows = budgetRows(campaign);
  if (rows.length === 0) return <span className="text-sm text-muted-foreground">No budget</span>;
  return (
    <div className="min-w-48 space-y-2">
      {rows.map((row) => (
        <BudgetMeter key={row.currency} row={row} campaignTitle={campaign.title} />
      ))}
    </div>
  );
}
