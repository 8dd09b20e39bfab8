// A closed-loop load driver on an undici pool: `connections` requests in
// flight, each one taken from `next()` until it answers null or the time is
// up. Latency is measured per request from send to the end of the body.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface Job {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Called with the status and body text; answers whether the reply counts as an error. */
  check?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** The first few error replies, for the report. */
  errorSamples: string[];
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** p99 (ms) of the requests sent in each 5 s of the run, in order: where in the run the slow ones were. */
  p99ByWindow: number[];
}

const WINDOW_MS = 5_000;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x: number) => Math.round(x * 10) / 10;
/** The numbers in ascending order (a numeric sort, not Array#sort's text order). */
const ascending = (xs: number[]): number[] => Array.from(Float64Array.from(xs).sort());

/** `sentAt`: each request's send time (ms from the run's start), when known, for the p99 by window. */
export function summarize(latencies: number[], errors: number, errorSamples: string[], seconds: number, sentAt: number[] = []): LoadResult {
  const arr = ascending(latencies);
  const windows: number[][] = [];
  sentAt.forEach((at, i) => (windows[Math.floor(at / WINDOW_MS)] ??= []).push(latencies[i]));
  const p99ByWindow = Array.from(windows, (w) => round(percentile(ascending(w ?? []), 99)));
  return {
    requests: latencies.length,
    errors,
    errorSamples,
    seconds: round(seconds),
    perSecond: Math.round(latencies.length / seconds),
    latencyMs: { p50: round(percentile(arr, 50)), p90: round(percentile(arr, 90)), p99: round(percentile(arr, 99)), max: round(arr.at(-1) ?? 0) },
    p99ByWindow,
  };
}

export async function runLoad(opts: { url: string; connections: number; seconds: number; next: () => Job | null }): Promise<LoadResult> {
  const pool = new Pool(opts.url, { connections: opts.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const sentAt: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + opts.seconds * 1000;
  const worker = async () => {
    for (;;) {
      if (performance.now() >= stopAt) return;
      const job = opts.next();
      if (job === null) return;
      const t0 = performance.now();
      let failed = false;
      let sample = '';
      try {
        const res = await pool.request({ method: job.method, path: job.path, headers: job.headers, body: job.body });
        const text = await res.body.text();
        failed = job.check ? job.check(res.statusCode, text) : res.statusCode >= 400;
        if (failed) sample = `${res.statusCode} ${text.slice(0, 200)}`;
      } catch (err) {
        failed = true;
        sample = String(err);
      }
      latencies.push(performance.now() - t0);
      sentAt.push(t0 - started);
      if (failed) {
        errors += 1;
        if (errorSamples.length < 5) errorSamples.push(sample);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return summarize(latencies, errors, errorSamples, seconds, sentAt);
}
