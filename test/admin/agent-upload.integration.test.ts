/**
 * The agent upload: size limits answered 413/400 naming the limit, the upload answered at once
 * while its model trains on a worker thread, the live agent answering turns until the new one is
 * ready (on the instance that trains and on another one), the status naming the live version, and
 * an upload whose trainer stopped taken over by another instance.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileAgent, demoAgentWith, loadCompiledAgent } from '../../src/agent/index.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  createModelConnection,
  setupIvrApp,
  startGateway,
  type IvrApp,
  type RunningGateway,
} from '../helpers/test-gateway.js';
import { IvrCall, settled, spokenOf } from '../helpers/ivr-call.js';
import { waitUntilAgentLive } from '../helpers/agent-upload.js';
import { largeAgentDefinition } from '../helpers/large-agent.js';

const PIZZA = 'Pizza order noted.';
const FALLBACK = "Sorry, I didn't get that.";

/** The demo agent plus an intent the demo agent lacks, and enough other intents that training takes a while. */
function agentWithPizza(bytes: number, marker: string): Record<string, any> {
  const agent = largeAgentDefinition(bytes, { marker, base: demo }) as Record<string, any>;
  agent.intents.push({
    name: 'OrderPizza',
    dialog: 'pizza',
    utterances: ['order a pizza', 'i want a pizza delivered', 'pizza for delivery please'],
  });
  agent.dialogs.pizza = { start: 'noted', nodes: { noted: { type: 'end', text: PIZZA } } };
  return agent;
}

/**
 * One fresh call that asks for a pizza: which agent answered it ('old', 'new', or what it said otherwise).
 * The phrase is one the demo agent rejects: "order a pizza" is near its "how much is a pizza" (AskQuestion).
 */
async function probe(gw: RunningGateway, webhookUrl: string): Promise<string> {
  const call = new IvrCall(gw, webhookUrl);
  await call.start();
  const spoken = spokenOf(await call.say('pizza for delivery please'));
  if (call.lastStatus !== 200) throw new Error(`turn answered ${call.lastStatus}`);
  return spoken.includes(PIZZA) ? 'new' : spoken.includes(FALLBACK) ? 'old' : spoken;
}

/** The demo agent on a model connection of the suite's store (set by each suite before its tests). */
let demo: ReturnType<typeof demoAgentWith>;

/** One deployment: every instance opens what another sealed. */
const masterKey = randomBytes(32);

const status = async (gw: RunningGateway, streamId: string) =>
  (await gw.admin('GET', `/api/admin/apps/${streamId}/agent/status`)).body;

describeEachStore('agent upload limits', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  beforeAll(async () => {
    store = await factory.make();
    // the demo agent has 3 intents, 30 utterances and 15 nodes
    gw = await startGateway({
      store,
      config: {
        agentMaxBytes: '8kb',
        bodyLimit: '2kb',
        agentMaxIntents: 4,
        agentMaxUtterances: 35,
        agentMaxNodes: 15,
      },
    });
    demo = demoAgentWith(await createModelConnection(gw));
    app = await setupIvrApp(gw, { agent: demo });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  it('when an agent is larger than AGENT_MAX_BYTES, then 413 names the limit in the contract shape and the live agent stays', async () => {
    const before = await status(gw, app.streamId);
    const big = largeAgentDefinition(9 * 1024);
    const r = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, big);
    expect(r.status).toBe(413);
    expect(r.body.errors).toEqual([
      { msg: 'Request body is larger than 8kb (AGENT_MAX_BYTES)', code: 'payload_too_large' },
    ]);
    expect(await status(gw, app.streamId)).toEqual(before);
    // the agent's own limit, not the service's BODY_LIMIT (2kb), applies to an agent
    expect(JSON.stringify(demo).length).toBeGreaterThan(2 * 1024);
    expect((await gw.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, demo)).status).toBe(202);
  });

  it('when an agent has more intents, utterances or nodes than allowed, then 400 names each limit and its setting', async () => {
    const agent = structuredClone(demo) as Record<string, any>;
    agent.intents.push({
      name: 'Hours',
      dialog: 'fallback',
      utterances: [
        'when are you open',
        'opening times',
        'are you open now',
        'what time do you close',
        'open on monday',
      ],
    });
    agent.intents.push({ name: 'Parking', dialog: 'fallback', utterances: ['where can i park'] });
    agent.dialogs.fallback.nodes.extra = { type: 'message', text: 'More.' };
    agent.dialogs.fallback.nodes.sorry.next = [{ goto: 'extra' }];
    const r = await gw.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, agent);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      {
        msg: 'The agent has 5 intents; at most 4 are allowed (AGENT_MAX_INTENTS)',
        code: 'limit_exceeded',
        path: 'body.intents',
      },
      {
        msg: 'The agent has 36 utterances; at most 35 are allowed (AGENT_MAX_UTTERANCES)',
        code: 'limit_exceeded',
        path: 'body.intents',
      },
      {
        msg: 'The agent has 16 nodes; at most 15 are allowed (AGENT_MAX_NODES)',
        code: 'limit_exceeded',
        path: 'body.dialogs',
      },
    ]);
    agent.intents.pop();
    agent.intents[3].utterances = agent.intents[3].utterances.slice(0, 3);
    delete agent.dialogs.fallback.nodes.extra;
    delete agent.dialogs.fallback.nodes.sorry.next;
    // within every limit: accepted
    expect((await gw.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, agent)).status).toBe(202);
    expect((await waitUntilAgentLive(gw.admin, app.streamId)).state).toBe('ready');
  });
});

describeEachStore('agent training off the event loop', 'api', (factory) => {
  let store: Store;
  let a: RunningGateway;
  let b: RunningGateway;
  beforeAll(async () => {
    store = await factory.make();
    // two instances on one store; the second keeps its agent version for 200 ms between checks
    a = await startGateway({ store, config: { masterKey }, options: { agentTrainingLockMs: 1_000 } });
    b = await startGateway({
      store,
      config: { masterKey, cacheTtlMs: 200 },
      options: { agentTrainingLockMs: 1_000 },
    });
    demo = demoAgentWith(await createModelConnection(a));
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await store.close();
  });

  it('when a new agent is uploaded, then the upload is answered while it trains, turns on both instances keep the live agent until the new one is ready, and the status names the live version', async () => {
    const app = await setupIvrApp(a, { agent: demo });
    const onB = app.webhookUrl.replace(a.url, b.url);
    const v1 = await status(a, app.streamId);
    expect(v1).toMatchObject({ state: 'ready', latestVersion: v1.liveVersion });
    expect(await probe(a, app.webhookUrl)).toBe('old');
    expect(await probe(b, onB)).toBe('old');

    const put = await a.admin(
      'PUT',
      `/api/admin/apps/${app.streamId}/agent`,
      agentWithPizza(80_000, 'tell me about'),
    );
    expect(put.status).toBe(202);
    expect(put.body).toMatchObject({ state: 'training', liveVersion: v1.liveVersion });
    expect(put.body.latestVersion).not.toBe(v1.liveVersion);
    // the new definition is what GET answers; the status says it is not live yet
    expect(
      (await a.admin('GET', `/api/admin/apps/${app.streamId}/agent`)).body.intents.some(
        (i: { name: string }) => i.name === 'OrderPizza',
      ),
    ).toBe(true);

    // turns answered while the status still says "training" were answered by the live (old) agent
    let duringTraining = 0;
    for (;;) {
      const answers = await Promise.all([probe(a, app.webhookUrl), probe(b, onB)]);
      const now = await status(a, app.streamId);
      if (now.state !== 'training') break;
      expect(now).toMatchObject({ liveVersion: v1.liveVersion, latestVersion: put.body.latestVersion });
      expect(answers).toEqual(['old', 'old']);
      duringTraining++;
    }
    expect(duringTraining).toBeGreaterThan(0);
    console.info(
      `[agent-upload] ${duringTraining} probe pairs answered by the old agent while the new one trained`,
    );

    const live = await waitUntilAgentLive(a.admin, app.streamId);
    expect(live).toMatchObject({
      state: 'ready',
      liveVersion: put.body.latestVersion,
      latestVersion: put.body.latestVersion,
    });
    expect(live.liveSince).toBeDefined();
    expect(await probe(a, app.webhookUrl)).toBe('new');
    // the other instance loads the new version in the background, answering with the old one meanwhile
    let answer = await probe(b, onB);
    while (answer === 'old') answer = await probe(b, onB);
    expect(answer).toBe('new');
    expect(b.log.text()).not.toContain('could not load the new agent version');
  });

  it('when the live definition is uploaded again, then nothing trains, the status is ready at once, and an upload still training is dropped', async () => {
    const app = await setupIvrApp(a, { agent: demo });
    const before = await status(a, app.streamId);
    const put = await a.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, demo);
    expect(put.status).toBe(202);
    expect(put.body).toEqual(before);
    // while another upload trains, the live definition again drops that upload
    const other = await a.admin(
      'PUT',
      `/api/admin/apps/${app.streamId}/agent`,
      agentWithPizza(80_000, 'say something about'),
    );
    expect(other.body.state).toBe('training');
    const again = await a.admin('PUT', `/api/admin/apps/${app.streamId}/agent`, demo);
    expect(again.body).toEqual(before);
    expect(await status(a, app.streamId)).toEqual(before);
    expect(await store.exists(storeKeys.agentUpload(app.streamId))).toBe(false);
    expect(
      (await a.admin('GET', `/api/admin/apps/${app.streamId}/agent`)).body.intents.map(
        (i: { name: string }) => i.name,
      ),
    ).toEqual(['BookTable', 'AskQuestion', 'TalkToHuman']);
    expect(a.log.text()).toContain('agent training stopped');
  });

  it('when the stored model was trained from other utterances, then an instance trains it again on a thread, answers with it and stores it', async () => {
    const app = await setupIvrApp(a, { agent: demo });
    const modelKey = storeKeys.agentModel(app.streamId);
    const changed = structuredClone(demo) as { intents: Array<{ utterances: string[] }> };
    changed.intents[0]!.utterances.push('a phrasing the live definition does not have');
    const stale = (await compileAgent(changed)).exportModel();
    await store.set(modelKey, stale);
    // a fresh instance (nothing cached) meets the stale model
    const c = await startGateway({ store, config: { masterKey } });
    try {
      const call = new IvrCall(c, app.webhookUrl.replace(a.url, c.url));
      // the instance trains the model again on a thread first: the call's first turns may wait for it
      await settled(call, await call.start());
      expect(spokenOf(await settled(call, await call.say('book a table')))).toContain('For how many people?');
      // the model stored again is one of the live definition's (loading it checks that)
      const stored = (await store.get(modelKey))!;
      expect(stored).not.toBe(stale);
      const live = (await a.admin('GET', `/api/admin/apps/${app.streamId}/agent`)).body as unknown;
      expect(() => loadCompiledAgent(live, stored)).not.toThrow();
    } finally {
      await c.close();
    }
    // training again on a thread takes a while on a loaded machine
  }, 90_000);

  it('when the instance training an upload stops, then another instance takes the upload over and makes it live', async () => {
    const c = await startGateway({ store, config: { masterKey }, options: { agentTrainingLockMs: 1_000 } });
    const app = await setupIvrApp(c, { agent: demo });
    const put = await c.admin(
      'PUT',
      `/api/admin/apps/${app.streamId}/agent`,
      agentWithPizza(80_000, 'ask me about'),
    );
    expect(put.body.state).toBe('training');
    await c.close();
    expect(c.log.text()).toContain('agent training stopped');
    // b reads the status, finds the upload without a trainer, and trains it
    const live = await waitUntilAgentLive(b.admin, app.streamId);
    expect(live.liveVersion).toBe(put.body.latestVersion);
    expect(b.log.text()).toContain('training an agent upload whose trainer stopped');
    expect(await probe(b, app.webhookUrl.replace(c.url, b.url))).toBe('new');
  });
});
