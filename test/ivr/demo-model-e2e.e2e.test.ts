/**
 * The self-contained demo: the local demo model (sandbox/demo-model.ts) as the model provider, the
 * demo agent's model node on a connection to it (created as demo:setup does), and a caller's
 * question answered from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { demoAgentWith } from '../../src/agent/index.js';
import { createDemoConnection } from '../../sandbox/demo-connection.js';
import { demoAnswer, startDemoModel, type DemoModel } from '../../sandbox/demo-model.js';
import { IvrCall, kindOf, spokenOf } from '../helpers/ivr-call.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

describe('the demo with its local model', () => {
  let model: DemoModel;
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    model = await startDemoModel();
    gw = await startGateway({
      store: new MemoryStore(testPrefix()),
      config: { allowPrivateModelEndpoints: true },
    });
    app = await setupIvrApp(gw, {
      agent: demoAgentWith(await createDemoConnection(gw.url, gw.config.adminToken, model.url)),
    });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await model.close();
  });

  it('when a caller asks about opening hours, then the answer comes from the demo model', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    expect(spokenOf(await call.say('what are your opening hours'))).toContain('Let me check that for you.');
    let doc = await call.event('continue');
    for (let i = 0; i < 10 && kindOf(doc) === 'wait'; i++) doc = await call.event('poll');
    expect(spokenOf(doc)).toContain(demoAnswer('opening hours'));
  });

  it('when the demo model is asked something it does not know, then it says so instead of inventing', () => {
    expect(demoAnswer('can I pay with bitcoin')).toMatch(/not sure/);
  });
});
