/**
 * A refused webhook token says why: each reason (expired, bad signature, another app's token, a
 * missing claim, not yet valid, not a JWT, no token) gets its own log line reason and metric
 * series, and the browser is answered with a document saying the line is not configured
 * correctly (a credentials problem on the customer's side, not "something went wrong on our
 * side"), valid VoiceXML in every dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { MemoryStore } from '../../src/store/index.js';
import { AppError, signHs256 } from '../../src/platform/index.js';
import { dialectNames } from '../../src/vxml/index.js';
import { renderWebhookError } from '../../src/ivr/webhook-routes.js';
import { spokenOf } from '../helpers/ivr-call.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { testPrefix } from '../helpers/test-stores.js';

const NOT_CONFIGURED = /this line is not configured correctly/;

describe('webhook token refusals', () => {
  let gw: RunningGateway;
  let app: IvrApp;
  let other: IvrApp;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(testPrefix()) });
    app = await setupIvrApp(gw, { name: 'Refusing' });
    other = await setupIvrApp(gw, { name: 'Another' });
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
  });

  const now = () => Math.floor(Date.now() / 1000);
  /** Each reason with a token that has exactly that fault (null: no token at all). */
  const cases = (): Array<[string, string | null]> => [
    ['expired', signHs256({ appId: app.clientId, sub: 'x' }, app.clientSecret, -60)],
    ['bad_signature', signHs256({ appId: app.clientId, sub: 'x' }, 'not-the-channel-secret-at-all')],
    ['wrong_app', other.token],
    ['missing_claim', signHs256({ sub: 'x' }, app.clientSecret)],
    ['missing_claim', jwt.sign({ appId: app.clientId, sub: 'x' }, app.clientSecret, { algorithm: 'HS256' })],
    [
      'not_yet_valid',
      jwt.sign({ appId: app.clientId, nbf: now() + 600 }, app.clientSecret, {
        algorithm: 'HS256',
        expiresIn: 3600,
      }),
    ],
    ['malformed', 'not-a-jwt'],
    [
      'wrong_algorithm',
      jwt.sign({ appId: app.clientId }, app.clientSecret, { algorithm: 'HS512', expiresIn: 3600 }),
    ],
    ['missing_token', null],
  ];

  const counted = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    return Object.fromEntries(
      [...text.matchAll(/^ivr_webhook_token_refusals_total\{reason="(\w+)"\} (\d+)$/gm)].map((m) => [
        m[1]!,
        Number(m[2]),
      ]),
    );
  };

  it('when a call starts with a token refused for each reason, then each is logged and counted with its own reason and answered 401 with a not-configured document', async () => {
    const before = await counted();
    const expected: Record<string, number> = {};
    for (const [reason, token] of cases()) {
      const callId = `call-${reason}-${Math.random().toString(36).slice(2)}`;
      const url = `${gw.url}/ivr/hooks/${app.streamId}${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;
      const r = await gw.submit(url, { callId, message: '', from: '+15550001111', to: app.streamId });
      expect(r.status, reason).toBe(401);
      expect(spokenOf(r.xml), reason).toMatch(NOT_CONFIGURED);
      expect(spokenOf(r.xml)).not.toMatch(/on our side/);
      expect(r.xml).toContain("'unauthorized'");
      const lines = gw.log.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'webhook token refused' && l.callId === callId);
      expect(lines, reason).toHaveLength(1);
      expect(lines[0]).toMatchObject({ reason, streamId: app.streamId, level: 40 });
      if (token) expect(JSON.stringify(lines)).not.toContain(token);
      expected[reason] = (expected[reason] ?? 0) + 1;
    }
    const after = await counted();
    const grown = Object.fromEntries(
      Object.keys(after)
        .map((k) => [k, after[k]! - (before[k] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    expect(grown).toEqual(expected);
  });

  it('when the right token is sent, then the call is answered and nothing is counted as refused', async () => {
    const before = await counted();
    const r = await gw.submit(app.webhookUrl, {
      callId: 'call-fine',
      message: '',
      from: '+15550001111',
      to: app.streamId,
    });
    expect(r.status).toBe(200);
    expect(await counted()).toEqual(before);
  });

  it('when a refusal is rendered for each dialect, then every document is valid VoiceXML 2.1 and says the line is not configured', async () => {
    const docs = dialectNames.map((d) => renderWebhookError(AppError.invalidJwt().because('expired'), d));
    for (const doc of docs) {
      expect(doc.status).toBe(401);
      expect(spokenOf(doc.xml)).toMatch(NOT_CONFIGURED);
    }
    await assertValidVxml(docs.map((d) => d.xml));
  });
});
