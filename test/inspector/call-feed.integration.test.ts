import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRedisStore, redisAvailable, testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall } from '../helpers/ivr-call.js';
import { MemoryStore, type Store } from '../../src/store/index.js';
import { SseClient } from './sse-client.js';

/** Two gateway instances on one store: memory (one process, one store object) or two Redis connections. */
const setups = [
  {
    name: 'memory',
    available: true,
    stores: async (): Promise<[Store, Store]> => {
      const s = new MemoryStore(testPrefix());
      return [s, s];
    },
  },
  {
    name: 'redis',
    available: redisAvailable(),
    stores: async (): Promise<[Store, Store]> => {
      const prefix = testPrefix();
      return [await makeRedisStore(prefix), await makeRedisStore(prefix)];
    },
  },
];

for (const setup of setups) {
  describe.skipIf(!setup.available)(`call inspector live feed [${setup.name}]`, () => {
    let stores: [Store, Store];
    let a: RunningGateway;
    let b: RunningGateway;
    let app: IvrApp;
    const open: SseClient[] = [];

    beforeAll(async () => {
      stores = await setup.stores();
      a = await startGateway({ store: stores[0], config: { instanceId: 'instance-a' } });
      b = await startGateway({
        store: stores[1],
        config: { instanceId: 'instance-b', masterKey: a.config.masterKey },
      });
      app = await setupIvrApp(a);
    });
    afterAll(async () => {
      for (const c of open) c.close();
      await a.close();
      await b.close();
      await stores[0].close();
      if (stores[1] !== stores[0]) await stores[1].close();
    });

    const feed = async (gw: RunningGateway, headers: Record<string, string> = {}) => {
      const c = await SseClient.open(`${gw.url}/api/admin/apps/${app.streamId}/calls/feed`, {
        Authorization: `Bearer ${gw.config.adminToken}`,
        ...headers,
      });
      open.push(c);
      return c;
    };

    it('when a turn is made on one instance, then a feed opened on another delivers it, and a reconnect with Last-Event-ID gets only newer turns', async () => {
      const onB = await feed(b);
      expect(onB.status).toBe(200);
      expect(onB.contentType).toContain('text/event-stream');
      const call = new IvrCall(a, app.webhookUrl);
      await call.start();
      const first = await onB.next();
      expect(first.event).toBe('turn');
      expect(first.id).toMatch(/^\d+-\d+$/);
      const data = JSON.parse(first.data);
      expect(data).toMatchObject({
        callId: call.callId,
        trace: { turn: 0, event: 'start', instance: 'instance-a', document: { kind: 'ask' } },
        summary: { callId: call.callId },
      });
      expect(data.trace.document.xml).toBeUndefined();
      onB.close();

      await call.say('I want to book a table');
      const resumed = await feed(b, { 'Last-Event-ID': first.id! });
      const next = await resumed.next();
      expect(JSON.parse(next.data).trace).toMatchObject({ turn: 1, instance: 'instance-a' });
      expect(next.id! > first.id! || next.id!.length > first.id!.length).toBe(true);
    });

    it('when Last-Event-ID is not an event id, then the feed is refused with 400', async () => {
      const res = await fetch(`${b.url}/api/admin/apps/${app.streamId}/calls/feed`, {
        headers: { Authorization: `Bearer ${b.config.adminToken}`, 'Last-Event-ID': 'nope' },
      });
      expect(res.status).toBe(400);
    });
  });
}
