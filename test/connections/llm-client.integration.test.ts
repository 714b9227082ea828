import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  createConnectionsComponent,
  LlmError,
  type ConnectionsComponent,
} from '../../src/connections/index.js';
import type { Store } from '../../src/store/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { startStubModelServer, type StubModelServer } from './stub-model-server.js';
import {
  ALL_SECRETS,
  EXISTING_HEADER_SECRET,
  HEADER_SECRET,
  KEY_A,
  KEY_B,
  KEY_C,
  apiDefaultBody,
  apiExistingBody,
  hostedABody,
  hostedBBody,
  hostedCBody,
} from './connection-fixtures.js';

const BASE = '/api/public/connections';
const chatAnswer = (text: string) => ({
  choices: [{ message: { role: 'assistant', content: text } }],
  usage: { prompt_tokens: 11, completion_tokens: 7 },
});

async function failure(p: Promise<unknown>): Promise<LlmError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

describeEachStore('LLM port over model connections', 'api', (factory) => {
  let store: Store;
  let stub: StubModelServer;
  let t: TestApp;
  let comp: ConnectionsComponent;
  /** Same store, ALLOW_PRIVATE_MODEL_ENDPOINTS off, and a resolver that maps test names. */
  let strict: ConnectionsComponent;
  let key: string;
  const complete = (
    connectionId: string,
    prompt = 'Do you have a table for two?',
    extra: { system?: string; timeoutMs?: number; signal?: AbortSignal } = {},
  ) => comp.llm.complete({ streamId: 'st-test', connectionId, prompt, timeoutMs: 2000, ...extra });
  const create = async (body: unknown): Promise<string> =>
    (
      await request(t.app)
        .post(BASE)
        .set('x-api-key', key)
        .send(body as object)
        .expect(201)
    ).body.connectionId as string;

  beforeAll(async () => {
    store = await factory.make();
    stub = await startStubModelServer();
    t = buildTestApp({
      store,
      config: { allowPrivateModelEndpoints: true },
      routes: (deps) => {
        comp = createConnectionsComponent({
          ...deps,
          providerBaseUrls: {
            HostedModelA: `${stub.url}/a/v1`,
            HostedModelB: `${stub.url}/b`,
            HostedModelC: `${stub.url}/c/v1/`,
          },
          lookup: async (host) => (host === 'pinned-model.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
        });
        return comp.routes;
      },
    });
    strict = createConnectionsComponent({
      config: { ...t.config, allowPrivateModelEndpoints: false },
      store,
      sealer: t.sealer,
      logger: t.logger,
      metrics: t.metrics,
      lookup: async (host) =>
        host === 'rebind.example.com'
          ? [
              { address: '93.184.216.34', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ]
          : [{ address: '93.184.216.34', family: 4 }],
    });
    key = await t.createApiKey(['connections:view', 'connections:manage']);
  });
  afterAll(async () => {
    await stub.close();
    await store.close();
  });

  describe('custom API connections', () => {
    it('when called, then the payload template is filled structurally, the headers are sent and the paths are read', async () => {
      const id = await create(apiDefaultBody(`${stub.url}/custom/chat?x=1`));
      stub.reply(() => ({ json: chatAnswer('We do, at eight.') }));
      stub.requests.length = 0;
      const prompt = 'Table for "two" {{persona}}\nplease';
      const r = await complete(id, prompt);
      expect(r).toEqual({ text: 'We do, at eight.', inputTokens: 11, outputTokens: 7 });
      const sent = stub.requests[0]!;
      expect(sent.url).toBe('/custom/chat?x=1');
      expect(sent.headers.authorization).toBe(`Bearer ${HEADER_SECRET}`);
      expect(sent.headers['x-team']).toBe('voice');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.body).toEqual({
        model: 'custom-1',
        max_tokens: 64,
        temperature: 0.2,
        messages: [
          { role: 'system', content: 'You are a friendly waiter.' },
          { role: 'user', content: `Question: ${prompt}` },
        ],
      });
    });

    it('when the last user message has no placeholder, then the prompt becomes its content and a system text is put first', async () => {
      const id = await create(
        apiDefaultBody(`${stub.url}/custom/plain`, {
          promptVars: [],
          payload: {
            model: 'custom-1',
            max_tokens: 10,
            messages: [{ role: 'user', content: 'placeholder-free text' }],
          },
        }),
      );
      stub.requests.length = 0;
      await complete(id, 'What time is it?', { system: 'Be brief.' });
      expect((stub.requests[0]!.body as { messages: unknown }).messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What time is it?' },
      ]);
    });

    it('when the existing-provider variant maps to the messages shape, then that wire format is used at endpointUrl', async () => {
      const id = await create(apiExistingBody(`${stub.url}/mapped/messages`));
      stub.reply(() => ({
        json: {
          content: [
            { type: 'text', text: 'Mapped ' },
            { type: 'text', text: 'answer' },
          ],
          usage: { input_tokens: 3, output_tokens: 2 },
        },
      }));
      stub.requests.length = 0;
      expect(await complete(id, 'hello', { system: 'sys' })).toEqual({
        text: 'Mapped answer',
        inputTokens: 3,
        outputTokens: 2,
      });
      const sent = stub.requests[0]!;
      expect(sent.url).toBe('/mapped/messages');
      expect(sent.headers['api-key']).toBe(EXISTING_HEADER_SECRET);
      expect(sent.body).toMatchObject({
        model: 'mapped-model',
        system: 'sys',
        messages: [{ role: 'user', content: 'hello' }],
      });
    });

    it('when no header carries a credential but fields.API_KEY is set, then it is sent as a bearer token', async () => {
      const id = await create(
        apiDefaultBody(`${stub.url}/custom/fieldkey`, { headers: [], fields: { API_KEY: KEY_C } }),
      );
      stub.reply(() => ({ json: chatAnswer('ok') }));
      stub.requests.length = 0;
      await complete(id);
      expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${KEY_C}`);
    });

    it('when the existing-provider variant maps to vendorDModel, then the generate-content format is used', async () => {
      const id = await create(
        apiExistingBody(`${stub.url}/mapped/generate`, { mapProvider: 'vendorDModel' }),
      );
      stub.reply(() => ({
        json: {
          candidates: [{ content: { parts: [{ text: 'From D' }] } }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1 },
        },
      }));
      stub.requests.length = 0;
      expect(await complete(id, 'hello')).toEqual({ text: 'From D', inputTokens: 2, outputTokens: 1 });
      expect(stub.requests[0]!.body).toMatchObject({
        contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      });
    });

    it('when the existing-provider variant has no textToText mapping, then LlmError unsupported and nothing is sent', async () => {
      const id = await create(apiExistingBody(`${stub.url}/mapped/image`, { IOMappings: ['textToImage'] }));
      stub.requests.length = 0;
      expect((await failure(complete(id))).code).toBe('unsupported');
      expect(stub.requests).toHaveLength(0);
    });

    it('when the host name resolves (through the guard) to an address, then the request connects to that address', async () => {
      const id = await create(apiDefaultBody(`http://pinned-model.test:${stub.port}/pinned`));
      stub.reply(() => ({ json: chatAnswer('pinned') }));
      stub.requests.length = 0;
      expect((await complete(id)).text).toBe('pinned');
      expect(stub.requests[0]!.headers.host).toBe(`pinned-model.test:${stub.port}`);
    });
  });

  describe('hosted providers', () => {
    it('when a HostedModelA connection is called, then a chat-completions request with the bearer key goes to its base URL', async () => {
      const id = await create(hostedABody());
      stub.reply(() => ({ json: chatAnswer('From A') }));
      stub.requests.length = 0;
      expect(await complete(id, 'hi', { system: 'Be kind.' })).toEqual({
        text: 'From A',
        inputTokens: 11,
        outputTokens: 7,
      });
      const sent = stub.requests[0]!;
      expect(sent.url).toBe('/a/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${KEY_A}`);
      expect(sent.body).toEqual({
        model: 'model-a-mini',
        messages: [
          { role: 'system', content: 'Be kind.' },
          { role: 'user', content: 'hi' },
        ],
      });
    });

    it('when a HostedModelB connection is called, then the deployment URL carries api-version and the api-key header', async () => {
      const id = await create(hostedBBody());
      stub.reply(() => ({ json: chatAnswer('From B') }));
      stub.requests.length = 0;
      expect((await complete(id)).text).toBe('From B');
      const sent = stub.requests[0]!;
      expect(sent.url).toBe('/b/openai/deployments/dep-1/chat/completions?api-version=2024-05-01-preview');
      expect(sent.headers['api-key']).toBe(KEY_B);
      expect((sent.body as { messages: unknown[] }).messages).toEqual([
        { role: 'user', content: 'Do you have a table for two?' },
      ]);
    });

    it('when a HostedModelC connection is called, then a messages request with x-api-key and a version header is sent', async () => {
      const id = await create(hostedCBody());
      stub.reply(() => ({
        json: { content: [{ type: 'text', text: 'From C' }], usage: { input_tokens: 5, output_tokens: 4 } },
      }));
      stub.requests.length = 0;
      expect(await complete(id, 'hey', { system: 'sys' })).toEqual({
        text: 'From C',
        inputTokens: 5,
        outputTokens: 4,
      });
      const sent = stub.requests[0]!;
      expect(sent.url).toBe('/c/v1/messages');
      expect(sent.headers['x-api-key']).toBe(KEY_C);
      expect(sent.headers['anthropic-version']).toBeDefined();
      expect(sent.body).toMatchObject({
        model: 'model-c-sonnet',
        system: 'sys',
        max_tokens: expect.any(Number),
        messages: [{ role: 'user', content: 'hey' }],
      });
    });

    it('when the key of a hosted connection was patched, then calls use the new key', async () => {
      const id = await create(hostedABody());
      const newKey = 'sk-rotated-aaaabbbbccccddddROTA';
      await request(t.app)
        .patch(`${BASE}/${id}`)
        .set('x-api-key', key)
        .send({ fields: { API_KEY: newKey } })
        .expect(200);
      stub.reply(() => ({ json: chatAnswer('rotated') }));
      stub.requests.length = 0;
      await complete(id);
      expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${newKey}`);
    });
  });

  describe('failures', () => {
    let apiId: string;
    beforeAll(async () => {
      apiId = await create(apiDefaultBody(`${stub.url}/custom/fail`));
    });

    it('when the model is slower than timeoutMs, then LlmError timeout soon after the deadline', async () => {
      stub.reply(() => ({ json: chatAnswer('late'), delayMs: 1500 }));
      const started = Date.now();
      const e = await failure(complete(apiId, 'slow', { timeoutMs: 150 }));
      expect(e.code).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('when the caller aborts, then LlmError timeout', async () => {
      stub.reply(() => ({ json: chatAnswer('late'), delayMs: 1500 }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      expect((await failure(complete(apiId, 'slow', { signal: controller.signal }))).code).toBe('timeout');
    });

    it('when the model answers non-2xx, then LlmError http_status with the status', async () => {
      stub.reply(() => ({ status: 503, json: { error: { message: `bad key ${HEADER_SECRET}` } } }));
      const e = await failure(complete(apiId));
      expect(e).toMatchObject({ code: 'http_status', status: 503 });
      expect(e.message).not.toContain(HEADER_SECRET);
    });

    it('when the answer lacks the output path, then LlmError bad_answer', async () => {
      stub.reply(() => ({ json: { result: 'elsewhere' } }));
      expect((await failure(complete(apiId))).code).toBe('bad_answer');
    });

    it('when the answer is not JSON, then LlmError bad_answer', async () => {
      stub.reply(() => ({ text: 'hello' }));
      expect((await failure(complete(apiId))).code).toBe('bad_answer');
    });

    it('when a hosted provider answers without choices, then LlmError bad_answer', async () => {
      const id = await create(hostedABody());
      stub.reply(() => ({ json: { choices: [] } }));
      expect((await failure(complete(id))).code).toBe('bad_answer');
    });

    it('when the connection is unknown or INACTIVE, then LlmError not_found or inactive', async () => {
      expect((await failure(complete('cn-00000000-0000-0000-0000-000000000000'))).code).toBe('not_found');
      const off = await create(apiDefaultBody(`${stub.url}/custom/off`, { isEnable: false }));
      expect((await failure(complete(off))).code).toBe('inactive');
    });

    it('when nothing listens at the endpoint, then LlmError network', async () => {
      const id = await create(apiDefaultBody('http://127.0.0.1:1/nothing'));
      expect((await failure(complete(id))).code).toBe('network');
    });
  });

  describe('private endpoints at call time (flag off)', () => {
    const strictCall = (connectionId: string) =>
      strict.llm.complete({ streamId: 'st-test', connectionId, prompt: 'hi', timeoutMs: 2000 });

    it('when a stored connection points to a loopback address, then LlmError private_endpoint and no request is sent', async () => {
      const literal = await create(apiDefaultBody(`${stub.url}/custom/private`));
      const named = await create(apiDefaultBody(`http://localhost:${stub.port}/custom/private`));
      stub.requests.length = 0;
      expect((await failure(strictCall(literal))).code).toBe('private_endpoint');
      expect((await failure(strictCall(named))).code).toBe('private_endpoint');
      expect(stub.requests).toHaveLength(0);
    });

    it('when a public-looking name resolves to a private address among others, then LlmError private_endpoint', async () => {
      const r = await request(t.app)
        .post(BASE)
        .set('x-api-key', key)
        .send(apiDefaultBody('http://rebind.example.com/v1/chat'))
        .expect(201);
      expect((await failure(strictCall(r.body.connectionId))).code).toBe('private_endpoint');
    });

    it('when a hosted provider is called with the flag off, then its operator-configured base URL is not refused', async () => {
      const hosted = createConnectionsComponent({
        config: { ...t.config, allowPrivateModelEndpoints: false },
        store,
        sealer: t.sealer,
        logger: t.logger,
        metrics: t.metrics,
        providerBaseUrls: { HostedModelA: `${stub.url}/a/v1` },
      });
      const id = await create(hostedABody());
      stub.reply(() => ({ json: chatAnswer('hosted ok') }));
      expect(
        (await hosted.llm.complete({ streamId: 'st-test', connectionId: id, prompt: 'hi', timeoutMs: 2000 }))
          .text,
      ).toBe('hosted ok');
    });
  });

  it('when the suite is over, then no raw secret appeared in the log', () => {
    const log = t.log.text();
    expect(log).toContain('model call failed');
    for (const s of [...ALL_SECRETS, 'sk-rotated-aaaabbbbccccddddROTA']) expect(log).not.toContain(s);
  });
});
