/**
 * Lone UTF-16 surrogates (a JSON `\ud800` escape is the only way to send one: urlencoded,
 * multipart and query decoding turn bad UTF-8 into U+FFFD) reach places that encode ids with
 * encodeURIComponent, which throws on them. Each case below was found by the fuzzers; each test
 * fixes the expected behaviour: refused with a 4xx at the door, or handled, never a 5xx or the
 * internal_error apology on a call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer } from './answer-rules.js';
import { send } from './raw-http.js';
import { startSecurityGateway, type SecurityFixture } from './security-fixture.js';
import { putAgentAndWait } from '../helpers/agent-upload.js';

const INTERNAL_ERROR = 'expr="\'internal_error\'"';

describe('lone surrogates and other ill-formed text', () => {
  let fx: SecurityFixture;

  beforeAll(async () => {
    fx = await startSecurityGateway();
  });
  afterAll(async () => {
    await fx.gw.docs.validateAll();
    await fx.close();
  });

  const hook = () => `/ivr/hooks/${fx.ivr.streamId}?token=${encodeURIComponent(fx.ivr.token)}`;
  const json = (path: string, headers: Record<string, string>, body: string) =>
    send(fx.gw.url, {
      method: 'POST',
      path,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body,
    });

  it('when history filters (userId, sessionId, callId, tags) carry a lone surrogate, then a 4xx or an empty page, never a 500', async () => {
    const bodies = [
      '{"userId":"\\ud800"}',
      '{"sessionId":"\\udc4b"}',
      '{"sessionId":["a\\ud92a"]}',
      '{"callId":"\\ud800"}',
      '{"tags":{"\\ud800":"x"}}',
      '{"tags":{"a":"\\udfff"}}',
    ];
    const failures: string[] = [];
    for (const body of bodies) {
      for (const v of ['getMessages', 'getMessagesV2']) {
        const a = await json(
          `/api/public/bot/${fx.ivr.streamId}/${v}`,
          { auth: fx.client.token() },
          body.replace('{', '{"includeSecureForm":true,'),
        );
        if (a.status >= 500) failures.push(`POST ${v} ${body} -> ${a.status}`);
        else checkAnswer(a, { what: `${v} ${body}`, docs: fx.gw.docs });
      }
    }
    expect(failures).toEqual([]);
  });

  it('when a webhook call carries a lone surrogate in callId or from (JSON body), then the call is answered, not failed with the internal_error apology', async () => {
    const failures: string[] = [];
    for (const body of [
      '{"callId":"lone\\ud800","message":""}',
      '{"callId":"from-lone","message":"","from":"+1555\\udc00"}',
    ]) {
      const a = await json(hook(), {}, body);
      checkAnswer(a, { what: body, vxml: true, docs: fx.gw.docs });
      if (a.text.includes(INTERNAL_ERROR)) failures.push(`${body} -> internal_error document`);
    }
    expect(failures).toEqual([]);
  });

  it('when a skill group id or name carries a lone surrogate, then the import refuses it (400 with its path), so no transfer document can break on it', async () => {
    const sid = fx.ivr.streamId;
    const path = `/assist/api/v1/public/analytics/${sid}/storeAssistFunctionalities?accountId=a1&orgId=o1&type=skillGroups`;
    const group = (id: string, name: string) =>
      `{"_id":"${id}","name":"${name}","status":"ACTIVE","isDefault":false,"iId":"${sid}","createdByAId":"a","skills":[{"_id":"sk\\ud800","name":"S","isDefault":true,"status":"ACTIVE","iId":"${sid}","createdByAId":"a"}]}`;
    const a = await json(
      path,
      { auth: fx.client.token(), accountId: 'a1' },
      `{"data":[${group('sg-lone', 'Sales \\ud800 team')}],"metaData":{"userId":"u","orgId":"o1","type":"skillGroups","accountId":"a1"}}`,
    );
    checkAnswer(a, { what: 'lone surrogate skill group', docs: fx.gw.docs });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text).errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['body.data[0].name', 'body.data[0].skills[0]._id']),
    );
  });

  it('when a skill group name holds astral characters and XML metacharacters, then the transfer document carries it safely', async () => {
    const sid = fx.ivr.streamId;
    const path = `/assist/api/v1/public/analytics/${sid}/storeAssistFunctionalities?accountId=a2&orgId=o2&type=skillGroups`;
    const body = {
      data: [
        {
          _id: 'sg-emoji',
          name: 'Sales 😀 & <team> "a;b=c"',
          status: 'ACTIVE',
          isDefault: false,
          iId: sid,
          createdByAId: 'a',
        },
      ],
      metaData: { userId: 'u', orgId: 'o2', type: 'skillGroups', accountId: 'a2' },
    };
    expect(
      (await json(path, { auth: fx.client.token(), accountId: 'a2' }, JSON.stringify(body))).status,
    ).toBe(200);
    const agent = (await fx.admin('agent', 'GET', `/api/admin/apps/${sid}/agent`)).body;
    agent.dialogs.human.nodes.transfer.skillGroupId = 'sg-emoji';
    await putAgentAndWait((method, path, body) => fx.admin('agent', method, path, body), sid, agent);
    const url = `${fx.gw.url}${hook()}`;
    await fx.gw.submit(url, { callId: 'emoji-transfer', message: '' });
    const doc = await fx.gw.submit(url, { callId: 'emoji-transfer', message: 'talk to a human', turn: '1' });
    expect(doc.xml).not.toContain(INTERNAL_ERROR);
    expect(doc.xml).toContain('<transfer');
  });
});
