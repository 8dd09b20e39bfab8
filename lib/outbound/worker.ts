// The outbound-webhook worker: sends the outbox's due deliveries
// (webhook_deliveries, written with the changes they report) after commit.
// Kicked by the writer once its transaction committed; a failed attempt arms
// a timer for its retry's due time (so a retry is never later than its
// backoff says), and a periodic sweep catches anything else due (a row whose
// instance died before sending, a retry whose instance restarted).
//
// Across instances each delivery is sent by one at a time: a row is claimed
// with a lease (UPDATE … locked_until = now + lease over a SELECT … FOR UPDATE
// SKIP LOCKED of due, unleased rows), so another instance skips it until the
// lease lapses (the sender died: it is sent again, under the same id).
//
// One attempt: POST url with the body {id,type,appId,userId,createdAt,data}
// and Questline-Webhook-Id / -Timestamp / -Signature (`v1=` + hex
// HMAC-SHA256 of `${timestamp}.${body}`, lib/signature.ts);
// a 2xx within 10 s delivers it. Anything else is retried with exponential
// backoff and jitter (≤ 30 s, ≤ 2 min, ≤ 8 min, … capped at 6 h) for 24 h
// since it was written (or redelivered), then it is marked failed.
// Redirects are not followed; the address actually connected to is checked
// (lib/outbound/address.ts). Due times, leases and the 24 h are on the
// service clock (lib/clock.ts: the rows are written on it); the signed
// Questline-Webhook-Timestamp is the real clock (the receiver checks it).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import { dbIsOpen, type DbOrTx } from '@/db/client';
import { serviceNow } from '@/lib/clock';
import { metrics } from '@/lib/metrics';
import { logError } from '@/lib/log';
import { processWide } from '@/lib/process-wide';
import { computeSignature } from '@/lib/signature';
import { guardedLookup, hostOf, isPrivateAddress, privateAllowed, RefusedAddressError } from './address';

/** No answer within this: the attempt failed. */
const SEND_TIMEOUT_MS = 10_000;
/** A claimed row's lease: longer than an attempt can take. */
const LEASE_MS = SEND_TIMEOUT_MS + 20_000;
/** How long a delivery is retried (since written or redelivered) before it is marked failed. */
const DEFAULT_RETRY_FOR_MS = 24 * 3_600_000;
const DEFAULT_FIRST_RETRY_MS = 30_000;
const MAX_DELAY_MS = 6 * 3_600_000;
const DEFAULT_SWEEP_MS = 5_000;
const BATCH = 20;
/** The retry timer, armed again after it fired, waits at least this long. */
const REARM_MIN_MS = 100;

function envMs(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * Test-only knobs (docs/operations/README.md): QUESTLINE_TEST_OUTBOUND_BACKOFF_MS
 * replaces the 30 s of the first retry (each later one is 4× the one before;
 * the sweep then runs at that period too), QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS
 * the 24 h, QUESTLINE_TEST_OUTBOUND_SWEEP=0 turns the periodic sweep off (only
 * kicks and retry timers send), and QUESTLINE_TEST_OUTBOUND_HOLD=1 makes this
 * process write deliveries but never send them (a test kills it "between
 * commit and send").
 */
const firstRetryMs = () => envMs('QUESTLINE_TEST_OUTBOUND_BACKOFF_MS', DEFAULT_FIRST_RETRY_MS);
const retryForMs = () => envMs('QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS', DEFAULT_RETRY_FOR_MS);
const held = () => process.env.QUESTLINE_TEST_OUTBOUND_HOLD === '1';
const sweepOff = () => process.env.QUESTLINE_TEST_OUTBOUND_SWEEP?.trim() === '0';
const sweepMs = () => Math.min(DEFAULT_SWEEP_MS, firstRetryMs());

/** The delay before retry number `n` (1: the first retry): 30 s · 4^(n−1), capped at 6 h, times a jitter in [0.5, 1). */
export function retryDelayMs(n: number, random = Math.random()): number {
  const full = Math.min(firstRetryMs() * 4 ** Math.max(0, n - 1), MAX_DELAY_MS);
  return Math.max(1, Math.floor(full * (0.5 + random / 2)));
}

interface Claimed {
  id: string;
  app_id: string;
  user_id: string;
  type: string;
  data: unknown;
  attempts: number;
  created_at: string | number;
  retrying_since: string | number;
  locked_until: string | number;
  url: string | null;
  secret: string | null;
  deleted_at: string | number | null;
}

const state = processWide('outbound.worker', () => ({
  /** The process's database, handed in by start-up (lib/boot.ts: processDb) when it starts the sweep. */
  database: null as (() => Promise<DbOrTx>) | null,
  timer: null as ReturnType<typeof setInterval> | null,
  /** The sweeps running now (they end when nothing more was asked), or null. */
  sweeping: null as Promise<void> | null,
  again: false,
  /** The timer for the earliest retry this process knows is due (service clock), and that time. */
  retryTimer: null as ReturnType<typeof setTimeout> | null,
  retryAt: null as number | null,
}));

function rowsOf(result: unknown): Claimed[] {
  return ((result as { rows?: Claimed[] }).rows ?? (result as Claimed[])) as Claimed[];
}

/** Claims up to BATCH due deliveries for this instance (one statement). */
async function claimDue(db: DbOrTx, now: number): Promise<Claimed[]> {
  const lease = now + LEASE_MS;
  const result = await db.execute(sql`
    update webhook_deliveries d set locked_until = ${lease}::bigint
    from (select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${now}::bigint and (locked_until is null or locked_until <= ${now}::bigint)
          order by next_attempt_at limit ${BATCH} for update skip locked) due
    where d.id = due.id
    returning d.id, d.app_id, d.user_id, d.type, d.data, d.attempts, d.created_at, d.retrying_since, d.locked_until,
      (select url from webhook_endpoints e where e.id = d.endpoint_id) as url,
      (select secret from webhook_endpoints e where e.id = d.endpoint_id) as secret,
      (select deleted_at from webhook_endpoints e where e.id = d.endpoint_id) as deleted_at`);
  return rowsOf(result);
}

/** The exact bytes sent for a delivery (the same on every attempt). */
function notificationBody(row: { id: string; type: string; app_id: string; user_id: string; created_at: string | number; data: unknown }): string {
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as unknown) : row.data;
  return JSON.stringify({ id: row.id, type: row.type, appId: row.app_id, userId: row.user_id, createdAt: Number(row.created_at), data });
}

interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One POST: answered 2xx within the timeout, or why not. */
function post(url: string, headers: Record<string, string>, body: string, timeoutMs = SEND_TIMEOUT_MS): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, status: null, error: 'invalid URL' });
    }
    const host = hostOf(target);
    if (isIP(host) && !privateAllowed() && isPrivateAddress(host)) {
      return resolve({ ok: false, status: null, error: `refused: ${host} is a private address (OUTBOUND_WEBHOOK_ALLOW_PRIVATE is not set)` });
    }
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: guardedLookup as never },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `answered ${status}` }));
        res.on('error', (err) => done({ ok: false, status, error: err.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: `no answer within ${Math.round(timeoutMs / 1000)} s` });
    }, timeoutMs);
    req.on('error', (err) => done({ ok: false, status: null, error: err instanceof RefusedAddressError ? `refused: ${err.message}` : err.message }));
    req.end(body);
  });
}

async function attempt(db: DbOrTx, row: Claimed): Promise<void> {
  const lease = Number(row.locked_until);
  const attempts = row.attempts + 1;
  let result: AttemptResult;
  if (row.url === null || row.secret === null || row.deleted_at !== null) {
    result = { ok: false, status: null, error: 'the endpoint was deleted' };
  } else {
    const body = notificationBody(row);
    // The signature's timestamp is the real clock: the receiver checks it against its own.
    const timestamp = String(Date.now());
    const signature = `v1=${computeSignature(row.secret, timestamp, Buffer.from(body, 'utf8')).toString('hex')}`;
    result = await post(
      row.url,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Questline-Webhooks/1',
        'Questline-Webhook-Id': row.id,
        'Questline-Webhook-Timestamp': timestamp,
        'Questline-Webhook-Signature': signature,
      },
      body,
    );
  }
  const now = serviceNow();
  const gone = row.deleted_at !== null || row.url === null;
  if (result.ok) {
    await db.execute(sql`update webhook_deliveries set status = 'delivered', attempts = ${attempts}, last_status_code = ${result.status},
      last_error = null, next_attempt_at = null, locked_until = null, delivered_at = ${now}::bigint
      where id = ${row.id} and locked_until = ${lease}::bigint`);
    return;
  }
  const giveUp = gone || now - Number(row.retrying_since) >= retryForMs();
  const next = giveUp ? null : now + retryDelayMs(attempts);
  await db.execute(sql`update webhook_deliveries set status = ${giveUp ? 'failed' : 'pending'}, attempts = ${attempts},
    last_status_code = ${result.status}, last_error = ${result.error?.slice(0, 500) ?? null}, next_attempt_at = ${next}::bigint, locked_until = null
    where id = ${row.id} and locked_until = ${lease}::bigint`);
  if (next !== null) armRetry(next);
}

/**
 * Sends the retry due at `at` (service clock) at that time rather than at the
 * next sweep (up to 5 s later): one timer, for the earliest retry this process
 * knows of. When it fires, the sweeps send every due row; then the timer is
 * armed again for the earliest pending row nobody holds (any instance's:
 * whoever claims it first sends it).
 */
function armRetry(at: number): void {
  if (state.retryTimer && state.retryAt !== null && state.retryAt <= at) return;
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.retryAt = at;
  // + 1: a timer may fire within the millisecond before its time.
  state.retryTimer = setTimeout(() => void retryDue(), Math.max(0, at - serviceNow()) + 1);
  state.retryTimer.unref?.();
}

async function retryDue(): Promise<void> {
  state.retryTimer = null;
  state.retryAt = null;
  // A closed database (a test's server closed, shutdown) is not reopened.
  if (held() || !dbIsOpen() || !state.database) return;
  await runSweeps();
  if (!dbIsOpen()) return;
  try {
    const db = await state.database();
    const now = serviceNow();
    // Unleased: a row another instance holds is its to retry (its lease lapsing is the sweep's).
    const result = await db.execute(sql`select min(next_attempt_at) as at from webhook_deliveries
      where status = 'pending' and (locked_until is null or locked_until <= ${now}::bigint)`);
    const [next] = ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Array<{ at: string | number | null }>;
    // One already due (it fell due while the sweeps ran, or their claim failed): shortly, never in a tight loop.
    if (next?.at !== null && next?.at !== undefined) armRetry(Math.max(Number(next.at), serviceNow() + REARM_MIN_MS));
  } catch (err) {
    logError('outbound webhook retry timer failed', err); // the sweep still sends it
  }
}

async function sweepOnce(): Promise<void> {
  if (!state.database) return;
  const db = await state.database();
  for (;;) {
    const rows = await claimDue(db, serviceNow());
    if (rows.length === 0) return;
    await Promise.all(
      rows.map((row) => attempt(db, row).catch((err: unknown) => logError('outbound webhook attempt failed', err))),
    );
    if (rows.length < BATCH) return;
  }
}

/** Runs sweeps until nothing more is asked (a kick during a sweep runs one more); resolves when they end. */
function runSweeps(): Promise<void> {
  if (held()) return Promise.resolve();
  if (state.sweeping) {
    state.again = true;
    return state.sweeping;
  }
  state.sweeping = (async () => {
    try {
      do {
        state.again = false;
        try {
          await sweepOnce();
        } finally {
          // Finished, sent or not: a test proves "nothing more was sent" by whole sweeps after its count.
          metrics().outboundSweeps.inc();
        }
      } while (state.again);
    } catch (err) {
      logError('outbound webhook sweep failed', err);
    } finally {
      state.sweeping = null;
    }
  })();
  return state.sweeping;
}

/**
 * Starts the periodic sweep of this process (idempotent; never holds the
 * process open) on `database` (start-up's processDb; a kick before start-up
 * sends nothing until it is given).
 */
export function startOutbound(database?: () => Promise<DbOrTx>): void {
  if (database) state.database = database;
  if (state.timer || sweepOff()) return;
  // A closed database (a test's server closed, shutdown) is not reopened by the sweep.
  state.timer = setInterval(() => {
    if (dbIsOpen()) void runSweeps();
  }, sweepMs());
  state.timer.unref?.();
}

/** After a commit that wrote deliveries: send them now (and make sure the sweep runs). */
export function kickOutbound(): void {
  startOutbound();
  void runSweeps();
}
