/**
 * The Redis adapter's Lua scripts are defined with ioredis `defineCommand`, which runs them by SHA
 * (EVALSHA) and loads them again when a node does not know them (after a restart, a failover or
 * SCRIPT FLUSH). Checked here on one Redis and on the Cluster.
 */
import { createHash } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisStore } from '../../src/store/index.js';
import { scriptSource } from '../../src/store/redis-client.js';
import {
  makeRedisClusterStore,
  makeRedisStore,
  redisAvailable,
  redisClusterUrl,
  redisUrl,
} from '../helpers/test-stores.js';

const atomicSha = createHash('sha1').update(scriptSource('atomic')).digest('hex');

interface Target {
  name: string;
  available: () => boolean;
  store: () => Promise<RedisStore>;
  /** Every master the keys can live on. */
  masters: () => Promise<{ nodes: Redis[]; close: () => Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'redis',
    available: redisAvailable,
    store: () => makeRedisStore(),
    masters: async () => {
      const r = new Redis(redisUrl());
      return { nodes: [r], close: async () => void (await r.quit()) };
    },
  },
  {
    name: 'redis-cluster',
    available: () => redisClusterUrl() !== '',
    store: () => makeRedisClusterStore(),
    masters: async () => {
      const seeds = redisClusterUrl()
        .split(',')
        .map((u) => new URL(u))
        .map((u) => ({ host: u.hostname, port: Number(u.port) }));
      const c = new Cluster(seeds);
      await new Promise<void>((resolve, reject) => c.once('ready', resolve).once('error', reject));
      return { nodes: c.nodes('master'), close: async () => void (await c.quit()) };
    },
  },
];

for (const t of targets) {
  describe.skipIf(!t.available())(`Lua scripts [${t.name}]`, () => {
    let store: RedisStore | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    it('when Redis has forgotten the scripts, then the next call loads them again and its writes apply', async () => {
      store = await t.store();
      const ops = (n: number) =>
        Array.from({ length: n }, (_, i) => ({
          op: 'hset' as const,
          key: `script-reload:${n}`,
          fields: { [`f${i}`]: String(i) },
        }));
      expect((await store.atomic(ops(3))).ok).toBe(true);

      const { nodes, close } = await t.masters();
      try {
        // flushed and checked in one step: other files' calls on the same servers may load it again after
        for (const node of nodes) {
          const replies = await node.multi().script('FLUSH').script('EXISTS', atomicSha).exec();
          expect(replies?.[1]).toEqual([null, [0]]);
        }

        // a thousand-argument write, refused by EVALSHA, then sent by EVAL
        expect((await store.atomic(ops(500))).ok).toBe(true);
        expect(Object.keys(await store.hgetall('script-reload:500'))).toHaveLength(500);
        const loaded = await Promise.all(
          nodes.map(async (node) => ((await node.script('EXISTS', atomicSha)) as number[])[0]),
        );
        expect(loaded).toContain(1);
        expect((await store.atomic(ops(2))).ok).toBe(true);
        expect(await store.hgetall('script-reload:2')).toEqual({ f0: '0', f1: '1' });
      } finally {
        await close();
      }
    });
  });
}
