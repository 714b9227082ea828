/**
 * Oversized and malformed requests: 1.5 MB bodies (declared by Content-Length) and chunked bodies
 * without Content-Length that grow past the 1 MB limit answer 413 before the body has been read to
 * its end, in every encoding the routes take; bodies nested past the depth limit, paths whose
 * parameters do not decode and prototype names used as values are refused with a 4xx in the
 * route's own format (JSON error shape, or VoiceXML on the webhook).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, errorShapeProblem } from './answer-rules.js';
import { multipartBody } from './request-encoders.js';
import { send, sendChunked } from './raw-http.js';
import { startSecurityGateway, type SecurityFixture } from './security-fixture.js';
import { toJsonText } from './hostile-values.js';

const MB = 1024 * 1024;
const big = (bytes: number) => 'x'.repeat(bytes);

describe('body size limits and malformed requests', () => {
  let fx: SecurityFixture;

  beforeAll(async () => {
    fx = await startSecurityGateway();
  });
  afterAll(async () => {
    await fx.gw.docs.validateAll();
    await fx.close();
  });

  const hook = () => `/ivr/hooks/${fx.ivr.streamId}?token=${encodeURIComponent(fx.ivr.token)}`;
  const routes = (): Array<{
    name: string;
    path: string;
    headers: Record<string, string>;
    vxml: boolean;
  }> => [
    { name: 'webhook', path: hook(), headers: {}, vxml: true },
    {
      name: 'table insert',
      path: '/api/public/tables/fuzz_rows',
      headers: { auth: fx.client.token() },
      vxml: false,
    },
    {
      name: 'connection create',
      path: '/api/public/connections',
      headers: { 'x-api-key': fx.apiKey },
      vxml: false,
    },
    {
      name: 'history',
      path: `/api/public/bot/${fx.ivr.streamId}/getMessages`,
      headers: { auth: fx.client.token() },
      vxml: false,
    },
    {
      name: 'operator app create',
      path: '/api/admin/apps',
      headers: { Authorization: `Bearer ${fx.gw.config.adminToken}` },
      vxml: false,
    },
  ];

  const expect413 = (a: { status: number; text: string; contentType: string }, vxml: boolean) => {
    expect(a.status).toBe(413);
    if (vxml) {
      expect(a.contentType).toMatch(/^application\/voicexml\+xml/);
      fx.gw.docs.add(a.text);
    } else {
      expect(errorShapeProblem(a.text)).toBeNull();
      expect(JSON.parse(a.text).errors[0].code).toBe('payload_too_large');
    }
  };

  it('when a 1.5 MB JSON body is sent with its Content-Length, then every route answers 413 in its own format', async () => {
    for (const r of routes()) {
      const body = JSON.stringify({ callId: 'c-big', message: big(1.5 * MB), data: { name: 'x' } });
      const a = await send(fx.gw.url, {
        method: 'POST',
        path: r.path,
        headers: { ...r.headers, 'Content-Type': 'application/json' },
        body,
      });
      expect413(a, r.vxml);
    }
  });

  it('when a 1.5 MB urlencoded or multipart body reaches the webhook, then 413 as a VoiceXML document', async () => {
    const form = `callId=c-big&message=${big(1.5 * MB)}`;
    expect413(
      await send(fx.gw.url, {
        method: 'POST',
        path: hook(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
      }),
      true,
    );
    const boundary = '----big';
    const multi = multipartBody(
      [
        ['callId', 'c-big'],
        ['message', big(1.5 * MB)],
      ],
      boundary,
    );
    expect413(
      await send(fx.gw.url, {
        method: 'POST',
        path: hook(),
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: multi,
      }),
      true,
    );
  });

  it('when a chunked JSON body without Content-Length grows past 1 MB, then 413 arrives before the body ends', async () => {
    for (const r of routes()) {
      const a = await sendChunked(fx.gw.url, {
        method: 'POST',
        path: r.path,
        headers: { ...r.headers, 'Content-Type': 'application/json' },
        prefix: '{"callId":"c-chunk","message":"',
        chunk: Buffer.from(big(64 * 1024)),
        chunks: 128,
      });
      expect413(a, r.vxml);
      expect(a.finishedBeforeAnswer).toBe(false);
      expect(a.bytesWrittenBeforeAnswer).toBeLessThan(8 * MB);
    }
  });

  it('when chunked urlencoded and multipart bodies grow past 1 MB on the webhook, then 413 arrives before the body ends', async () => {
    const form = await sendChunked(fx.gw.url, {
      method: 'POST',
      path: hook(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      prefix: 'callId=c-chunk&message=',
      chunk: Buffer.from(big(64 * 1024)),
      chunks: 128,
    });
    expect413(form, true);
    expect(form.finishedBeforeAnswer).toBe(false);
    const multi = await sendChunked(fx.gw.url, {
      method: 'POST',
      path: hook(),
      headers: { 'Content-Type': 'multipart/form-data; boundary=----chunk' },
      prefix:
        '------chunk\r\nContent-Disposition: form-data; name="callId"\r\n\r\nc-chunk\r\n------chunk\r\nContent-Disposition: form-data; name="message"\r\n\r\n',
      chunk: Buffer.from(big(64 * 1024)),
      chunks: 128,
    });
    expect413(multi, true);
    expect(multi.finishedBeforeAnswer).toBe(false);
  });

  it('when a chunked multipart body spreads 10 MB over many fields each under 1 MB, then the total is refused with 413 before it ends', async () => {
    const streamed = await sendChunked(fx.gw.url, {
      method: 'POST',
      path: hook(),
      headers: { 'Content-Type': 'multipart/form-data; boundary=----f' },
      prefix: '',
      chunk: Buffer.from(`------f\r\nContent-Disposition: form-data; name="f"\r\n\r\n${big(256 * 1024)}\r\n`),
      chunks: 40,
    });
    expect413(streamed, true);
    expect(streamed.finishedBeforeAnswer).toBe(false);
  });

  it('when a body nests arrays 5,000 levels deep, then 400 in the route format (the JSON.stringify of a stored member would overflow: a 500 before)', async () => {
    let deep = '1';
    for (let i = 0; i < 5_000; i++) deep = `[${deep}]`;
    const sg = `{"_id":"sg-deep","name":"D","status":"ACTIVE","isDefault":false,"iId":"${fx.ivr.streamId}","createdByAId":"a","extra":${deep}}`;
    const assist = await send(fx.gw.url, {
      method: 'POST',
      path: `/assist/api/v1/public/analytics/${fx.ivr.streamId}/storeAssistFunctionalities?accountId=a1&orgId=o1&type=skillGroups`,
      headers: { auth: fx.client.token(), accountId: 'a1', 'Content-Type': 'application/json' },
      body: `{"data":[${sg}],"metaData":{"userId":"u","orgId":"o1","type":"skillGroups","accountId":"a1"}}`,
    });
    checkAnswer(assist, { what: 'deep skill group', docs: fx.gw.docs });
    expect(assist.status).toBe(400);
    const conn = await send(fx.gw.url, {
      method: 'POST',
      path: '/api/public/connections',
      headers: { 'x-api-key': fx.apiKey, 'Content-Type': 'application/json' },
      body: `{"provider":"API","connectionName":"c","endpointUrl":"https://x.example.com","customVars":[${deep}],"payload":{"model":"m","max_tokens":1,"messages":[{"role":"u","content":"c"}]},"outputPath":"a"}`,
    });
    checkAnswer(conn, { what: 'deep customVars', docs: fx.gw.docs });
    expect(conn.status).toBe(400);
    const hookAnswer = await send(fx.gw.url, {
      method: 'POST',
      path: hook(),
      headers: { 'Content-Type': 'application/json' },
      body: `{"callId":"c-deep","message":${deep}}`,
    });
    checkAnswer(hookAnswer, { what: 'deep webhook', vxml: true, docs: fx.gw.docs });
    expect(hookAnswer.status).toBe(400);
    const shallow = JSON.parse(
      toJsonText({ callId: 'c-shallow', message: '', extra: [[[[[[[[[[1]]]]]]]]]] }),
    );
    const ok = await send(fx.gw.url, {
      method: 'POST',
      path: hook(),
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(shallow),
    });
    expect(ok.status).toBe(200);
  });

  it('when a webhook or sandbox path parameter does not decode (/ivr/hooks/%), then a 400 VoiceXML document, not JSON', async () => {
    for (const path of ['/ivr/hooks/%', '/ivr/hooks/%E0%A4%A', '/IVR/Hooks/%zz', `/ivr/sandbox/%FF%`]) {
      for (const method of ['GET', 'POST']) {
        const a = await send(fx.gw.url, { method, path });
        checkAnswer(a, { what: `${method} ${path}`, vxml: true, docs: fx.gw.docs });
        expect(a.status).toBe(400);
      }
    }
  });

  it('when the import type is a prototype member name (constructor, __proto__, toString), then 400 says the type is unknown', async () => {
    for (const type of ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf']) {
      const a = await send(fx.gw.url, {
        method: 'POST',
        path: `/assist/api/v1/public/analytics/${fx.ivr.streamId}/storeAssistFunctionalities?accountId=a1&orgId=o1&type=${type}`,
        headers: { auth: fx.client.token(), accountId: 'a1', 'Content-Type': 'application/json' },
        body: JSON.stringify({ data: [], metaData: { userId: 'u', orgId: 'o1', type, accountId: 'a1' } }),
      });
      checkAnswer(a, { what: `type=${type}`, docs: fx.gw.docs });
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text).errors[0].msg).toMatch(/^unknown type/);
    }
  });
});
