/**
 * One WriteOp of the port applied to the memory store's keys, as the Redis command of the same
 * name does it (lua/atomic.lua): `check` first throws WRONGTYPE without writing, so an `atomic`
 * step that checks every op before applying any lands whole or not at all.
 */
import type { WriteOp } from './store-port.js';
import type { Entry, MemoryKeyspace, MemoryStream } from './memory-keyspace.js';

/** What the store hears of a write: a string set (the call cap), an entry added to a stream. */
export interface WriteHooks {
  written(key: string, value: string): void;
  added(key: string): void;
}

const kinds: Partial<Record<WriteOp['op'], Entry['kind']>> = {
  hset: 'hash',
  hdel: 'hash',
  hincrby: 'hash',
  zadd: 'zset',
  zrem: 'zset',
  sadd: 'set',
  srem: 'set',
  incrby: 'string',
  rpush: 'list',
  zremrangebyscore: 'zset',
  xadd: 'stream',
};

export class MemoryWriteOps {
  constructor(
    private readonly space: MemoryKeyspace,
    private readonly on: WriteHooks,
  ) {}

  /** Throws WRONGTYPE when the op's key holds another kind than the op writes. */
  check(op: WriteOp): void {
    const kind = kinds[op.op];
    if (kind) this.space.typed(op.key, kind);
  }

  apply(op: WriteOp): void {
    const space = this.space;
    switch (op.op) {
      case 'set':
        space.setString(op.key, op.value, op.ttlMs);
        this.on.written(op.key, op.value);
        return;
      case 'del':
        space.delete(op.key);
        return;
      case 'hset': {
        const m = space.ensure(op.key, 'hash').value as Map<string, string>;
        for (const [f, v] of Object.entries(op.fields)) m.set(f, v);
        return;
      }
      case 'hdel': {
        const e = space.typed(op.key, 'hash');
        if (!e) return;
        const m = e.value as Map<string, string>;
        for (const f of op.fields) m.delete(f);
        if (m.size === 0) space.delete(op.key);
        return;
      }
      case 'hincrby': {
        const m = space.ensure(op.key, 'hash').value as Map<string, string>;
        m.set(op.field, String(Number(m.get(op.field) ?? 0) + op.by));
        return;
      }
      case 'zadd':
        (space.ensure(op.key, 'zset').value as Map<string, number>).set(op.member, op.score);
        return;
      case 'zrem': {
        const e = space.typed(op.key, 'zset');
        if (!e) return;
        (e.value as Map<string, number>).delete(op.member);
        if ((e.value as Map<string, number>).size === 0) space.delete(op.key);
        return;
      }
      case 'sadd':
        (space.ensure(op.key, 'set').value as Set<string>).add(op.member);
        return;
      case 'srem': {
        const e = space.typed(op.key, 'set');
        if (!e) return;
        (e.value as Set<string>).delete(op.member);
        if ((e.value as Set<string>).size === 0) space.delete(op.key);
        return;
      }
      case 'incrby':
        space.incr(op.key, op.by);
        return;
      case 'pexpire':
        space.expire(op.key, op.ttlMs);
        return;
      case 'rpush': {
        const list = space.ensure(op.key, 'list').value as string[];
        list.push(op.value);
        const keep = Math.max(1, Math.floor(op.keepLast));
        if (list.length > keep) list.splice(0, list.length - keep);
        return;
      }
      case 'zremrangebyscore': {
        const e = space.typed(op.key, 'zset');
        if (!e) return;
        const m = e.value as Map<string, number>;
        for (const [member, score] of m) if (score >= op.min && score <= op.max) m.delete(member);
        if (m.size === 0) space.delete(op.key);
        return;
      }
      case 'xadd': {
        const st = space.ensure(op.key, 'stream').value as MemoryStream;
        const now = Date.now();
        if (now > st.ms) {
          st.ms = now;
          st.seq = 0;
        } else st.seq += 1;
        st.entries.push({ id: `${st.ms}-${st.seq}`, fields: { ...op.fields } });
        if (st.entries.length > op.maxLen)
          st.entries.splice(0, st.entries.length - Math.max(1, Math.floor(op.maxLen)));
        // woken after the step that added it (a reader never sees half of an atomic step)
        queueMicrotask(() => this.on.added(op.key));
        return;
      }
    }
  }
}
