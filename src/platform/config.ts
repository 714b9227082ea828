/**
 * Configuration from the environment, validated once at start-up. A bad value stops the process
 * with a message naming the variable. `loadConfig` never reads anything but the map it is given.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Express's `trust proxy` setting: off, on for any address, a hop count, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string): boolean => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): TrustProxy => {
    if (['true', 'yes'].includes(v)) return true;
    if (['false', 'no', '0'].includes(v)) return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = list.filter((e) => !isProxyAddress(e));
    if (list.length && !bad.length) return list;
    ctx.addIssue({
      code: 'custom',
      message: `true, false, a hop count, or the proxies' addresses or subnets (loopback, 10.0.0.0/8, …); not ${bad.join(', ') || 'empty'}`,
    });
    return z.NEVER;
  });

// --- the edge's security settings (sec-edge): who may guess, who may read /metrics ---
const isSubnet = (entry: string): boolean => !PROXY_NAMES.has(entry) && isProxyAddress(entry);
const subnets = z
  .string()
  .trim()
  .transform((v, ctx): string[] => {
    const list = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = list.filter((e) => !isSubnet(e));
    if (!bad.length) return list;
    ctx.addIssue({
      code: 'custom',
      message: `comma-separated addresses or subnets (10.0.0.0/8, fd00::/8, 192.0.2.7); not ${bad.join(', ')}`,
    });
    return z.NEVER;
  });
const edgeSecurityEnv = {
  /** Addresses whose wrong admin tokens are never limited (the owner's way in past a neighbour's lockout). */
  ADMIN_TRUSTED_NETWORKS: subnets.default([]),
  /** A token /metrics asks for (Bearer); without one, /metrics answers only METRICS_NETWORKS. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Addresses that read /metrics without a token (loopback by default). */
  METRICS_NETWORKS: subnets.default(['127.0.0.0/8', '::1/128']),
};
const edgeSecurityOf = (e: {
  ADMIN_TRUSTED_NETWORKS: string[];
  METRICS_TOKEN?: string | undefined;
  METRICS_NETWORKS: string[];
}) => ({
  adminTrustedNetworks: e.ADMIN_TRUSTED_NETWORKS,
  metricsNetworks: e.METRICS_NETWORKS,
  ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
});
// --- end of the edge's security settings ---

const envSchema = z.object({
  ...edgeSecurityEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  TRUST_PROXY: trustProxy.default(false),
  // --- storage (issue 40): embedded SQLite under DATA_DIR unless REDIS_URL (or STORE) says otherwise ---
  STORE: z.enum(['embedded', 'memory', 'redis']).optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATA_SYNC_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  // --- end of storage ---
  REDIS_URL: z
    .string()
    .refine(
      (v) => v.split(',').every((u) => /^rediss?:\/\/[^\s]+$/.test(u.trim())),
      'must be redis:// URLs, comma-separated for cluster seeds',
    )
    .optional(),
  REDIS_CLUSTER: bool.default(false),
  KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]*$/, 'letters, digits and : _ . - only (no braces: they would break hash tags)')
    .default('ivr:'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  MASTER_KEY: z
    .string()
    .refine(
      (v) => Buffer.from(v, 'base64').length === 32,
      'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TURN_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  STORE_RETRY_BUDGET_MS: z.coerce.number().int().min(0).max(600_000).default(12_000),
  SESSION_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
  CALL_IDLE_TIMEOUT_S: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 3600)
    .default(600),
  DEPLOYMENT: z.enum(['cloud', 'onprem']).default('cloud'),
  SANDBOX_NUMBER_PREFIX: z
    .string()
    .regex(/^\+[1-9]\d{0,7}$/, 'must be "+" and 1-8 digits, the start of an E.164 number')
    .default('+1555'),
  ALLOW_PRIVATE_MODEL_ENDPOINTS: bool.default(false),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'like 1mb or 512kb')
    .default('1mb'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  BENCH_MODE: bool.default(false),
  // in-process caches (each instance keeps its own; hits and misses are on /metrics)
  CACHE_TTL_MS: z.coerce.number().int().min(1).max(60_000).default(2000),
  APP_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  AGENT_CACHE_MAX: z.coerce.number().int().min(1).max(100_000).default(1000),
  HISTORY_SESSION_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  MEMORY_STORE_MAX_CALLS: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  // agent uploads: size limits (413 / 400 beyond) and the threads that train intent models
  AGENT_MAX_BYTES: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'like 1mb or 512kb')
    .default('1mb'),
  AGENT_MAX_INTENTS: z.coerce.number().int().min(1).max(100_000).default(500),
  AGENT_MAX_UTTERANCES: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  AGENT_MAX_NODES: z.coerce.number().int().min(1).max(100_000).default(1000),
  AGENT_TRAINING_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  // operator console sign-in sessions
  CONSOLE_SESSION_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(8 * 3600),
  // the call inspector: a trace of every turn, kept per call
  CALL_TRACE: bool.default(true),
  CALL_TRACE_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(90 * 24 * 3600)
    .default(7 * 24 * 3600),
  CALL_TRACE_MAX_TURNS: z.coerce.number().int().min(1).max(10_000).default(200),
  CALL_TRACE_DOCUMENTS: bool.default(true),
  // feeds, uploads and training that one client or app must not take from the others (issue 38)
  FEEDS_MAX_PER_SESSION: z.coerce.number().int().min(1).max(1_000).default(8),
  FEEDS_MAX_PER_INSTANCE: z.coerce.number().int().min(1).max(100_000).default(1_000),
  AGENT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  AGENT_TRAINING_QUEUE_MAX: z.coerce.number().int().min(1).max(10_000).default(50),
  INSTANCE_ID: z.string().trim().min(1).max(100).optional(),
  // OpenTelemetry: spans exported with OTLP/HTTP when an endpoint is set (off by default)
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(100).default('ivr-gateway'),
});

export interface Config {
  /** Subnets whose wrong admin tokens are not limited (ADMIN_TRUSTED_NETWORKS). */
  adminTrustedNetworks: string[];
  /** The Bearer token /metrics asks for (METRICS_TOKEN); absent: only metricsNetworks read it. */
  metricsToken?: string;
  /** Subnets that read /metrics without a token (METRICS_NETWORKS, loopback by default). */
  metricsNetworks: string[];
  port: number;
  host: string;
  publicBaseUrl?: string;
  /**
   * Which peers may set X-Forwarded-For/-Proto/-Host (express `trust proxy`): a hop count or the
   * proxies' addresses make the client address the one the trusted proxy saw; `true` trusts any.
   */
  trustProxy: TrustProxy;
  /** embedded: SQLite under `dataDir` (the default); memory: nothing kept; redis: REDIS_URL. */
  store: 'embedded' | 'memory' | 'redis';
  /** Where the embedded store keeps its data (created on first start). */
  dataDir: string;
  /** How often the embedded store flushes its log to the disk: the most a power cut can lose. */
  dataSyncMs: number;
  redisUrl: string;
  redisCluster: boolean;
  keyPrefix: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  masterKey: Buffer;
  masterKeyGenerated: boolean;
  logLevel: string;
  turnDeadlineMs: number;
  /** How long a turn keeps retrying through store faults (growing pauses) before the error document. */
  storeRetryBudgetMs: number;
  sessionTtlS: number;
  /** A live call that sends no turn for this long is closed by the gateway (recorded as hung up). */
  callIdleTimeoutS: number;
  deployment: 'cloud' | 'onprem';
  sandboxNumberPrefix: string;
  allowPrivateModelEndpoints: boolean;
  bodyLimit: string;
  shutdownGraceMs: number;
  benchMode: boolean;
  /** How long an app's channel, IVR settings, record and agent version are reused before a new read. */
  cacheTtlMs: number;
  /** Entries per cache of per-app records (channels, IVR settings, app records). */
  appCacheMax: number;
  /** Compiled agents (trained NLU models) kept, and as many intent grammars. */
  agentCacheMax: number;
  /** Session metas the history recorder keeps (one read less on every turn of a known call). */
  historySessionCacheMax: number;
  /** Calls the embedded memory store keeps (finished ones evicted first; new calls refused past it). */
  memoryStoreMaxCalls: number;
  /** Largest agent definition body (PUT of an agent; 413 beyond), like `bodyLimit`. */
  agentMaxBytes: string;
  /** Most intents, utterances (all intents together) and nodes (all dialogs together) of an agent. */
  agentMaxIntents: number;
  agentMaxUtterances: number;
  agentMaxNodes: number;
  /** Worker threads that train intent models, off the event loop that serves turns. */
  agentTrainingThreads: number;
  /** How long an operator console session lasts after sign-in. */
  consoleSessionTtlS: number;
  /** Whether every turn is traced for the call inspector. */
  callTrace: boolean;
  /** How long a call's traces and its entry in the app's list of calls are kept after its latest turn. */
  callTraceTtlS: number;
  /** Most traces kept per call (the oldest dropped). */
  callTraceMaxTurns: number;
  /** Whether traces keep the VoiceXML document answered. */
  callTraceDocuments: boolean;
  /** This instance's name in traces (default: host name and process id). */
  instanceId: string;
  /**
   * What one client or app may take (429 with Retry-After past it): live feeds per operator session
   * (a console cookie, or a Bearer caller's address) and per instance, agent uploads per app a
   * minute, and training jobs waiting on this instance (all apps together).
   */
  abuseLimits: {
    feedsPerSession: number;
    feedsPerInstance: number;
    agentUploadsPerMinute: number;
    trainingQueueMax: number;
  };
  /**
   * OpenTelemetry export (absent: off, the API's no-op only): where spans go (OTLP/HTTP, the
   * traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces)
   * and the service's name in them.
   */
  telemetry?: { tracesUrl: string; serviceName: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The OTLP traces URL, per the OpenTelemetry spec's variables (the signal path added to the base endpoint). */
function telemetryOf(e: z.infer<typeof envSchema>): Pick<Config, 'telemetry'> {
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesUrl =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  return tracesUrl ? { telemetry: { tracesUrl, serviceName: e.OTEL_SERVICE_NAME } } : {};
}

/** Parses an environment map into a Config; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const store = e.STORE ?? (e.REDIS_URL ? 'redis' : 'embedded');
  if (store === 'redis' && e.MASTER_KEY === undefined) {
    throw new ConfigError([
      'MASTER_KEY: required with the Redis store (secrets sealed at rest must survive restarts)',
    ]);
  }
  if (e.CALL_IDLE_TIMEOUT_S >= e.SESSION_TTL_S) {
    throw new ConfigError([
      `CALL_IDLE_TIMEOUT_S: must be less than SESSION_TTL_S (${e.SESSION_TTL_S}): a session must outlive the idle time to be closed`,
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    store,
    dataDir: e.DATA_DIR,
    dataSyncMs: e.DATA_SYNC_MS,
    redisUrl: e.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisCluster: e.REDIS_CLUSTER,
    keyPrefix: e.KEY_PREFIX,
    adminToken: e.ADMIN_TOKEN ?? randomBytes(24).toString('base64url'),
    adminTokenGenerated: e.ADMIN_TOKEN === undefined,
    masterKey: e.MASTER_KEY ? Buffer.from(e.MASTER_KEY, 'base64') : randomBytes(32),
    masterKeyGenerated: e.MASTER_KEY === undefined,
    logLevel: e.LOG_LEVEL,
    turnDeadlineMs: e.TURN_DEADLINE_MS,
    storeRetryBudgetMs: e.STORE_RETRY_BUDGET_MS,
    sessionTtlS: e.SESSION_TTL_S,
    callIdleTimeoutS: e.CALL_IDLE_TIMEOUT_S,
    deployment: e.DEPLOYMENT,
    sandboxNumberPrefix: e.SANDBOX_NUMBER_PREFIX,
    allowPrivateModelEndpoints: e.ALLOW_PRIVATE_MODEL_ENDPOINTS,
    bodyLimit: e.BODY_LIMIT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    benchMode: e.BENCH_MODE,
    cacheTtlMs: e.CACHE_TTL_MS,
    appCacheMax: e.APP_CACHE_MAX,
    agentCacheMax: e.AGENT_CACHE_MAX,
    historySessionCacheMax: e.HISTORY_SESSION_CACHE_MAX,
    memoryStoreMaxCalls: e.MEMORY_STORE_MAX_CALLS,
    agentMaxBytes: e.AGENT_MAX_BYTES,
    agentMaxIntents: e.AGENT_MAX_INTENTS,
    agentMaxUtterances: e.AGENT_MAX_UTTERANCES,
    agentMaxNodes: e.AGENT_MAX_NODES,
    agentTrainingThreads: e.AGENT_TRAINING_THREADS,
    consoleSessionTtlS: e.CONSOLE_SESSION_TTL_S,
    callTrace: e.CALL_TRACE,
    callTraceTtlS: e.CALL_TRACE_TTL_S,
    callTraceMaxTurns: e.CALL_TRACE_MAX_TURNS,
    callTraceDocuments: e.CALL_TRACE_DOCUMENTS,
    instanceId: e.INSTANCE_ID ?? `${hostname()}-${process.pid}`,
    abuseLimits: {
      feedsPerSession: e.FEEDS_MAX_PER_SESSION,
      feedsPerInstance: e.FEEDS_MAX_PER_INSTANCE,
      agentUploadsPerMinute: e.AGENT_UPLOADS_PER_MINUTE,
      trainingQueueMax: e.AGENT_TRAINING_QUEUE_MAX,
    },
    ...telemetryOf(e),
    ...edgeSecurityOf(e),
  };
}

/** A Config for tests and embedding: defaults plus overrides, never read from process.env. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ ADMIN_TOKEN: 'test-admin-token-0123456789' }), ...overrides };
}
