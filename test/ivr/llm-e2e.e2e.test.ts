import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, kindOf, spokenOf } from '../helpers/ivr-call.js';
import { demoAgentDefinition } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';

/** A local stand-in for a model provider: a chat-completions endpoint with a configurable delay. */
async function startModelStub() {
  const seen: Array<{ headers: Record<string, unknown>; body: any }> = [];
  let delayMs = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      seen.push({ headers: req.headers, body });
      setTimeout(() => {
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ message: { content: 'We are open from noon to eleven, every day.' } }],
            usage: { prompt_tokens: 21, completion_tokens: 9 },
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
    seen,
    setDelay: (ms: number) => (delayMs = ms),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describeEachStore('IVR call through an llm node', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;
  let stub: Awaited<ReturnType<typeof startModelStub>>;

  beforeAll(async () => {
    store = await factory.make();
    stub = await startModelStub();
    gw = await startGateway({ store, config: { allowPrivateModelEndpoints: true, turnDeadlineMs: 400 } });
    const key = await gw.admin('POST', '/api/admin/api-keys', {
      name: 'k',
      scopes: ['connections:manage', 'connections:view'],
    });
    const conn = await fetch(`${gw.url}/api/public/connections`, {
      method: 'POST',
      headers: { 'x-api-key': key.body.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        provider: 'API',
        connectionName: 'Local model',
        model: 'stub-1',
        fields: {},
        promptVars: [],
        customVars: [],
        endpointUrl: stub.url,
        headers: [{ key: 'Authorization', value: 'Bearer sk-stub-0123456789abcdefghij' }],
        payload: { model: 'stub-1', max_tokens: 100, messages: [{ role: 'user', content: '{{prompt}}' }] },
        outputPath: 'choices[0].message.content',
        inputTokensPath: 'usage.prompt_tokens',
        outputTokensPath: 'usage.completion_tokens',
        status: 'FINALIZED',
        isEnable: true,
      }),
    });
    const created = (await conn.json()) as { connectionId: string };
    expect(conn.status).toBe(201);
    const agent = structuredClone(demoAgentDefinition) as any;
    agent.dialogs.ask.nodes.answer.connectionId = created.connectionId;
    app = await setupIvrApp(gw, { agent });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await stub.close();
    await store.close();
  });

  /**
   * Polls through the wait documents of a turn that took longer than the deadline on a loaded
   * machine (the contract's answer to a slow turn), up to a bound, and answers the document after.
   */
  async function settled(call: IvrCall, doc: string): Promise<string> {
    for (let i = 0; i < 20 && kindOf(doc) === 'wait'; i++) doc = await call.event('poll');
    return doc;
  }

  async function askQuestion(): Promise<IvrCall> {
    const call = new IvrCall(gw, app.webhookUrl);
    await settled(call, await call.start());
    const first = await settled(call, await call.say('what are your opening hours'));
    expect(kindOf(first)).toBe('say');
    expect(spokenOf(first)).toContain('Let me check that for you.');
    return call;
  }

  it("when the caller asks a question, then the model's answer is spoken in the next document", async () => {
    stub.setDelay(0);
    const call = await askQuestion();
    const answer = await settled(call, await call.event('continue'));
    expect(kindOf(answer)).toBe('ask');
    expect(spokenOf(answer)).toContain('We are open from noon to eleven, every day.');
    const sent = stub.seen.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-stub-0123456789abcdefghij');
    expect(JSON.stringify(sent.body.messages)).toContain('what are your opening hours');
  });

  it('when the model is slower than the turn deadline, then the caller gets wait documents and the answer exactly once after', async () => {
    stub.setDelay(1_000);
    const calls = stub.seen.length;
    const call = await askQuestion();
    const wait1 = await call.event('continue');
    expect(kindOf(wait1)).toBe('wait');
    expect(wait1).toContain('expr="\'poll\'"');
    const kinds: string[] = ['wait'];
    let doc = wait1;
    for (let i = 0; i < 10 && kindOf(doc) === 'wait'; i++) {
      doc = await call.event('poll');
      kinds.push(kindOf(doc));
    }
    expect(kinds.filter((k) => k === 'wait').length).toBeGreaterThanOrEqual(2);
    expect(spokenOf(doc)).toContain('We are open from noon to eleven');
    const again = await call.event('poll', { turn: String(Number(call.turn) - 1) });
    expect(again).toBe(doc);
    expect(stub.seen.length).toBe(calls + 1);
  });
});
