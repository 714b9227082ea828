import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  createModelConnection,
  importSkillGroup,
  setupIvrApp,
  startGateway,
  type RunningGateway,
} from '../helpers/test-gateway.js';
import { demoAgentDefinition, demoAgentWith } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';

describeEachStore('strict agent and settings', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  const newApp = async (): Promise<string> => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'Strict' });
    await importSkillGroup(gw, app.body.streamId, 'sg-reservations', 'Reservations');
    return app.body.streamId as string;
  };

  it('when a model node names a connection that does not exist, then the agent is refused at its path like a missing skill group', async () => {
    const id = await newApp();
    const r = await gw.admin('PUT', `/api/admin/apps/${id}/agent`, demoAgentDefinition);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      {
        code: 'validation_error',
        path: 'body.dialogs.ask.nodes.answer.connectionId',
        msg: 'Model connection "cn-demo" does not exist',
      },
    ]);
    expect((await gw.admin('GET', `/api/admin/apps/${id}/agent`)).status).toBe(404);
    expect(
      (await gw.admin('PUT', `/api/admin/apps/${id}/agent`, demoAgentWith(await createModelConnection(gw))))
        .status,
    ).toBe(202);
  });

  it('when the agent has a typo in an ivr block and a placeholder naming a missing entity, then both are refused with their paths and nothing is stored', async () => {
    const id = await newApp();
    const good = demoAgentWith(await createModelConnection(gw));
    expect((await gw.admin('PUT', `/api/admin/apps/${id}/agent`, good)).status).toBe(202);
    const typo = structuredClone(good) as any;
    typo.dialogs.book.nodes.size.ivr.timout = '4s';
    typo.dialogs.book.nodes.done.text = 'Your table for {{context.entities.party}} is booked.';
    const r = await gw.admin('PUT', `/api/admin/apps/${id}/agent`, typo);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.dialogs.book.nodes.done.text',
      'body.dialogs.book.nodes.size.ivr.timout',
    ]);
    expect((await gw.admin('GET', `/api/admin/apps/${id}/agent`)).body.dialogs.book.nodes.done.text).toBe(
      good.dialogs.book.nodes.done.text,
    );
  });

  it('when the settings carry an unknown VoiceXML property, then it is refused at its path; a dotted platform property is kept and sent', async () => {
    const app = await setupIvrApp(gw, { name: 'Props' });
    const bad = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, {
      enabled: true,
      vxmlProperties: { timout: '5s' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.vxmlProperties.timout']);
    expect(bad.body.errors[0].msg).toMatch(/unknown VoiceXML property "timout"/);
    const ok = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/ivr-settings`, {
      enabled: true,
      vxmlProperties: { maxspeechtimeout: '20s', 'com.example.recordcall': 'true' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const doc = await gw.submit(app.webhookUrl, { callId: `props-${factory.name}`, message: '' });
    expect(doc.xml).toContain('<property name="com.example.recordcall" value="true"/>');
    expect(doc.xml).toContain('<property name="maxspeechtimeout" value="20s"/>');
  });
});
