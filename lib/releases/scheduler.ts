// The scheduled publish poller: every RELEASE_POLL_MS (default 1 s) each
// instance publishes the drafts whose scheduled time has come
// (lib/services/drafts/publish-due.ts claims each in its own transaction, so
// one instance of many publishes it, once). The schedule is a database row:
// a restart of every instance loses nothing, and the first poll after it
// publishes what fell due meanwhile.
import { dbIsOpen } from '@/db/client';
import { serviceNow } from '@/lib/clock';
import { logger } from '@/lib/log';
import { outageLog } from '@/lib/log-outage';
import { metrics } from '@/lib/metrics';
import { processWide } from '@/lib/process-wide';
import { processServiceDeps } from '@/lib/service-deps';
import { publishDueDrafts, type DuePublish } from '@/lib/services/drafts/publish-due';
import type { ServiceContext } from '@/lib/services/context';

const DEFAULT_POLL_MS = 1_000;

/** RELEASE_POLL_MS (100 to 60000), else 1 s; 0 turns the poller off in this process. */
function releasePollMs(): number {
  const raw = process.env.RELEASE_POLL_MS?.trim();
  if (raw === '0') return 0;
  const ms = raw ? Number(raw) : NaN;
  return Number.isInteger(ms) && ms >= 100 && ms <= 60_000 ? ms : DEFAULT_POLL_MS;
}

// Polled every second: one line when polls start failing (database away), one when they work again.
const pollOutage = outageLog('releases.poll', 'scheduled release poll');

const state = processWide('releases.scheduler', () => ({ timer: null as ReturnType<typeof setInterval> | null, running: false }));

/** The system's context for the poller (the app is each due draft's own). */
async function systemContext(): Promise<ServiceContext> {
  return { appId: '', actor: { kind: 'system', id: 'scheduler', role: null }, now: serviceNow, requestId: 'release-scheduler', deps: await processServiceDeps() };
}

/** One poll: the due drafts published (answered for tests and logs). */
async function pollScheduledReleases(): Promise<DuePublish[]> {
  const published = await publishDueDrafts({ ctx: await systemContext() });
  for (const p of published) logger().info({ appId: p.appId, release: p.release, scheduledAt: p.scheduledAt, lateMs: p.publishedAt - p.scheduledAt }, 'scheduled release published');
  return published;
}

/** Starts this process's poller (idempotent). */
export function startReleaseScheduler(): void {
  const ms = releasePollMs();
  if (ms === 0 || state.timer !== null) return;
  state.timer = setInterval(() => {
    // Not while the database is closed (a test server's close, the started test template's exit): a poll would reopen it.
    if (state.running || !dbIsOpen()) return;
    state.running = true;
    void pollScheduledReleases()
      .then(() => {
        pollOutage.recovered();
        metrics().releasePolls.inc({ result: 'ok' });
      })
      .catch((err: unknown) => {
        pollOutage.failed(err);
        metrics().releasePolls.inc({ result: 'failed' });
      })
      .finally(() => (state.running = false));
  }, ms);
  state.timer.unref?.();
}
