export type {
  Store,
  WriteOp,
  Guard,
  AtomicResult,
  RangeOptions,
  ScoredMember,
  RateLimiter,
  RateLimitRule,
  RateLimitOutcome,
  StreamEntry,
  StreamReader,
  TurnCommit,
  TurnCommitOutcome,
} from './store-port.js';
export { storeKeys, type StoreKeys } from './store-keys.js';
export { MemoryStore } from './memory-store.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { EmbeddedStore } from './embedded-store.js';
export { NewerDataError, SCHEMA_VERSION, DATABASE_FILE } from './sqlite-database.js';
export { isStoreUnavailable } from './store-errors.js';
export { rateLimitersOf } from './rate-limiters-of.js';
export { TracedStore } from './traced-store.js';
export { countedStore } from './counted-store.js';
export { keptMasterKey, keptAdminToken, readAdminToken, MASTER_KEY_FILE } from './data-dir.js';
export {
  exportData,
  importData,
  parseExport,
  isConfigurationKey,
  DataFileError,
  EXPORT_VERSION,
  type DataExport,
  type ListableStore,
} from './store-dump.js';
