// Prometheus metrics (prom-client), served by GET /api/metrics behind the admin
// key. One registry per process in a process-wide slot: Next.js bundles each
// route into its own chunk, and a registry per chunk would count each route
// alone (and register the process metrics twice).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processWide } from './process-wide';

/** Connection pool figures of the database driver (node-postgres or Neon); null for PGlite. */
interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The pipelined connections' counts since start (db/pipeline-lane.ts); null without them. */
interface PipelineStats {
  /** Statements run on a pipelined connection. */
  run: number;
  /** Statements sent to the pool because every pipelined connection was full, resting or could not be connected. */
  overflow: number;
  reconnects: number;
  /** Connections open or being opened now. */
  connections: number;
}

interface Sources {
  openStreams: () => number;
  pool: () => PoolStats | null;
  pipeline: () => PipelineStats | null;
}

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'questline_' });
  const sources: Sources = { openStreams: () => 0, pool: () => null, pipeline: () => null };
  const metrics = {
    registry,
    sources,
    requests: new Counter({
      name: 'questline_http_requests_total',
      help: 'HTTP requests answered by the route table, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'questline_http_request_duration_seconds',
      help: 'Time to the response head (streams: to their first byte), by route pattern and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    eventsIngested: new Counter({
      name: 'questline_events_ingested_total',
      help: 'Events stored (not replays), by source: api (POST /v1/events) or webhook',
      labelNames: ['source'] as const,
      registers: [registry],
    }),
    claims: new Counter({
      name: 'questline_claims_total',
      help: 'Claim answers, by outcome: granted (first claim), replayed, or refused (the error code)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    streamOrderWaits: new Counter({
      name: 'questline_stream_order_waits_total',
      help: "A change's stream message that had to wait for an earlier change of the user (its publisher had not reached the log yet, or the order state had expired)",
      registers: [registry],
    }),
    busErrors: new Counter({
      name: 'questline_bus_errors_total',
      help: 'Pub/sub failures (publish, subscribe, listener), by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    updateLogErrors: new Counter({
      name: 'questline_update_log_errors_total',
      help: 'Failed or timed-out reads of the stream update log',
      registers: [registry],
    }),
    budgetAlerts: new Counter({
      name: 'questline_budget_alerts_total',
      help: 'Campaign budget alerts (budget.alert) recorded by this process: a grant took a campaign to 80 or 100 % of its budget of a currency (each once per campaign, currency and threshold over all instances)',
      labelNames: ['app', 'campaign', 'currency', 'threshold'] as const,
      registers: [registry],
    }),
    releasePolls: new Counter({
      name: 'questline_release_polls_total',
      help: 'Scheduled-release polls this process has finished (lib/releases/scheduler.ts), by result: ok or failed',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    outboundSweeps: new Counter({
      name: 'questline_outbound_sweeps_total',
      help: 'Outbound-webhook sweeps this process has finished (each claims the due deliveries and sends them)',
      registers: [registry],
    }),
    claimsRefused: new Counter({
      name: 'questline_claims_refused_total',
      help: 'Claims refused by this process because the campaign\'s budget of the reward\'s currency was spent (409 budget_exhausted), by app, campaign and currency; a retry under the same Idempotency-Key is not counted again',
      labelNames: ['app', 'campaign', 'currency'] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'questline_rate_limit_rejections_total',
      help: 'Requests refused with 429, by error code (rate_limited, too_many_streams)',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'questline_sse_open_streams',
    help: 'Update streams open in this process',
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: 'questline_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting clients, max); absent on the embedded database',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const stats = sources.pool();
      if (!stats) return;
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, stats[state]);
    },
  });
  new Gauge({
    name: 'questline_db_pipeline_connections',
    help: 'Pipelined connections open (or being opened) beside the pool, which the pool gauge does not count; 0 without pipelined connections',
    registers: [registry],
    collect() {
      this.reset();
      const stats = sources.pipeline();
      if (stats) this.set(stats.connections);
    },
  });
  new Counter({
    name: 'questline_db_pipelined_statements_total',
    help: 'Claim statements by where they ran: a pipelined connection, or the pool when every pipelined one was full or could not be connected; absent without pipelined connections',
    labelNames: ['connection'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const stats = sources.pipeline();
      if (!stats) return;
      this.inc({ connection: 'pipelined' }, stats.run);
      this.inc({ connection: 'pool' }, stats.overflow);
    },
  });
  new Counter({
    name: 'questline_db_pipeline_reconnects_total',
    help: 'Pipelined connections made again after one was lost, timed out or could not be made (failed attempts not counted); 0 without pipelined connections',
    registers: [registry],
    collect() {
      this.reset();
      const stats = sources.pipeline();
      if (stats) this.inc(stats.reconnects);
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's metrics (one registry per process, whichever Next.js chunk asks). */
export function metrics(): Metrics {
  return processWide('metrics', createMetrics);
}
