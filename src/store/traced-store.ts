/**
 * The Store port with one OpenTelemetry span per call (`store.<operation>`, a client span), wired
 * by compose.ts only when telemetry is on. A call outside any span (background work: the idle
 * sweep, test runs, recovery) makes none, so the exported traces are those of requests. Keys are
 * not recorded (they carry call ids and numbers); an `atomic` step records its op and guard counts.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { RateLimiter, RateLimitRule } from '../platform/index.js';
import type {
  AtomicResult,
  Guard,
  RangeOptions,
  ScoredMember,
  Store,
  StreamReader,
  TurnCommit,
  WriteOp,
} from './store-port.js';

const tracer = trace.getTracer('ivr-gateway');

export class TracedStore implements Store {
  readonly kind: Store['kind'];
  readonly atomicAcrossSlots: boolean;

  constructor(private readonly inner: Store) {
    this.kind = inner.kind;
    this.atomicAcrossSlots = inner.atomicAcrossSlots;
  }

  /** Runs one port call in its span (none without an active span). */
  private traced<T>(operation: string, work: () => Promise<T>, attributes?: Attributes): Promise<T> {
    if (!trace.getActiveSpan()) return work();
    const span = tracer.startSpan(`store.${operation}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': this.kind, 'db.operation.name': operation, ...attributes },
    });
    return work().then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', err instanceof Error ? err.name : 'error');
        span.end();
        throw err;
      },
    );
  }

  get(key: string) {
    return this.traced('get', () => this.inner.get(key));
  }
  mget(keys: string[]) {
    return this.traced('mget', () => this.inner.mget(keys), { 'db.operation.batch.size': keys.length });
  }
  set(key: string, value: string, opts?: { ttlMs?: number; nx?: boolean }) {
    return this.traced('set', () => this.inner.set(key, value, opts));
  }
  del(keys: string[]) {
    return this.traced('del', () => this.inner.del(keys));
  }
  exists(key: string) {
    return this.traced('exists', () => this.inner.exists(key));
  }
  pttl(key: string) {
    return this.traced('pttl', () => this.inner.pttl(key));
  }
  incrby(key: string, by: number, ttlMs?: number) {
    return this.traced('incrby', () => this.inner.incrby(key, by, ttlMs));
  }
  hget(key: string, field: string) {
    return this.traced('hget', () => this.inner.hget(key, field));
  }
  hgetall(key: string) {
    return this.traced('hgetall', () => this.inner.hgetall(key));
  }
  hgetallMany(keys: string[]) {
    return this.traced('hgetallMany', () => this.inner.hgetallMany(keys), {
      'db.operation.batch.size': keys.length,
    });
  }
  hset(key: string, fields: Record<string, string>) {
    return this.traced('hset', () => this.inner.hset(key, fields));
  }
  smembers(key: string) {
    return this.traced('smembers', () => this.inner.smembers(key));
  }
  zrangeByScore(key: string, min: number, max: number, opts?: RangeOptions): Promise<ScoredMember[]> {
    return this.traced('zrangeByScore', () => this.inner.zrangeByScore(key, min, max, opts));
  }
  zrange(key: string, start: number, stop: number, opts?: { rev?: boolean }) {
    return this.traced('zrange', () => this.inner.zrange(key, start, stop, opts));
  }
  zcount(key: string, min: number, max: number) {
    return this.traced('zcount', () => this.inner.zcount(key, min, max));
  }
  zcard(key: string) {
    return this.traced('zcard', () => this.inner.zcard(key));
  }
  zscore(key: string, member: string) {
    return this.traced('zscore', () => this.inner.zscore(key, member));
  }
  zrank(key: string, member: string, opts?: { rev?: boolean }) {
    return this.traced('zrank', () => this.inner.zrank(key, member, opts));
  }
  lrange(key: string, start: number, stop: number) {
    return this.traced('lrange', () => this.inner.lrange(key, start, stop));
  }
  lastStreamId(key: string) {
    return this.traced('lastStreamId', () => this.inner.lastStreamId(key));
  }
  /** The reader's blocking reads (an event feed's long waits) are not spans. */
  streamReader(): Promise<StreamReader> {
    return this.inner.streamReader();
  }
  lockAndRead(
    lockKey: string,
    token: string,
    ttlMs: number,
    readKey: string,
    create?: { value: string; ttlMs: number },
  ) {
    return this.traced('lockAndRead', () => this.inner.lockAndRead(lockKey, token, ttlMs, readKey, create));
  }
  writeHeld(
    lockKey: string,
    token: string,
    key: string,
    value: string,
    ttlMs: number,
    then: { release: true } | { extendMs: number },
  ) {
    return this.traced('writeHeld', () => this.inner.writeHeld(lockKey, token, key, value, ttlMs, then));
  }

  commitTurn(c: TurnCommit) {
    return this.traced('commitTurn', () => this.inner.commitTurn(c), {
      'db.operation.batch.size': (c.extra?.ops.length ?? 0) + 2,
    });
  }

  releaseLock(lockKey: string, token: string) {
    return this.traced('releaseLock', () => this.inner.releaseLock(lockKey, token));
  }

  waitForRelease(lockKey: string, timeoutMs: number) {
    return this.traced('waitForRelease', () => this.inner.waitForRelease(lockKey, timeoutMs));
  }

  atomic(ops: WriteOp[], guards?: Guard[]): Promise<AtomicResult> {
    return this.traced('atomic', () => this.inner.atomic(ops, guards), {
      'db.operation.batch.size': ops.length,
      'store.guards': guards?.length ?? 0,
    });
  }
  acquireSlot(key: string, member: string, expiresAtMs: number, max: number) {
    return this.traced('acquireSlot', () => this.inner.acquireSlot(key, member, expiresAtMs, max));
  }
  claimDue(key: string, nowMs: number, leaseUntilMs: number, max: number) {
    return this.traced('claimDue', () => this.inner.claimDue(key, nowMs, leaseUntilMs, max));
  }
  releaseSlot(key: string, member: string) {
    return this.traced('releaseSlot', () => this.inner.releaseSlot(key, member));
  }
  countSlots(key: string) {
    return this.traced('countSlots', () => this.inner.countSlots(key));
  }
  rateLimiter(rule: RateLimitRule): RateLimiter {
    const limiter = this.inner.rateLimiter(rule);
    return {
      consume: (key, points) => this.traced('rateLimit.consume', () => limiter.consume(key, points)),
      peek: (key) => this.traced('rateLimit.peek', () => limiter.peek(key)),
      reset: (key) => this.traced('rateLimit.reset', () => limiter.reset(key)),
      refund: (key, points) => this.traced('rateLimit.refund', () => limiter.refund(key, points)),
      list: (keyPrefix, max) => this.traced('rateLimit.list', () => limiter.list(keyPrefix, max)),
    };
  }
  deletePrefix(prefix: string) {
    return this.traced('deletePrefix', () => this.inner.deletePrefix(prefix));
  }
  bulk(ops: WriteOp[]) {
    return this.traced('bulk', () => this.inner.bulk(ops), { 'db.operation.batch.size': ops.length });
  }
  ping() {
    return this.traced('ping', () => this.inner.ping());
  }
  memoryUsage(keys: string[]) {
    return this.traced('memoryUsage', () => this.inner.memoryUsage(keys));
  }
  close() {
    return this.inner.close();
  }
}
