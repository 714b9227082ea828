/**
 * Builds the data-table component from the shared dependencies: its routes and the `TablePort`
 * the agent's table node inserts through (same validation and access rules as the public API).
 */
import {
  AppError,
  createRateLimitGate,
  RATE_LIMITS,
  type Config,
  type Logger,
  type Metrics,
  type RateLimiterFactory,
  type RouteDef,
  type Sealer,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { AppsService } from '../admin/index.js';
import type { TablePort } from '../agent/index.js';
import { TablesRepository } from './tables-repository.js';
import { TablesService } from './tables-service.js';
import { tablesRoutes } from './tables-routes.js';
import { tableRecordCheck } from './table-record-check.js';

export interface TablesDeps {
  config: Config;
  store: Store;
  sealer: Sealer;
  apps: AppsService;
  logger: Logger;
  metrics: Metrics;
  /** Makes the rolling rate limiters (the store's). */
  rateLimiters: RateLimiterFactory;
}

export interface TablesOptions {
  /** Overrides the platform's 600/min and 18000/h per account+table (tests use a small limit). */
  rateLimit?: { perMinute: number; perHour: number };
}

export interface TablesComponent {
  routes: RouteDef[];
  tables: TablePort;
  service: TablesService;
  /** The agent definition check of table nodes' records against their tables. */
  recordCheck: ReturnType<typeof tableRecordCheck>;
}

export function createTablesComponent(deps: TablesDeps, options: TablesOptions = {}): TablesComponent {
  const limit = options.rateLimit ?? RATE_LIMITS.tables;
  const gate = createRateLimitGate(
    deps.rateLimiters,
    RATE_LIMITS.tables.name,
    limit.perMinute,
    limit.perHour,
    deps.metrics,
  );
  // an insert key outlives the call session whose turn made it (a turn resumes only while it lives)
  const repo = new TablesRepository(deps.store, deps.config.sessionTtlS * 1000);
  const service = new TablesService(repo, deps.sealer, deps.apps, deps.logger.child({ component: 'tables' }));
  const tables: TablePort = {
    async insert({ streamId, table, record, idempotencyKey }) {
      if (!record || typeof record !== 'object' || Array.isArray(record))
        throw AppError.validation([{ msg: 'must be an object', path: 'record' }]);
      return service.insert(streamId, table, record, 'record', true, idempotencyKey);
    },
  };
  return { routes: tablesRoutes(service, gate), tables, service, recordCheck: tableRecordCheck(service) };
}
