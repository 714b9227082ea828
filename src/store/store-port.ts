/**
 * The one storage port every component uses. Keys given to it are logical keys built by
 * `store-keys.ts`; adapters add KEY_PREFIX. The hot paths have operations named for what they do,
 * each one script on Redis with the arguments it needs (a turn: `lockAndRead`, `writeHeld`,
 * `commitTurn`). Other multi-step changes go through the generic `atomic`, which applies a list of
 * writes all-or-nothing after checking its guards (Lua in Redis, one synchronous step in memory and
 * SQLite): it is kept for changes no named operation covers: the writes other components hand to a
 * turn's commit (history's message and indexes, inside commitTurn), the idle index, sandbox and
 * table writes, the lock's extension and release. All keys of one `atomic` call must share a hash
 * tag (one Redis Cluster slot), unless the store says `atomicAcrossSlots` (memory, a single Redis
 * node, SQLite).
 */
import type { RateLimiter, RateLimitRule } from '../platform/index.js';

export type WriteOp =
  | { op: 'set'; key: string; value: string; ttlMs?: number }
  | { op: 'del'; key: string }
  | { op: 'hset'; key: string; fields: Record<string, string> }
  | { op: 'hdel'; key: string; fields: string[] }
  | { op: 'hincrby'; key: string; field: string; by: number }
  | { op: 'zadd'; key: string; score: number; member: string }
  | { op: 'zrem'; key: string; member: string }
  | { op: 'sadd'; key: string; member: string }
  | { op: 'srem'; key: string; member: string }
  | { op: 'incrby'; key: string; by: number }
  | { op: 'pexpire'; key: string; ttlMs: number }
  /** RPUSH, then LTRIM to the last `keepLast` entries (a capped log, oldest dropped). */
  | { op: 'rpush'; key: string; value: string; keepLast: number }
  | { op: 'zremrangebyscore'; key: string; min: number; max: number }
  /** XADD with an id the store makes (ms-seq) and MAXLEN ~ `maxLen` (about that many kept). */
  | { op: 'xadd'; key: string; fields: Record<string, string>; maxLen: number };

export type Guard =
  | { key: string; absent: true } // the key must not exist
  | { key: string; present: true } // the key must exist
  | { key: string; equals: string } // the string value must equal
  | { key: string; hashField: string; absent: true } // the hash field must not exist
  | { key: string; hashField: string; equals: string };

export type AtomicResult = { ok: true } | { ok: false; failedGuard: number };

/** A turn's commit (Store.commitTurn). */
export interface TurnCommit {
  /** The call's lock and the token it must hold; the commit releases it. */
  lockKey: string;
  token: string;
  sessionKey: string;
  session: string;
  ttlMs: number;
  /** The call's entry in the idle index: filed by when it falls idle, or taken out (`at` null). */
  idle?: { key: string; member: string; at: number | null };
  /** Writes of another component in the same step (the turn's history), applied when their guards hold. */
  extra?: { ops: WriteOp[]; guards: Guard[] };
}

/** ok; lost: the lock did not hold the token; refused: one of `extra`'s guards failed. Nothing written unless ok. */
export type TurnCommitOutcome = 'ok' | 'lost' | 'refused';

/** A turn's commit as generic writes and guards (the lock's guard first): what the in-process stores apply in one step. */
export function turnCommitWrites(c: TurnCommit): { ops: WriteOp[]; guards: Guard[] } {
  const ops: WriteOp[] = c.extra ? c.extra.ops.slice() : [];
  ops.push({ op: 'set', key: c.sessionKey, value: c.session, ttlMs: c.ttlMs }, { op: 'del', key: c.lockKey });
  if (c.idle)
    ops.push(
      c.idle.at === null
        ? { op: 'zrem', key: c.idle.key, member: c.idle.member }
        : { op: 'zadd', key: c.idle.key, score: c.idle.at, member: c.idle.member },
    );
  return { ops, guards: [{ key: c.lockKey, equals: c.token }, ...(c.extra?.guards ?? [])] };
}

/** What `atomic` answered for turnCommitWrites, as a commit's outcome. */
export const turnCommitOutcome = (r: AtomicResult): TurnCommitOutcome =>
  r.ok ? 'ok' : r.failedGuard === 0 ? 'lost' : 'refused';

export interface RangeOptions {
  /** Highest scores first. */
  rev?: boolean;
  offset?: number;
  count?: number;
}

export interface ScoredMember {
  member: string;
  score: number;
}

// the rate-limiter port is the platform's; the adapters implement it
export type { RateLimitRule, RateLimitOutcome, RateLimitEntry, RateLimiter } from '../platform/index.js';
/** An entry of a stream (XADD/XREAD): its id (`<ms>-<seq>`, ordered) and fields. */
export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

/**
 * Reads streams with blocking waits (XREAD BLOCK): on Redis over a connection of its own, so a
 * waiting read never holds up the commands of turns. Close it when done.
 */
export interface StreamReader {
  /**
   * Entries of `key` after `afterId` (`$`: only entries added from now on), at most `count`;
   * waits up to `blockMs` for one when there is none yet (then answers []).
   */
  read(key: string, afterId: string, count: number, blockMs: number): Promise<StreamEntry[]>;
  close(): Promise<void>;
}

export interface Store {
  readonly kind: 'memory' | 'redis' | 'embedded';
  /**
   * Whether one `atomic` call may hold keys of different hash tags: true in memory and on a single
   * Redis node (a script may touch any key there), false on a Redis Cluster (a script runs on the
   * one node of its slot). A caller that would span tags writes in steps when it is false.
   */
  readonly atomicAcrossSlots: boolean;
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<Array<string | null>>;
  /** Sets a value; with `nx` only when absent (returns false when it existed). */
  set(key: string, value: string, opts?: { ttlMs?: number; nx?: boolean }): Promise<boolean>;
  del(keys: string[]): Promise<number>;
  exists(key: string): Promise<boolean>;
  pttl(key: string): Promise<number>; // -2 missing, -1 no ttl
  incrby(key: string, by: number, ttlMs?: number): Promise<number>;
  hget(key: string, field: string): Promise<string | null>;
  hgetall(key: string): Promise<Record<string, string>>;
  /** Reads many hashes in one round trip (pipelined). Missing hashes come back as {}. */
  hgetallMany(keys: string[]): Promise<Array<Record<string, string>>>;
  hset(key: string, fields: Record<string, string>): Promise<void>;
  smembers(key: string): Promise<string[]>;
  zrangeByScore(key: string, min: number, max: number, opts?: RangeOptions): Promise<ScoredMember[]>;
  zrange(key: string, start: number, stop: number, opts?: { rev?: boolean }): Promise<ScoredMember[]>;
  zcount(key: string, min: number, max: number): Promise<number>;
  zcard(key: string): Promise<number>;
  zscore(key: string, member: string): Promise<number | null>;
  /** Rank of a member (0-based) in ascending (or descending with rev) order; null when absent. */
  zrank(key: string, member: string, opts?: { rev?: boolean }): Promise<number | null>;
  /** Entries `start`..`stop` of a list (negative: from the end), as LRANGE. */
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  /** The id of a stream's newest entry, or null when it has none. */
  lastStreamId(key: string): Promise<string | null>;
  /** A reader of streams with blocking waits (see StreamReader). */
  streamReader(): Promise<StreamReader>;
  /**
   * Takes a lock (`lockKey` set to `token` with a TTL, only when absent) and reads `readKey` in the
   * same step (both keys share a slot). One round trip for a turn's "lock, then load". With
   * `create`, a `readKey` found missing while the lock was taken is set to `create.value` (and
   * answered, `created: true`): a call's first turn creates its session under its lock.
   */
  lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ): Promise<{ acquired: boolean; value: string | null; created?: boolean }>;
  /**
   * While `lockKey` holds `token`: sets `key` to `value` (with `ttlMs`), then releases the lock or
   * extends it to `lockTtlMs`, in one step (both keys share a slot). False (nothing written) when
   * the lock is not held. A turn's save and commit; cheaper than the equivalent `atomic`.
   */
  writeHeld(
    lockKey: string,
    token: string,
    key: string,
    value: string,
    ttlMs: number,
    then: { release: true } | { extendMs: number },
  ): Promise<boolean>;
  /**
   * A turn's commit in one step (commit-turn.lua on Redis): while the lock holds the token, the
   * extra writes (when their guards hold), the session, the lock's release and the idle index. Its
   * keys may be of other slots only on a store whose `atomicAcrossSlots`.
   */
  commitTurn(c: TurnCommit): Promise<TurnCommitOutcome>;
  /** Releases a lock while it holds `token` (waking those waiting for it); false when it held another or none. */
  releaseLock(lockKey: string, token: string): Promise<boolean>;
  /**
   * Waits, without polling, until `lockKey` is released by `writeHeld` (release), `commitTurn` or
   * `releaseLock` (true; at once when the lock is not held), or until `timeoutMs` passed (false: a
   * lock that expired wakes no one). On Redis a message on the lock's channel (pub/sub, on a
   * connection of its own); in memory and SQLite an in-process wake.
   */
  waitForRelease(lockKey: string, timeoutMs: number): Promise<boolean>;
  /** Applies writes all-or-nothing when every guard holds. */
  atomic(ops: WriteOp[], guards?: Guard[]): Promise<AtomicResult>;
  /**
   * Takes one of `max` slots in a sorted set of members with expiry scores (ms since epoch):
   * expired members are pruned first; re-acquiring a held member refreshes its expiry.
   */
  acquireSlot(
    key: string,
    member: string,
    expiresAtMs: number,
    max: number,
  ): Promise<{ acquired: boolean; inUse: number }>;
  /**
   * Claims up to `max` members of a sorted set scored by when each is due (ms since epoch): those
   * scored at or below `nowMs` are rescored to `leaseUntilMs` and answered, in one step, so callers
   * running at once (other instances) never claim the same member. A claim its caller does not
   * settle (by removing or rescoring the member) comes due again when the lease ends.
   */
  claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number): Promise<string[]>;
  /** Frees a member's slot; true when it held one. */
  releaseSlot(key: string, member: string): Promise<boolean>;
  countSlots(key: string): Promise<number>;
  /** A rolling-window rate limiter kept in this store (holds across instances on Redis). */
  rateLimiter(rule: RateLimitRule): RateLimiter;
  /**
   * Deletes every key whose name starts with `prefix` (a logical key as storeKeys builds it, e.g. an
   * app's scope) and answers how many it deleted. Incremental and not atomic (SCAN and UNLINK in
   * batches on Redis, on every master of a Cluster): a key written under the prefix meanwhile may
   * stay. Its cost grows with the whole keyspace on a single node (SCAN visits every key).
   */
  deletePrefix(prefix: string): Promise<number>;
  /** Writes many independent ops in one round trip, not atomically (bulk loads, benchmarks). */
  bulk(ops: WriteOp[]): Promise<void>;
  ping(): Promise<boolean>;
  /** Bytes used by the keys (Redis MEMORY USAGE; an estimate in memory). */
  memoryUsage(keys: string[]): Promise<number>;
  close(): Promise<void>;
}
