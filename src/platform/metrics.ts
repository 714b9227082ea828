/** Prometheus metrics (prom-client) in one registry the app is given; names are stable. */
import { LRUCache } from 'lru-cache';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  liveCalls: Gauge;
  turns: Counter<'kind'>;
  turnLatency: Histogram<'kind'>;
  /** Turns by app and outcome (the document kind answered); apps past the label bound count as "other". */
  appTurns: Counter<'app' | 'outcome'>;
  /** The `app` label of an app: its id for the first APP_LABELS_MAX apps seen, then "other" (bounded series). */
  appLabel(streamId: string): string;
  agentNodeLatency: Histogram<'type'>;
  storeErrors: Counter<'operation'>;
  sandboxLinesInUse: Gauge<'app'>;
  rateLimited: Counter<'limiter'>;
  /** Webhook tokens refused, by reason (jwt.ts TOKEN_REFUSAL_REASONS): a platform with a stale or wrong token. */
  webhookTokenRefusals: Counter<'reason'>;
  /** Attempts at a credential refused without a comparison, their address being limited. */
  refusedGuesses: Counter<'credential'>;
  cacheHits: Counter<'cache'>;
  cacheMisses: Counter<'cache'>;
  /** Turn traces the inspector's batch writer wrote, and those it dropped (buffer full, a failed batch, or after close). */
  tracesWritten: Counter;
  tracesDropped: Counter;
  /** Store calls (round trips) by operation: counted only with BENCH_MODE (see store/counted-store.ts). */
  storeCalls: Counter<'operation'>;
  /**
   * A new lru-cache whose lookups (`get`) count as hits and misses of `name` on /metrics. The
   * composition root makes each cache (bounds from the config) and hands it to its user.
   */
  meteredCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
    name: string,
    options: LRUCache.Options<K, V, unknown>,
  ): LRUCache<K, V>;
}

/** Apps that get their own metric series per instance; the rest share "other", so a tenant count cannot blow up /metrics. */
export const APP_LABELS_MAX = 100;

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  const labelledApps = new Set<string>();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'ivr_gateway_' });
  // finer from 10 to 100 ms, where a loaded instance's turns lie: with few bounds there, a p99
  // between two of them was a guess
  const fast = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.075, 0.1, 0.15, 0.25,
    0.5, 1, 2.5, 5, 10,
  ];
  const cacheHits = new Counter({
    name: 'ivr_cache_hits_total',
    help: 'In-process cache lookups that found an entry, by cache',
    labelNames: ['cache'],
    registers: [registry],
  });
  const cacheMisses = new Counter({
    name: 'ivr_cache_misses_total',
    help: 'In-process cache lookups that found none, by cache',
    labelNames: ['cache'],
    registers: [registry],
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route', 'status'],
      buckets: fast,
      registers: [registry],
    }),
    liveCalls: new Gauge({
      name: 'ivr_live_calls',
      help: 'Calls with a live session handled by this instance since start (in store)',
      registers: [registry],
    }),
    turns: new Counter({
      name: 'ivr_turns_total',
      help: 'Webhook turns answered, by document kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    turnLatency: new Histogram({
      name: 'ivr_turn_duration_seconds',
      help: 'Server time per webhook turn, by document kind',
      labelNames: ['kind'],
      buckets: fast,
      registers: [registry],
    }),
    appTurns: new Counter({
      name: 'ivr_app_turns_total',
      help: 'Webhook turns by app (the first 100 apps seen by this instance; then "other") and outcome (document kind)',
      labelNames: ['app', 'outcome'],
      registers: [registry],
    }),
    appLabel: (streamId: string) => {
      if (labelledApps.has(streamId)) return streamId;
      if (labelledApps.size >= APP_LABELS_MAX) return 'other';
      labelledApps.add(streamId);
      return streamId;
    },
    agentNodeLatency: new Histogram({
      name: 'ivr_agent_node_duration_seconds',
      help: 'Agent step latency, by node type',
      labelNames: ['type'],
      buckets: fast,
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'ivr_store_errors_total',
      help: 'Store operations that failed',
      labelNames: ['operation'],
      registers: [registry],
    }),
    sandboxLinesInUse: new Gauge({
      name: 'ivr_sandbox_lines_in_use',
      help: 'Sandbox lines in use, by app',
      labelNames: ['app'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'ivr_rate_limited_total',
      help: 'Requests refused by a rate limit',
      labelNames: ['limiter'],
      registers: [registry],
    }),
    webhookTokenRefusals: new Counter({
      name: 'ivr_webhook_token_refusals_total',
      help: 'Webhook tokens refused, by reason (expired, bad_signature, wrong_app, missing_claim, not_yet_valid…)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    refusedGuesses: new Counter({
      name: 'ivr_refused_guesses_total',
      help: 'Attempts at a credential refused without a comparison (the address was limited), by credential',
      labelNames: ['credential'],
      registers: [registry],
    }),
    cacheHits,
    cacheMisses,
    tracesWritten: new Counter({
      name: 'ivr_traces_written_total',
      help: 'Turn traces written to the store by this instance (batched after the answer)',
      registers: [registry],
    }),
    tracesDropped: new Counter({
      name: 'ivr_traces_dropped_total',
      help: 'Turn traces this instance dropped: its buffer was full, a batch failed, or it was shutting down',
      registers: [registry],
    }),
    storeCalls: new Counter({
      name: 'ivr_store_calls_total',
      help: 'Store calls (round trips) by operation; counted only with BENCH_MODE',
      labelNames: ['operation'],
      registers: [registry],
    }),
    meteredCache: (name, options) => meteredCache(cacheHits, cacheMisses, name, options),
  };
}

function meteredCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  cacheHits: Counter<'cache'>,
  cacheMisses: Counter<'cache'>,
  name: string,
  options: LRUCache.Options<K, V, unknown>,
): LRUCache<K, V> {
  const hits = cacheHits.labels({ cache: name });
  const misses = cacheMisses.labels({ cache: name });
  // both series from the start, so /metrics lists every cache before its first lookup
  hits.inc(0);
  misses.inc(0);
  return new (class extends LRUCache<K, V> {
    override get(key: K, opts?: LRUCache.GetOptions<K, V, unknown>): V | undefined {
      const value = super.get(key, opts);
      (value === undefined ? misses : hits).inc();
      return value;
    }
  })(options);
}
