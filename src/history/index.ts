/**
 * Conversation history component: the recorder the IVR webhook calls for every turn, the
 * getMessages / getMessagesV2 routes, and the service behind them (also used by the benchmark).
 */
import {
  createRateLimitGate,
  RATE_LIMITS,
  type Metrics,
  type RateLimiterFactory,
  type RouteDef,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import { HistoryRecorder, type SessionMetaCache } from './history-recorder.js';
import { HistoryReader, type ReaderBudgets } from './history-reader.js';
import { HistoryRepository } from './history-repository.js';
import { historyRoutes } from './history-routes.js';
import { HistoryService, type AppIconSource } from './history-service.js';
import { turnHistory, type TurnHistory } from './turn-history.js';

export interface HistoryDeps {
  store: Store;
  /** The app's logo for `icon` (AppsService). */
  apps: AppIconSource;
  metrics?: Metrics;
  /** Makes the rolling rate limiters (the store's). */
  rateLimiters: RateLimiterFactory;
  /** Per-bot rolling limits; default 60/min and 1800/h (the platform's bot API limits). */
  rateLimits?: { perMinute: number; perHour: number; name?: string };
  budgets?: Partial<ReaderBudgets>;
  now?: () => number;
  /** The recorder's session metas: the gateway's bounded, metered cache (compose.ts makes it with the others). */
  sessionMetas: SessionMetaCache;
}

export interface HistoryComponent {
  routes: RouteDef[];
  recorder: HistoryRecorder;
  /** What the IVR turn records through (its HistoryPort). */
  turns: TurnHistory;
  service: HistoryService;
}

export function createHistoryComponent(deps: HistoryDeps): HistoryComponent {
  const now = deps.now ?? Date.now;
  const repo = new HistoryRepository(deps.store);
  const reader = new HistoryReader(repo, { scanBudget: 10_000, countBudget: 20_000, ...deps.budgets });
  const service = new HistoryService(repo, reader, deps.apps, now);
  const limits = deps.rateLimits ?? {
    perMinute: RATE_LIMITS.botApi.perMinute,
    perHour: RATE_LIMITS.botApi.perHour,
  };
  const gate = createRateLimitGate(
    deps.rateLimiters,
    limits.name ?? RATE_LIMITS.botApi.name,
    limits.perMinute,
    limits.perHour,
    deps.metrics,
  );
  const recorder = new HistoryRecorder(repo, deps.sessionMetas, now);
  return {
    routes: historyRoutes(service, gate),
    recorder,
    turns: turnHistory(recorder, deps.store.atomicAcrossSlots),
    service,
  };
}

export {
  HistoryRecorder,
  type CachedMeta,
  type PreparedRecord,
  type SessionMetaCache,
} from './history-recorder.js';
export { HistoryService, type AppIconSource } from './history-service.js';
export { turnHistory, type TurnHistory, type TurnRecord } from './turn-history.js';
export { historyLayout, TRACE_RETENTION_MS } from './history-layout.js';
export {
  CHANNEL_TYPES,
  LIMITS as HISTORY_LIMITS,
  MAX_TEXT as HISTORY_MAX_TEXT,
  newMessageSchema,
  type ChannelType,
  type HistoryAnswer,
  type HistoryParams,
  type HistoryVersion,
  type MessageAnswer,
  type NewMessage,
  type TaskKind,
  type ValidMessage,
} from './history-schemas.js';
