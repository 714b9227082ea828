/**
 * Side effects happen once per turn, when the instance running a turn is killed (SIGKILL) in the
 * middle of it and another instance resumes the turn. The turn: a model call (a real local model
 * server), then a table node that inserts the question and the answer, then the answer read back.
 * The instance reaches Redis through a gate (command-gate.ts) that holds back the first command of
 * a chosen step, so the kill lands at an exact point however fast or slow the machine: after the
 * model answered and before the table node wrote anything, or after the row was written and before
 * the turn committed. Either way the model is called once (the resumed turn uses the answer stored
 * with the turn) and the table has one row (the resumed insert finds the row by its key).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAgentDefinition } from '../../src/agent/index.js';
import { RedisStore, storeKeys } from '../../src/store/index.js';
import { startStubModelServer, type StubModelServer } from '../connections/stub-model-server.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';
import { expectHistory } from './booking-call.js';
import { startCommandGate, type CommandGate } from './command-gate.js';
import {
  createModelConnection,
  deleteKeys,
  provisionIvrApp,
  sharedEnv,
  startGatewayProcess,
  type GatewayProcess,
  type ProvisionedApp,
} from './gateway-processes.js';
import { parseDocument, RoundRobinClient, type ParsedDocument } from './scripted-browser.js';

const ANSWER = 'We are open from noon to eleven, every day.';
const QUESTION = 'what are your opening hours';
const FROM = '+15550001111';
/** A poll is held until the turn deadline: this many waits means the turn never resumed. */
const MAX_WAITS = 30;

describe.skipIf(!inject('redisAvailable'))('side effects once per turn across a SIGKILL', () => {
  const redisUrl = new URL(inject('redisUrl'));
  const table = `questions_${Math.random().toString(36).slice(2, 10)}`;
  let env: Record<string, string>;
  let gate: CommandGate;
  let survivor: GatewayProcess;
  let stub: StubModelServer;
  let store: RedisStore;
  let app: ProvisionedApp;
  const victims: GatewayProcess[] = [];

  beforeAll(async () => {
    stub = await startStubModelServer();
    stub.reply(() => ({
      json: {
        choices: [{ message: { content: ANSWER } }],
        usage: { prompt_tokens: 10, completion_tokens: 10 },
      },
    }));
    env = sharedEnv(redisUrl.toString(), { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' });
    gate = await startCommandGate({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    survivor = await startGatewayProcess('survivor', env);
    store = await RedisStore.connect({ url: redisUrl.toString(), prefix: env.KEY_PREFIX! });
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${survivor.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    };
    app = await provisionIvrApp(survivor.url, env.ADMIN_TOKEN!);
    await admin('PUT', `/api/admin/tables/${table}`, {
      columns: [
        { name: 'question', type: 'string', maxLength: 500 },
        { name: 'answer', type: 'string', maxLength: 2000 },
      ],
      access: { [app.streamId]: { read: true, write: true } },
    });
    const connectionId = await createModelConnection(
      survivor.url,
      env.ADMIN_TOKEN!,
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
    await putAgentAndWait(admin, app.streamId, agent);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([survivor, ...victims].map((g) => g?.proc.stop('SIGTERM')));
    await gate?.close();
    await stub?.close();
    await store?.close();
    if (env) await deleteKeys(redisUrl.toString(), env.KEY_PREFIX!);
  }, 30_000);

  const rows = () => store.zcard(storeKeys.tableRows(table));

  /** A call on the survivor up to the say document before the model turn ("Let me check that for you."). */
  async function callBeforeModelTurn(client: RoundRobinClient, callId: string): Promise<ParsedDocument> {
    const welcome = parseDocument(
      (await client.post(app.webhookPath, { callId, message: '', from: FROM, to: 'agent' }, survivor.url))
        .xml,
    );
    const say = parseDocument(
      (
        await client.post(
          welcome.submit!.path,
          {
            callId,
            from: FROM,
            turn: welcome.vars.turn!,
            message: QUESTION,
            interpretation: QUESTION,
            confidence: '0.9',
            inputmode: 'voice',
          },
          survivor.url,
        )
      ).xml,
    );
    expect(say.spoken).toContain('Let me check that for you.');
    return say;
  }

  /**
   * Sends the model turn to a fresh victim instance (Redis through the gate, held at `marker`),
   * kills it once the gate held that command, then lets the browser go on with the survivor: its
   * fetch retry, then its polls until the resumed turn answers.
   */
  async function killAt(marker: string, callId: string, atKill: () => Promise<void>) {
    const victimId = `victim-${victims.length}`;
    const victim = await startGatewayProcess(victimId, {
      ...env,
      REDIS_URL: gate.url,
      INSTANCE_ID: victimId,
    });
    victims.push(victim);
    const client = new RoundRobinClient([survivor.url]);
    const say = await callBeforeModelTurn(client, callId);
    const models = stub.requests.length;
    const rowsBefore = await rows();
    const held = gate.holdAt(marker);
    const inFlight = client
      .post(say.submit!.path, { callId, turn: say.vars.turn!, event: 'continue' }, victim.url)
      .catch((e: Error) => e);
    await held;
    await atKill();
    victim.proc.signal('SIGKILL');
    expect(await victim.proc.exited).toBe(137);
    expect(await inFlight).toBeInstanceOf(Error);
    let doc = parseDocument(
      (await client.post(say.submit!.path, { callId, turn: say.vars.turn!, event: 'continue' })).xml,
    );
    let waits = 0;
    while (doc.kind === 'wait' && waits < MAX_WAITS) {
      waits++;
      doc = parseDocument(
        (
          await client.post(
            doc.submit!.path,
            Object.fromEntries(doc.submit!.namelist.map((n) => [n, doc.vars[n] ?? ''])),
          )
        ).xml,
      );
    }
    expect(doc.kind).toBe('ask');
    expect(doc.spoken).toContain(ANSWER);
    expect(survivor.proc.output()).toContain('resuming a turn whose owner stopped');
    // the model was called once, by the victim; the table has one row more, the turn's
    expect(stub.requests.length).toBe(models + 1);
    expect(await rows()).toBe(rowsBefore + 1);
    const stored = await store.zrange(storeKeys.tableRows(table), -1, -1);
    const row = JSON.parse((await store.get(storeKeys.tableRow(table, stored[0]!.member)))!);
    expect(row.record).toMatchObject({ question: QUESTION, answer: ANSWER, Created_By: app.streamId });
    await expectHistory(survivor.url, app, callId, [
      { turn: 0, type: 'outgoing', text: /^Welcome to Luigi's/ },
      { turn: 1, type: 'incoming', text: QUESTION },
      { turn: 1, type: 'outgoing', text: 'Let me check that for you.' },
      { turn: 2, type: 'outgoing', text: `${ANSWER} Is there anything else I can help with?` },
    ]);
    // the call inspector's timeline: the turn run again by the survivor, the model's answer reused
    const timeline = (await (
      await fetch(`${survivor.url}/api/admin/apps/${app.streamId}/calls/${callId}`, {
        headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}` },
      })
    ).json()) as {
      turns: Array<{
        turn: number;
        instance: string;
        marks: string[];
        modelCalls?: Array<{ outcome: string }>;
      }>;
    };
    // the turn run again, as committed; on a slow machine the request that resumed it may also have
    // answered a wait document first (its trace marked resumed and wait), and the turn's answer went out late
    const resumed = timeline.turns.filter((t) => t.marks.includes('resumed') && !t.marks.includes('wait'));
    expect(resumed.map((t) => t.turn)).toEqual([Number(say.vars.turn)]);
    expect(resumed[0]!.instance).not.toBe(victimId);
    expect(resumed[0]!.modelCalls?.map((m) => m.outcome)).toEqual(['reused']);
    expect(timeline.turns.some((t) => t.instance === victimId)).toBe(false); // the victim died before its commit
    console.info(`[effects-once] killed at ${marker}; resumed after ${waits} wait documents`);
    return { rowsBefore };
  }

  it('when the instance is killed after the model answered and before the table node wrote, then the resumed turn reuses the answer: the model is called once, the table has one row and the inspector shows the turn resumed', async () => {
    const callId = `call-effects-a-${env.KEY_PREFIX}`;
    let atKill = { rows: -1, kept: false };
    await killAt(`{t:${table}}`, callId, async () => {
      const session = await store.get(storeKeys.callSession(app.streamId, callId));
      // the answer is stored with the pending turn; nothing is in the table yet
      atKill = { rows: await rows(), kept: session?.includes(ANSWER) ?? false };
    });
    expect(atKill.kept).toBe(true);
    expect(atKill.rows).toBe(0);
  }, 90_000);

  it('when the instance is killed after the table row was written and before the turn committed, then the resumed turn finds its row: the model is called once and the table has one row more', async () => {
    const callId = `call-effects-b-${env.KEY_PREFIX}`;
    let rowsAtKill = -1;
    // the turn's commit is the first write of its history messages
    const { rowsBefore } = await killAt(`{a:${app.streamId}}:msg:`, callId, async () => {
      rowsAtKill = await rows();
    });
    // the victim's insert had landed: the resumed insert found that row
    expect(rowsAtKill).toBe(rowsBefore + 1);
  }, 90_000);
});
