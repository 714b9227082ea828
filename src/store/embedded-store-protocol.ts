/**
 * The messages between the embedded store (embedded-store.ts, on the event loop) and its worker
 * thread (embedded-store-worker.ts, which owns the SQLite connection). A call names a method of the
 * store in the worker and its arguments; the worker answers each call once, in the order its group
 * commits, with the keys of the streams that got entries since its last answer (so that blocking
 * stream readers on the event loop wake without a message of their own).
 */
import type { Store } from './store-port.js';

/** The methods the worker answers: the port's data methods, and what the data directory keeps. */
export const EMBEDDED_CALLS = [
  'get',
  'mget',
  'set',
  'del',
  'exists',
  'pttl',
  'incrby',
  'hget',
  'hgetall',
  'hgetallMany',
  'hset',
  'smembers',
  'zrangeByScore',
  'zrange',
  'zcount',
  'zcard',
  'zscore',
  'zrank',
  'lrange',
  'lastStreamId',
  'streamAfter',
  'lockAndRead',
  'writeHeld',
  'commitTurn',
  'releaseLock',
  'waitForRelease',
  'atomic',
  'acquireSlot',
  'claimDue',
  'releaseSlot',
  'countSlots',
  'deletePrefix',
  'bulk',
  'ping',
  'memoryUsage',
  'listKeys',
  'readMeta',
  'keepMeta',
  'close',
] as const satisfies ReadonlyArray<keyof Store | 'streamAfter' | 'listKeys' | 'readMeta' | 'keepMeta'>;

export type EmbeddedCall = (typeof EMBEDDED_CALLS)[number];

/** What the worker is started with (its workerData). */
export interface EmbeddedWorkerData {
  dir: string;
  prefix: string;
  syncMs: number;
}

/** An error carried across the thread boundary: its name, message and code (WRONGTYPE, SQLITE_BUSY…). */
export interface CarriedError {
  name: string;
  message: string;
  code?: string;
  /** NewerDataError's fields, so that the event loop's side rebuilds it. */
  file?: string;
  found?: number;
}

/** The data directory's file as the worker opened it (OpenedDatabase's plain fields). */
export interface EmbeddedDatabaseInfo {
  file: string;
  foundVersion: number;
  backup?: string;
}

export type EmbeddedRequest = { id: number; m: EmbeddedCall; a: unknown[] };

export type EmbeddedReply =
  | { ready: EmbeddedDatabaseInfo }
  | { failed: CarriedError }
  | { id: number; r: unknown; added?: string[] }
  | { id: number; e: CarriedError; added?: string[] };
