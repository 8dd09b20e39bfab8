// A scheduled release as staff read it: a snapshot of the draft taken when it
// was scheduled, with what it holds and the draft's edits made since (not in it).
import { CatalogChanges } from '@/components/console/catalog-changes';
import { formatDateTime } from '@/components/console/format';
import type { ScheduledRelease } from '@/lib/contract/release';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Release 4 is scheduled for … with 3 changes; 1 change since is not in it." */
function scheduledSentence(s: ScheduledRelease): string {
  const since = s.changesSince.length;
  const tail = since === 0 ? 'no change since.' : `${count(since, 'change since is', 'changes since are')} not in it.`;
  return `Release ${s.release} is scheduled for ${formatDateTime(s.scheduledAt)} with ${count(s.changes.length, 'change', 'changes')}; ${tail}`;
}

export function ScheduledReleaseSummary({ schedule }: { schedule: ScheduledRelease }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm" data-testid="scheduled-summary">
        {scheduledSentence(schedule)} Scheduled by {schedule.scheduledBy}.
      </p>
      <div className="grid gap-1.5">
        <h3 className="text-sm font-medium">In release {schedule.release}</h3>
        <CatalogChanges changes={schedule.changes} label={`In scheduled release ${schedule.release}`} />
      </div>
      {schedule.changesSince.length > 0 && (
        <div className="grid gap-1.5">
          <h3 className="text-sm font-medium">Edited since: not in it, stays in the draft for the next release</h3>
          <CatalogChanges changes={schedule.changesSince} label="Changes since it was scheduled" />
        </div>
      )}
    </div>
  );
}
