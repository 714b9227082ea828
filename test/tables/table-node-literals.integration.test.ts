/**
 * A table node's record takes literal numbers and booleans beside templates; each value is brought
 * to its column's type, and a literal that cannot be is refused when the agent is saved, at its
 * JSON path.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf } from '../helpers/ivr-call.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';
import type { Store } from '../../src/store/index.js';

const agentWith = (record: Record<string, unknown>) => ({
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'welcome',
  intents: [],
  dialogs: {
    welcome: {
      start: 'save',
      nodes: {
        save: { type: 'table', table: 'visits', record, saveAs: 'row', next: [{ goto: 'said' }] },
        said: {
          type: 'end',
          text: 'Saved attempt {{context.row.attempts}}, vip {{context.row.vip}}, size {{context.row.size}}.',
        },
      },
    },
  },
});

describeEachStore('table node with literal values', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw, { agent: agentWith({ phone: '{{context.from}}' }) });
    const def = await gw.admin('PUT', '/api/admin/tables/visits', {
      columns: [
        { name: 'phone', type: 'string', required: true, maxLength: 32 },
        { name: 'attempts', type: 'number' },
        { name: 'vip', type: 'string', maxLength: 5 },
        { name: 'size', type: 'number' },
        { name: 'day', type: 'date' },
      ],
      access: { [app.streamId]: { read: true, write: true } },
    });
    expect(def.status).toBe(200);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it("when the record holds a literal number, a boolean and a numeric text, then the agent is saved and the row holds them in their columns' types", async () => {
    await putAgentAndWait(
      gw.admin,
      app.streamId,
      agentWith({ phone: '{{context.from}}', attempts: 1, vip: true, size: '4' }),
    );
    const stored = await gw.admin('GET', `/api/admin/apps/${app.streamId}/agent`);
    expect(stored.body.dialogs.welcome.nodes.save.record).toEqual({
      phone: '{{context.from}}',
      attempts: 1,
      vip: true,
      size: '4',
    });
    const call = new IvrCall(gw, app.webhookUrl, '+15550001234');
    const doc = await call.start();
    expect(spokenOf(doc)).toContain('Saved attempt 1, vip true, size 4.');
  });

  it("when literals cannot take their columns' types, then 400 names each at its JSON path and the stored agent is unchanged", async () => {
    const before = await gw.admin('GET', `/api/admin/apps/${app.streamId}/agent`);
    const put = await gw.admin(
      'PUT',
      `/api/admin/apps/${app.streamId}/agent`,
      agentWith({
        phone: '{{context.from}}',
        attempts: true,
        size: 'four',
        day: 7,
        vip: 'yes-please',
        colour: 1,
      }),
    );
    expect(put.status).toBe(400);
    const paths = put.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(
      ['attempts', 'colour', 'day', 'size', 'vip'].map((c) => `body.dialogs.welcome.nodes.save.record.${c}`),
    );
    expect(put.body.errors.find((e: { path: string }) => e.path.endsWith('.attempts')).msg).toMatch(/number/);
    expect(put.body.errors.find((e: { path: string }) => e.path.endsWith('.colour')).msg).toMatch(
      /no column colour/,
    );
    expect((await gw.admin('GET', `/api/admin/apps/${app.streamId}/agent`)).body).toEqual(before.body);
  });

  it('when a record value is an object or null, then 400 at its path (only text, numbers and booleans are values)', async () => {
    const put = await gw.admin(
      'PUT',
      `/api/admin/apps/${app.streamId}/agent`,
      agentWith({ phone: '{{context.from}}', attempts: { n: 1 }, size: null }),
    );
    expect(put.status).toBe(400);
    const paths = put.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'body.dialogs.welcome.nodes.save.record.attempts',
        'body.dialogs.welcome.nodes.save.record.size',
      ]),
    );
  });
});
