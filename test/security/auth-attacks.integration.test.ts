/**
 * Authentication attacks against the whole service: alg none, algorithm confusion (RS256/ES256
 * headers, HS256 signed with a public key as the secret), expired and not-yet-valid tokens, another
 * app's token and secret (the `auth` header APIs and the webhook `token`), signature malleability,
 * API-key brute force (429 with Retry-After), replayed sandbox PIN submissions, and a scan of the
 * source for secret comparisons that are not constant-time.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { createSealer, signHs256 } from '../../src/platform/index.js';
import { setupIvrApp, type IvrApp } from '../helpers/test-gateway.js';
import { checkAnswer, errorShapeProblem } from './answer-rules.js';
import { send, type RawAnswer } from './raw-http.js';
import { findInSource, findUnsafeComparisons } from './secret-comparisons.js';
import {
  ALL_APP_SCOPES,
  SUITE,
  TABLE,
  startSecurityGateway,
  type ApiClient,
  type SecurityFixture,
} from './security-fixture.js';

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token with any header, signed HMAC-SHA256 with any key (what an attacker can mint). */
const craft = (
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: string | Buffer,
): string => {
  const hp = `${b64(header)}.${b64(payload)}`;
  return `${hp}.${createHmac('sha256', key).update(hp).digest('base64url')}`;
};
const now = (): number => Math.floor(Date.now() / 1000);

describe('authentication attacks', () => {
  let fx: SecurityFixture;
  let other: IvrApp;
  let otherClient: ApiClient;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

  beforeAll(async () => {
    fx = await startSecurityGateway();
    other = await setupIvrApp(fx.gw, { name: 'Other app' });
    const r = (
      await fx.admin('other API app', 'POST', `/api/admin/apps/${other.streamId}/api-apps`, {
        name: 'o',
        scopes: ALL_APP_SCOPES,
      })
    ).body;
    otherClient = {
      clientId: r.clientId,
      clientSecret: r.clientSecret,
      token: (c = {}) => signHs256({ appId: r.clientId, ...c }, r.clientSecret),
    };
  });
  afterAll(async () => {
    await fx.gw.docs.validateAll();
    await fx.close();
  });

  /** Every `auth`-header API, each asked with the given token. */
  const authApis = (token: string): Array<[string, () => Promise<RawAnswer>]> => {
    const sid = fx.ivr.streamId;
    const h = { auth: token, 'Content-Type': 'application/json' };
    return [
      [
        'history v1 GET',
        () =>
          send(fx.gw.url, {
            method: 'GET',
            path: `/api/public/bot/${sid}/getMessages?userId=u-1`,
            headers: { auth: token },
          }),
      ],
      [
        'history v2 POST',
        () =>
          send(fx.gw.url, {
            method: 'POST',
            path: `/api/public/bot/${sid}/getMessagesV2`,
            headers: h,
            body: '{"includeSecureForm":true}',
          }),
      ],
      [
        'admin-console history',
        () => send(fx.gw.url, { method: 'POST', path: '/api/public/getMessages', headers: h, body: '{}' }),
      ],
      [
        'table insert',
        () =>
          send(fx.gw.url, {
            method: 'POST',
            path: `/api/public/tables/${TABLE}`,
            headers: h,
            body: '{"data":{"name":"x"}}',
          }),
      ],
      [
        'skill-group import',
        () =>
          send(fx.gw.url, {
            method: 'POST',
            path: `/assist/api/v1/public/analytics/${sid}/storeAssistFunctionalities?accountId=a&orgId=o&type=skillGroups`,
            headers: { ...h, accountId: 'a' },
            body: JSON.stringify({
              data: [
                { _id: 'sg-x', name: 'X', status: 'ACTIVE', isDefault: false, iId: sid, createdByAId: 'a' },
              ],
              metaData: { userId: 'u', orgId: 'o', type: 'skillGroups', accountId: 'a' },
            }),
          }),
      ],
      [
        'test run status',
        () =>
          send(fx.gw.url, {
            method: 'GET',
            path: `/api/public/bot/${sid}/testsuite/${SUITE}/${fx.runId}/status`,
            headers: { auth: token },
          }),
      ],
      [
        'test run launch',
        () =>
          send(fx.gw.url, {
            method: 'POST',
            path: `/api/public/bot/${sid}/testsuite/${SUITE}/run`,
            headers: h,
            body: '{}',
          }),
      ],
    ];
  };
  const webhook = (token: string, streamId = fx.ivr.streamId, callId = `c-${Math.random()}`) =>
    fx.gw.submit(`${fx.gw.url}/ivr/hooks/${streamId}?token=${encodeURIComponent(token)}`, {
      callId,
      message: '',
      from: '+15550001111',
    });

  const expectRefused = async (label: string, token: string, status = 401) => {
    for (const [api, call] of authApis(token)) {
      const a = await call();
      checkAnswer(a, { what: `${label} on ${api}`, docs: fx.gw.docs });
      expect(a.status, `${label} on ${api}: ${a.text.slice(0, 200)}`).toBe(status);
      expect(errorShapeProblem(a.text)).toBeNull();
    }
  };
  const expectWebhookRefused = async (label: string, token: string, streamId = fx.ivr.streamId) => {
    const r = await webhook(token, streamId);
    expect(r.status, `${label}: ${r.xml.slice(0, 200)}`).toBe(401);
    expect(r.xml).toContain('<vxml');
    expect(r.xml).not.toContain('<field');
  };

  it('when the genuine tokens are used, then every auth API and the webhook accept them (the baseline the attacks are measured against)', async () => {
    for (const [api, call] of authApis(fx.client.token()))
      expect((await call()).status, api).toBeLessThan(400);
    expect((await webhook(fx.ivr.token)).status).toBe(200);
  });

  it('when alg is none (with an empty or a forged signature), then every auth API and the webhook answer 401', async () => {
    const payload = { appId: fx.client.clientId, sub: 'u-x' };
    const variants = [
      jwt.sign(payload, '', { algorithm: 'none' }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
      craft({ alg: 'none' }, payload, fx.client.clientSecret),
      craft({ alg: 'None' }, payload, fx.client.clientSecret),
    ];
    for (const t of variants) await expectRefused('alg none', t);
    const hookPayload = { appId: fx.ivr.clientId };
    for (const t of [
      jwt.sign(hookPayload, '', { algorithm: 'none' }),
      craft({ alg: 'none' }, hookPayload, fx.ivr.clientSecret),
    ])
      await expectWebhookRefused('webhook alg none', t);
  });

  it('when the header names RS256/ES256 or another HMAC (algorithm confusion), or HS256 is signed with a public key as the secret, then 401', async () => {
    const p = { appId: fx.client.clientId };
    const tokens = [
      craft({ alg: 'RS256', typ: 'JWT' }, p, fx.client.clientSecret),
      craft({ alg: 'ES256', typ: 'JWT' }, p, fx.client.clientSecret),
      craft({ alg: 'hs256' }, p, fx.client.clientSecret),
      craft({ alg: 'HS256', kid: '../../dev/null', jku: 'https://attacker.example/keys' }, p, rsaPublicPem),
      craft({ alg: 'HS256' }, p, rsaPublicPem),
      jwt.sign(p, rsa.privateKey, { algorithm: 'RS256' }),
      jwt.sign(p, ec.privateKey, { algorithm: 'ES256' }),
      jwt.sign(p, fx.client.clientSecret, { algorithm: 'HS384' }),
      jwt.sign(p, fx.client.clientSecret, { algorithm: 'HS512' }),
    ];
    for (const t of tokens) await expectRefused('algorithm confusion', t);
    const hp = { appId: fx.ivr.clientId };
    for (const t of [
      craft({ alg: 'RS256' }, hp, fx.ivr.clientSecret),
      craft({ alg: 'HS256' }, hp, rsaPublicPem),
      jwt.sign(hp, rsa.privateKey, { algorithm: 'RS256' }),
    ]) {
      await expectWebhookRefused('webhook algorithm confusion', t);
    }
  });

  it('when a token is expired, not yet valid (nbf) or carries non-numeric times, then 401 on the APIs and the webhook', async () => {
    const sign = (claims: Record<string, unknown>, secret: string) =>
      craft({ alg: 'HS256', typ: 'JWT' }, claims, secret);
    const cases = [
      { exp: now() - 60 },
      { nbf: now() + 3600 },
      { exp: String(now() + 3600) },
      { nbf: 'soon' },
      { exp: null },
    ];
    for (const c of cases) {
      await expectRefused(
        `times ${JSON.stringify(c)}`,
        sign({ appId: fx.client.clientId, ...c }, fx.client.clientSecret),
      );
      await expectWebhookRefused(
        `webhook times ${JSON.stringify(c)}`,
        sign({ appId: fx.ivr.clientId, ...c }, fx.ivr.clientSecret),
      );
    }
  });

  it("when another app's token, or a token signed with another app's secret, is used, then 401 (403 where the path names no app and the app lacks access)", async () => {
    // a valid token of another app on this app's paths
    for (const [api, call] of authApis(otherClient.token())) {
      const a = await call();
      checkAnswer(a, { what: `other app's token on ${api}`, docs: fx.gw.docs });
      if (api === 'table insert') expect(a.status, api).toBe(403);
      else if (api === 'admin-console history')
        expect(a.status, api).toBe(200); // the app of the JWT: the other app's own history
      else expect(a.status, `${api}: ${a.text.slice(0, 200)}`).toBe(401);
    }
    // this app's clientId signed with another app's secret, and the reverse
    await expectRefused(
      "another app's secret",
      signHs256({ appId: fx.client.clientId }, otherClient.clientSecret),
    );
    await expectRefused(
      'the channel secret for an API app',
      signHs256({ appId: fx.client.clientId }, fx.ivr.clientSecret),
    );
    await expectRefused('a channel token in the auth header', fx.ivr.token);
    // the webhook: another app's channel token, its secret, an API-app token
    await expectWebhookRefused("another app's channel token", other.token);
    await expectWebhookRefused(
      "another channel's secret",
      signHs256({ appId: fx.ivr.clientId }, other.clientSecret),
    );
    await expectWebhookRefused('an API-app token as webhook token', fx.client.token());
    await expectWebhookRefused('this channel token on the other app', fx.ivr.token, other.streamId);
  });

  it("when another app's valid webhook token is used with this app's callId, then the call is neither revealed (no 409) nor taken over", async () => {
    const callId = `victim-${Date.now()}`;
    expect((await webhook(fx.ivr.token, fx.ivr.streamId, callId)).status).toBe(200);
    const before = await fx.gw.gateway.sessions.load(fx.ivr.streamId, callId);
    // a later turn of the other app's own call of that id: there is none, so the call has expired
    const hijack = await fx.gw.submit(
      `${fx.gw.url}/ivr/hooks/${other.streamId}?token=${encodeURIComponent(other.token)}`,
      { callId, message: 'book a table', turn: '1' },
    );
    expect(hijack.status).toBe(200);
    expect(hijack.xml).not.toContain('<field');
    expect(hijack.xml).toContain('session_expired');
    expect(await fx.gw.gateway.sessions.load(fx.ivr.streamId, callId)).toEqual(before);
  });

  it('when the signature is re-encoded (unused trailing bits changed, padding added) or the token is oversized, then 401', async () => {
    const genuine = fx.client.token();
    const [h, p, sig] = genuine.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig[sig.length - 1]!);
    const twin = `${h}.${p}.${sig.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin.split('.')[2]!, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    await expectRefused('signature with changed unused bits', twin);
    await expectRefused('padded signature', `${genuine}=`);
    await expectRefused(
      'oversized token',
      `${h}.${b64({ appId: fx.client.clientId, pad: 'x'.repeat(9000) })}.${sig}`,
    );
    const [wh, wp, ws] = fx.ivr.token.split('.') as [string, string, string];
    await expectWebhookRefused(
      'webhook signature with changed unused bits',
      `${wh}.${wp}.${ws.slice(0, -1)}${alphabet[alphabet.indexOf(ws[ws.length - 1]!) ^ 1]}`,
    );
  });

  it('when API keys are guessed from one address, then after 20 failures its wrong keys get 429 with Retry-After, while a valid key still passes there (one NAT) and elsewhere', async () => {
    const attacker = '127.0.0.9';
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 25; i++) {
      const a = await send(fx.gw.url, {
        method: 'GET',
        path: '/api/public/connections',
        headers: { 'x-api-key': `ak-guess-${i}` },
        localAddress: attacker,
      });
      checkAnswer(a, { what: `guess ${i}`, docs: fx.gw.docs });
      statuses.push(a.status);
      if (a.status === 429) retryAfter = a.headers['retry-after'];
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const sameNat = await send(fx.gw.url, {
      method: 'GET',
      path: '/api/public/connections',
      headers: { 'x-api-key': fx.apiKey },
      localAddress: attacker,
    });
    expect(sameNat.status).toBe(200);
    expect(
      (
        await send(fx.gw.url, {
          method: 'GET',
          path: '/api/public/connections',
          headers: { 'x-api-key': 'ak-guess-99' },
          localAddress: attacker,
        })
      ).status,
    ).toBe(429);
    const elsewhere = await send(fx.gw.url, {
      method: 'GET',
      path: '/api/public/connections',
      headers: { 'x-api-key': fx.apiKey },
      localAddress: '127.0.0.10',
    });
    expect(elsewhere.status).toBe(200);
    const longKey = await send(fx.gw.url, {
      method: 'GET',
      path: '/api/public/connections',
      headers: { 'x-api-key': 'k'.repeat(5000) },
      localAddress: '127.0.0.11',
    });
    expect(longKey.status).toBe(401);
  });

  it("when one key's public prefix is guessed at from many addresses, then after 10 failures that prefix is refused everywhere, and keys with other prefixes pass", async () => {
    const target = (
      await fx.admin('targeted key', 'POST', '/api/admin/api-keys', {
        name: 'targeted',
        scopes: ['connections:view'],
      })
    ).body.apiKey as string;
    const bystander = (
      await fx.admin('bystander key', 'POST', '/api/admin/api-keys', {
        name: 'bystander',
        scopes: ['connections:view'],
      })
    ).body.apiKey as string;
    expect(bystander.slice(0, 11)).not.toBe(target.slice(0, 11));
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const wrong = `${target.slice(0, 11)}${'x'.repeat(30)}${i}`;
      statuses.push(
        (
          await send(fx.gw.url, {
            method: 'GET',
            path: '/api/public/connections',
            headers: { 'x-api-key': wrong },
            localAddress: `127.0.1.${10 + i}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(4).fill(429)]);
    const targeted = await send(fx.gw.url, {
      method: 'GET',
      path: '/api/public/connections',
      headers: { 'x-api-key': target },
      localAddress: '127.0.1.99',
    });
    expect(targeted.status).toBe(429);
    expect(Number(targeted.headers['retry-after'])).toBeLessThanOrEqual(60);
    for (const address of ['127.0.1.10', '127.0.1.99']) {
      expect(
        (
          await send(fx.gw.url, {
            method: 'GET',
            path: '/api/public/connections',
            headers: { 'x-api-key': bystander },
            localAddress: address,
          })
        ).status,
      ).toBe(200);
    }
  });

  describe('sandbox PIN and secret', () => {
    const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';
    const entry = () => `${fx.gw.url}/ivr/sandbox/${encodeURIComponent(fx.sandbox.phoneNumber)}`;
    const enter = (from: string, callId: string) => fx.gw.submit(entry(), { from, callId });
    const login = (from: string, callId: string, attempt: string, pin: string, secret: string) =>
      fx.gw.submit(`${entry()}?step=login&callId=${callId}&from=${encodeURIComponent(from)}`, {
        attempt,
        pin,
        secret,
      });

    it('when a successful PIN submission is replayed (same attempt, other call), then it does not connect again', async () => {
      const from = '+15550007001';
      const attempt = attemptOf((await enter(from, 'sb-replay-1')).xml);
      const first = await login(from, 'sb-replay-1', attempt, fx.sandbox.pin, fx.sandbox.secret);
      expect(first.xml).toContain('<subdialog');
      await fx.gw.gateway.sandbox.release(fx.ivr.streamId, 'sb-replay-1');
      for (const callId of ['sb-replay-2', 'sb-replay-1']) {
        const replay = await login(from, callId, attempt, fx.sandbox.pin, fx.sandbox.secret);
        expect(replay.xml).not.toContain('<subdialog');
        expect(replay.xml).not.toContain('token=');
      }
    });

    it('when an attempt id is invented, altered, expired or issued for another number, then even the right PIN does not connect', async () => {
      const from = '+15550007002';
      const attempt = attemptOf((await enter(from, 'sb-fail-1')).xml);
      const sealer = createSealer(fx.gw.config.masterKey);
      const forged = (claims: Record<string, unknown>) =>
        sealer.seal(
          JSON.stringify({ n: fx.sandbox.phoneNumber, x: Date.now() + 60_000, r: 'forged-id', ...claims }),
        );
      const flipped = `${attempt.slice(0, -2)}${attempt.at(-2) === 'A' ? 'B' : 'A'}${attempt.at(-1)}`;
      for (const invented of [
        '',
        '00000000-0000-0000-0000-000000000000',
        'x'.repeat(64),
        flipped,
        forged({ x: Date.now() - 1 }),
        forged({ n: '+15550000000' }),
        forged({ r: 7 }),
      ]) {
        expect(
          (await login('+15550007003', 'sb-fail-2', invented, fx.sandbox.pin, fx.sandbox.secret)).xml,
        ).not.toContain('<subdialog');
      }
      // nothing is stored per attempt: a wrong entry counts against the caller, address and
      // number, and the same (genuine, unexpired) attempt with the right PIN then connects once
      expect((await login(from, 'sb-fail-1', attempt, '000000', '00000000')).xml).toContain('did not match');
      expect((await login(from, 'sb-fail-1', attempt, fx.sandbox.pin, fx.sandbox.secret)).xml).toContain(
        '<subdialog',
      );
      await fx.gw.gateway.sandbox.release(fx.ivr.streamId, 'sb-fail-1');
      expect((await login(from, 'sb-fail-3', attempt, fx.sandbox.pin, fx.sandbox.secret)).xml).not.toContain(
        '<subdialog',
      );
    });

    it('when the PIN is guessed five times from one number, then that caller is locked out and the right PIN no longer connects', async () => {
      // a line of its own: the wrong entries above count against the fixture's number too
      const line = (
        await fx.admin('second sandbox', 'PUT', `/api/admin/apps/${other.streamId}/ivr-sandbox`, {
          enabled: true,
        })
      ).body as { phoneNumber: string; pin: string; secret: string };
      const url = `${fx.gw.url}/ivr/sandbox/${encodeURIComponent(line.phoneNumber)}`;
      const from = '+15550007004';
      let doc = (await fx.gw.submit(url, { from, callId: 'sb-lock' })).xml;
      for (let i = 0; i < 5; i++)
        doc = (
          await fx.gw.submit(`${url}?step=login&callId=sb-lock&from=${encodeURIComponent(from)}`, {
            attempt: attemptOf(doc),
            pin: String(100000 + i),
            secret: '12345678',
          })
        ).xml;
      expect(doc).toContain('locked');
      const after = (await fx.gw.submit(url, { from, callId: 'sb-lock-2' })).xml;
      expect(after).toContain('locked');
      expect(
        (
          await fx.gw.submit(`${url}?step=login&callId=sb-lock-2&from=${encodeURIComponent(from)}`, {
            attempt: attemptOf(after) || 'none',
            pin: line.pin,
            secret: line.secret,
          })
        ).xml,
      ).not.toContain('<subdialog');
    });
  });

  it('when the src tree is scanned, then no secret, PIN, token or API key is compared with ===/!== (safeEqual or timingSafeEqual only)', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const unsafe = findUnsafeComparisons(src);
    expect(unsafe.map((u) => `${u.file}:${u.line} ${u.text}`)).toEqual([]);
    // the scanner itself finds what it must (and leaves lengths, typeof and constant-time calls alone)
    const probe =
      "if (input.pin === rec.pin) a(); if (req.headers['x-api-key'] !== key) b(); if (apiKey == stored) c(); if (sig.equals(mac)) d();\n" +
      "if (a.length === b.length) e(); if (typeof token !== 'string') f(); if (safeEqual(pin, rec.pin)) g(); if (tokens[i] === 'a') h(); if (clientSecret\n === given) i();";
    expect(findInSource('probe.ts', probe).map((u) => u.text)).toEqual([
      'input.pin === rec.pin',
      "req.headers['x-api-key'] !== key",
      'apiKey == stored',
      'sig.equals(mac)',
      'clientSecret === given',
    ]);
  });
});
