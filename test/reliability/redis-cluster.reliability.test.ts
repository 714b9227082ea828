/**
 * The service as processes on the local three-master Redis Cluster that global setup started: one
 * instance finds it from a REDIS_URL listing the nodes, one from REDIS_CLUSTER=1 and a single seed.
 * (Every describeEachStore suite also runs on the cluster through the `redis-cluster` factory.)
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/index.js';
import { makeRedisClusterStore } from '../helpers/test-stores.js';
import { BOOKING, expectBooked, expectBookingHistories } from './booking-call.js';
import {
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';
import { RoundRobinClient, runScriptedCall } from './scripted-browser.js';

const CALLS = 12;

describe.skipIf(!inject('redisClusterUrl'))('service processes on a Redis Cluster', () => {
  const seeds = inject('redisClusterUrl');
  let env: Record<string, string>;
  let gateways: GatewayProcess[] = [];
  let app: ProvisionedApp;

  beforeAll(async () => {
    env = sharedEnv(seeds);
    gateways = await Promise.all([
      startGatewayProcess('by-url-list', env),
      startGatewayProcess('by-flag', { ...env, REDIS_URL: seeds.split(',')[1]!, REDIS_CLUSTER: '1' }),
    ]);
    app = await provisionIvrApp(gateways[0]!.url, env.ADMIN_TOKEN!);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.proc.stop('SIGTERM')));
    for (const url of seeds.split(',')) {
      const node = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      node.on('error', () => undefined);
      await node.connect().catch(() => undefined);
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${env.KEY_PREFIX}*`, 'COUNT', 500);
        cursor = next;
        for (const k of keys) await node.del(k);
      } while (cursor !== '0');
      node.disconnect();
    }
  }, 30_000);

  it('when calls go round-robin across instances on the cluster, then every call is booked, its history is exact and the keys are spread over the masters', async () => {
    const client = new RoundRobinClient(gateways.map((g) => g.url));
    const started = Date.now();
    const traces = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        runScriptedCall({
          client,
          startPath: app.webhookPath,
          callId: `call-cluster-${i}-${started}`,
          say: BOOKING,
        }),
      ),
    );
    traces.forEach(expectBooked);
    await expectBookingHistories(
      gateways[1]!.url,
      app,
      traces.map((t) => t.callId),
    );
    const perNode: number[] = [];
    for (const url of seeds.split(',')) {
      const node = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      node.on('error', () => undefined);
      await node.connect();
      let cursor = '0';
      let n = 0;
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${env.KEY_PREFIX}*`, 'COUNT', 500);
        cursor = next;
        n += keys.length;
      } while (cursor !== '0');
      perNode.push(n);
      node.disconnect();
    }
    expect(perNode.filter((n) => n > 0).length).toBe(3);
    for (const g of gateways) expect(g.proc.output()).not.toMatch(/CROSSSLOT|same slot/i);
    console.info(
      `[redis-cluster] ${CALLS} calls in ${Date.now() - started} ms; keys per master: ${perNode.join(', ')}`,
    );
  }, 60_000);

  it('when an atomic change spans two hash slots, then the adapter refuses it naming the keys and writes nothing', async () => {
    const store = await makeRedisClusterStore();
    try {
      const a = storeKeys.callSession('st-1', 'call-a');
      const b = storeKeys.callSession('st-1', 'call-b');
      const err = await store
        .atomic([
          { op: 'set', key: a, value: '1' },
          { op: 'set', key: b, value: '2' },
        ])
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(err?.message).toContain('keys in different hash slots');
      expect(err?.message).toContain(a);
      expect(await store.exists(a)).toBe(false);
      expect(
        (
          await store.atomic([
            { op: 'set', key: a, value: '1' },
            { op: 'set', key: storeKeys.callLock('st-1', 'call-a'), value: 't' },
          ])
        ).ok,
      ).toBe(true);
      await store.del([a, storeKeys.callLock('st-1', 'call-a')]);
    } finally {
      await store.close();
    }
  });
});
