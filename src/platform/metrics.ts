/** Prometheus metrics (prom-client) in one registry the app is given; names are stable. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  liveCalls: Gauge;
  turns: Counter<'kind'>;
  turnLatency: Histogram<'kind'>;
  agentNodeLatency: Histogram<'type'>;
  storeErrors: Counter<'operation'>;
  sandboxLinesInUse: Gauge<'app'>;
  rateLimited: Counter<'limiter'>;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'ivr_gateway_' });
  // finer from 10 to 100 ms, where a loaded instance's turns lie: with only 25/50/100 ms, a p99
  // between two bounds was a guess (the bench's server-side p99 stuck just under 50 ms)
  const fast = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    httpDuration: new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['method', 'route', 'status'], buckets: fast, registers: [registry] }),
    liveCalls: new Gauge({ name: 'ivr_live_calls', help: 'Calls with a live session handled by this instance since start (in store)', registers: [registry] }),
    turns: new Counter({ name: 'ivr_turns_total', help: 'Webhook turns answered, by document kind', labelNames: ['kind'], registers: [registry] }),
    turnLatency: new Histogram({ name: 'ivr_turn_duration_seconds', help: 'Server time per webhook turn, by document kind', labelNames: ['kind'], buckets: fast, registers: [registry] }),
    agentNodeLatency: new Histogram({ name: 'ivr_agent_node_duration_seconds', help: 'Agent step latency, by node type', labelNames: ['type'], buckets: fast, registers: [registry] }),
    storeErrors: new Counter({ name: 'ivr_store_errors_total', help: 'Store operations that failed', labelNames: ['operation'], registers: [registry] }),
    sandboxLinesInUse: new Gauge({ name: 'ivr_sandbox_lines_in_use', help: 'Sandbox lines in use, by app', labelNames: ['app'], registers: [registry] }),
    rateLimited: new Counter({ name: 'ivr_rate_limited_total', help: 'Requests refused by a rate limit', labelNames: ['limiter'], registers: [registry] }),
  };
}
