/**
 * The Redis adapter's batched writes: the port's write operations as one pipeline on a single node,
 * and, for a Cluster, the operations grouped by hash tag (one slot each) so each group can go as
 * one script.
 */
import type { RedisClient } from './redis-client.js';
import type { WriteOp } from './store-port.js';

/** The hash tag of a key (what Redis Cluster hashes: the text between its first `{` and the next `}`), else the key. */
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** The operations grouped by hash tag, each group in its original order. */
export function groupByHashTag(ops: WriteOp[]): WriteOp[][] {
  const byTag = new Map<string, WriteOp[]>();
  for (const op of ops) {
    const tag = hashTagOf(op.key);
    const group = byTag.get(tag);
    if (group) group.push(op);
    else byTag.set(tag, [op]);
  }
  return [...byTag.values()];
}

/** The operations in order as one pipeline (a single node: no slot to keep them apart). */
export async function pipelineWrites(
  client: RedisClient,
  key: (k: string) => string,
  ops: WriteOp[],
): Promise<void> {
  const pipe = client.pipeline();
  for (const op of ops) {
    const k = key(op.key);
    switch (op.op) {
      case 'set':
        if (op.ttlMs) pipe.set(k, op.value, 'PX', op.ttlMs);
        else pipe.set(k, op.value);
        break;
      case 'del':
        pipe.del(k);
        break;
      case 'hset':
        pipe.hset(k, op.fields);
        break;
      case 'hdel':
        pipe.hdel(k, ...op.fields);
        break;
      case 'hincrby':
        pipe.hincrby(k, op.field, op.by);
        break;
      case 'zadd':
        pipe.zadd(k, op.score, op.member);
        break;
      case 'zrem':
        pipe.zrem(k, op.member);
        break;
      case 'sadd':
        pipe.sadd(k, op.member);
        break;
      case 'srem':
        pipe.srem(k, op.member);
        break;
      case 'incrby':
        pipe.incrby(k, op.by);
        break;
      case 'pexpire':
        pipe.pexpire(k, op.ttlMs);
        break;
      case 'rpush':
        pipe.rpush(k, op.value).ltrim(k, -Math.max(1, Math.floor(op.keepLast)), -1);
        break;
      case 'zremrangebyscore':
        pipe.zremrangebyscore(
          k,
          Number.isFinite(op.min) ? op.min : '-inf',
          Number.isFinite(op.max) ? op.max : '+inf',
        );
        break;
      case 'xadd':
        pipe.xadd(
          k,
          'MAXLEN',
          '~',
          Math.max(1, Math.floor(op.maxLen)),
          '*',
          ...Object.entries(op.fields).flat(),
        );
        break;
    }
  }
  const res = await pipe.exec();
  const failed = res?.find(([err]) => err)?.[0];
  if (failed) throw failed;
}
