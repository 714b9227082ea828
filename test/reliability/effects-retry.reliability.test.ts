/**
 * Side effects happen once per turn when a turn meets a store fault in its middle and is sent
 * again by the retry document. The turn: a model call (a real local model server), then a table
 * node, then the answer read back. The service reaches Redis through a gate (command-gate.ts) that
 * holds back the table node's first command: it times out (a store fault) after the model answer
 * was stored with the turn, the caller gets the retry document, and the turn runs again once the
 * client has a connection again. The run again reuses the stored answer (the model is called once)
 * and writes one row.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { RedisStore, storeKeys } from '../../src/store/index.js';
import { startStubModelServer, type StubModelServer } from '../connections/stub-model-server.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';
import { testPrefix } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { startCommandGate, type CommandGate } from './command-gate.js';
import { createModelConnection } from './gateway-processes.js';
import { parseDocument, RoundRobinClient } from './scripted-browser.js';

const ANSWER = 'We are open from noon to eleven, every day.';
const QUESTION = 'what are your opening hours';
const FROM = '+15550001111';
/** Documents the caller may follow before the turn answers: far more than a recovery takes. */
const MAX_DOCS = 60;

describe.skipIf(!inject('redisAvailable'))('side effects once per turn across a store fault', () => {
  const redisUrl = new URL(inject('redisUrl'));
  const table = `questions_${Math.random().toString(36).slice(2, 10)}`;
  let gate: CommandGate;
  let store: RedisStore;
  let gw: RunningGateway;
  let stub: StubModelServer;
  let app: IvrApp;

  beforeAll(async () => {
    stub = await startStubModelServer();
    stub.reply(() => ({ json: { choices: [{ message: { content: ANSWER } }] } }));
    gate = await startCommandGate({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    store = await RedisStore.connect({ url: gate.url, prefix: testPrefix() });
    // a deadline past the store's command timeout: the fault, not the deadline, ends the first run
    gw = await startGateway({ store, config: { turnDeadlineMs: 10_000, allowPrivateModelEndpoints: true } });
    app = await setupIvrApp(gw);
    const def = await gw.admin('PUT', `/api/admin/tables/${table}`, {
      columns: [
        { name: 'question', type: 'string', maxLength: 500 },
        { name: 'answer', type: 'string', maxLength: 2000 },
      ],
      access: { [app.streamId]: { read: true, write: true } },
    });
    expect(def.status).toBe(200);
    const connectionId = await createModelConnection(
      gw.url,
      gw.config.adminToken,
      `${stub.url}/v1/chat/completions`,
    );
    const agent = structuredClone(demoAgentDefinition) as any;
    const ask = agent.dialogs.ask.nodes;
    Object.assign(ask.answer, {
      connectionId,
      timeoutMs: 20_000,
      next: [{ when: 'context.answerError', goto: 'more' }, { goto: 'save' }],
    });
    ask.save = {
      type: 'table',
      table,
      record: { question: '{{session.BotUserSession.lastMessage.text}}', answer: '{{context.answer}}' },
      next: [{ goto: 'readBack' }],
    };
    await putAgentAndWait(gw.admin, app.streamId, agent);
  }, 60_000);

  afterAll(async () => {
    await gw?.close();
    await store?.close();
    await gate?.close();
    await stub?.close();
  }, 30_000);

  it('when the table node meets a store fault after the model answered, then the retried turn reuses the answer: the model is called once and the table has one row', async () => {
    const client = new RoundRobinClient([gw.url]);
    const path = new URL(app.webhookUrl).pathname + new URL(app.webhookUrl).search;
    const callId = `call-effects-retry-${Date.now()}`;
    const welcome = parseDocument(
      (await client.post(path, { callId, message: '', from: FROM, to: 'agent' })).xml,
    );
    const say = parseDocument(
      (
        await client.post(welcome.submit!.path, {
          callId,
          from: FROM,
          turn: welcome.vars.turn!,
          message: QUESTION,
          interpretation: QUESTION,
          confidence: '0.9',
          inputmode: 'voice',
        })
      ).xml,
    );
    expect(say.spoken).toContain('Let me check that for you.');

    const held = gate.holdAt(`{t:${table}}`);
    let doc = parseDocument(
      (await client.post(say.submit!.path, { callId, turn: say.vars.turn!, event: 'continue' })).xml,
    );
    await held;
    const followed = [doc];
    while (doc.kind === 'wait' && followed.length < MAX_DOCS) {
      doc = parseDocument(
        (
          await client.post(
            doc.submit!.path,
            Object.fromEntries(doc.submit!.namelist.map((n) => [n, doc.vars[n] ?? ''])),
          )
        ).xml,
      );
      followed.push(doc);
    }
    // the first run ended in the store fault: the caller got the retry document, and went on
    expect(followed[0]!.kind).toBe('wait');
    expect(followed[0]!.vars.retry).toBe('1');
    expect(doc.kind).toBe('ask');
    expect(doc.spoken).toContain(ANSWER);
    expect(stub.requests).toHaveLength(1);
    const rows = await store.zrange(storeKeys.tableRows(table), 0, -1);
    expect(rows).toHaveLength(1);
    const row = JSON.parse((await store.get(storeKeys.tableRow(table, rows[0]!.member)))!);
    expect(row.record).toMatchObject({ question: QUESTION, answer: ANSWER });
    await assertValidVxml(client.faultDocuments);
    console.info(`[effects-retry] the turn answered after ${followed.length - 1} retry and wait documents`);
  }, 60_000);
});
