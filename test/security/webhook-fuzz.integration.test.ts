/**
 * Property-based tests of the IVR webhook (`/ivr/hooks/:streamId`, GET and POST) with hostile
 * parameters in JSON, urlencoded and multipart bodies and in the query: with a valid token (the
 * requests reach the turn loop and drive the agent) and with invalid ones. Every answer is a
 * VoiceXML document, never a 5xx, and every document validates against the W3C schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { signHs256 } from '../../src/platform/index.js';
import { setupIvrApp, type IvrApp } from '../helpers/test-gateway.js';
import { checkAnswer, pollutionProblem, prototypeSnapshot, StatusTally } from './answer-rules.js';
import {
  deepValue,
  hostileSegment,
  hostileString,
  hostileValue,
  pct,
  pollutionValue,
} from './hostile-values.js';
import { describeRequest, encode, encodingArb, type Encoded } from './request-encoders.js';
import { send } from './raw-http.js';
import { echoAgentDefinition } from './echo-agent.js';
import { checkProperty, startSecurityGateway, timed, type SecurityFixture } from './security-fixture.js';

const RUNS = { validToken: 80, invalidToken: 80, paths: 60, conversations: 16 };

const OPTIONAL_KEYS = [
  'from',
  'to',
  'turn',
  'event',
  'confidence',
  'inputmode',
  'interpretation',
  'utterance',
  'nlsml',
  'lastresult',
  'app_root',
  'retry',
  'transferResult',
  'ivr_ani',
  'ivr_dnis',
];
const EVENTS = ['noinput', 'nomatch', 'maxretries', 'continue', 'transfer', 'hangup', 'poll', 'retry'];

const callIdArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => `fz-${n}`) },
  { weight: 2, arbitrary: fc.uuid().map((u) => `fz-${u}`) },
  { weight: 1, arbitrary: hostileString },
);
const messageArb = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      'book a table',
      'four',
      'tomorrow',
      'yes',
      'no',
      'talk to a human',
      'what are your opening hours',
    ),
  },
  { weight: 3, arbitrary: hostileString },
);
const optionalArb = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom('turn'),
      fc.oneof(fc.constantFrom('0', '1', '2', '1.0', '2.0', ' 3 ', '-1', '1e3', '9999999'), hostileString),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom('event'),
      fc.oneof(fc.constantFrom(...EVENTS, 'POLL', ' hangup '), hostileString),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...OPTIONAL_KEYS), fc.oneof(hostileString, hostileValue)),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('message', 'callId', 'nlsml', 'extra'), deepValue) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), pollutionValue),
  },
);
const paramsArb = fc
  .tuple(callIdArb, messageArb, fc.array(optionalArb, { maxLength: 6 }), fc.boolean())
  .map(
    ([callId, message, rest, withMessage]) =>
      [['callId', callId], ...(withMessage ? [['message', message]] : []), ...rest] as Array<
        [string, unknown]
      >,
  );

describe('IVR webhook under hostile input', () => {
  let fx: SecurityFixture;
  let other: IvrApp;
  let echo: IvrApp;
  let snapshot: ReturnType<typeof prototypeSnapshot>;

  beforeAll(async () => {
    snapshot = prototypeSnapshot();
    fx = await startSecurityGateway({ config: { turnDeadlineMs: 300 } });
    other = await setupIvrApp(fx.gw, { name: 'Other app' });
    echo = await setupIvrApp(fx.gw, { name: 'Echo app', agent: echoAgentDefinition });
  });
  afterAll(() => fx.close());

  const hook = (streamId: string) => `/ivr/hooks/${streamId}`;

  const post = (e: Encoded, path: string) =>
    send(fx.gw.url, {
      method: e.method,
      path,
      headers: e.contentType ? { 'Content-Type': e.contentType } : {},
      ...(e.body ? { body: e.body } : {}),
    });

  it(`when a valid-token caller sends hostile parameters in any encoding (numRuns=${RUNS.validToken}), then every answer is a VoiceXML document and never a 5xx`, async () => {
    const tally = new StatusTally();
    const prop = fc.asyncProperty(encodingArb, paramsArb, fc.boolean(), async (enc, params, useEcho) => {
      const app = useEcho ? echo : fx.ivr;
      const e = encode(enc, params, `token=${encodeURIComponent(app.token)}`);
      const path = `${hook(app.streamId)}${e.query}`;
      const a = await post(e, path);
      tally.add(a.status);
      checkAnswer(a, { what: describeRequest(e.method, path, e), vxml: true, docs: fx.gw.docs });
      if (a.status === 401) throw new Error(`a valid token was refused: ${a.text.slice(0, 300)}`);
      // the apology for a fault on our side: hostile input must be refused or handled, never make the turn fail
      if (a.text.includes('expr="\'internal_error\'"'))
        throw new Error(
          `the turn failed internally (internal_error document)\n  request: ${describeRequest(e.method, path, e)}`,
        );
    });
    await checkProperty('webhook valid token', RUNS.validToken, prop);
    console.log(`[security] webhook valid token answers: ${tally.toString()}`);
    expect(tally.count(200)).toBeGreaterThan(RUNS.validToken / 4);
  });

  it(`when a scripted call is interleaved with hostile utterances (numRuns=${RUNS.conversations}), then the call keeps answering valid documents`, async () => {
    // at most 4,000 characters each (the gateway reads no more of a message), so message +
    // interpretation stay under the webhook's 256 KB body limit however they are encoded
    const utterance = fc
      .oneof(messageArb, hostileString, fc.constantFrom('my name is', 'take my name please'))
      .map((s) => s.slice(0, 4_000));
    const utterancesArb = fc.array(utterance, { minLength: 2, maxLength: 5 });
    const prop = fc.asyncProperty(utterancesArb, fc.uuid(), fc.boolean(), async (utterances, id, useEcho) => {
      let url = (useEcho ? echo : fx.ivr).webhookUrl;
      let turn = '0';
      const callId = `conv-${id}`;
      for (const [i, message] of ['', ...utterances].entries()) {
        const params: Record<string, string> =
          i === 0
            ? { callId, message, from: '+15550001111' }
            : {
                callId,
                message,
                turn: `${turn}.0`,
                confidence: '0.8',
                inputmode: 'voice',
                interpretation: message,
              };
        const r = await fx.gw.submit(url, params);
        if (r.status !== 200) throw new Error(`turn ${i} answered ${r.status}: ${r.xml.slice(0, 300)}`);
        turn = /<var name="turn" expr="'(\d+)'"/.exec(r.xml)?.[1] ?? turn;
        url = /<submit[^>]*next="([^"]+)"/.exec(r.xml)?.[1]?.replace(/&amp;/g, '&') ?? url;
      }
    });
    await checkProperty('webhook conversations', RUNS.conversations, prop);
    // the echo agent said caller text back, so hostile text did reach the documents
    expect(fx.gw.docs.docs.some((d) => d.includes('You said'))).toBe(true);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const forged: Array<() => string> = [
    () => jwt.sign({ appId: fx.ivr.clientId }, '', { algorithm: 'none' }),
    () => signHs256({ appId: fx.ivr.clientId }, 'not-the-channel-secret'),
    () => other.token,
    () => signHs256({ appId: other.clientId }, fx.ivr.clientSecret),
    () => jwt.sign({ appId: fx.ivr.clientId, exp: now() - 120 }, fx.ivr.clientSecret, { algorithm: 'HS256' }),
    () =>
      jwt.sign({ appId: fx.ivr.clientId, nbf: now() + 3600 }, fx.ivr.clientSecret, { algorithm: 'HS256' }),
    () => jwt.sign({ appId: fx.ivr.clientId }, fx.ivr.clientSecret, { algorithm: 'HS512' }),
    () => `${fx.ivr.token.split('.').slice(0, 2).join('.')}.`,
    () => `${fx.ivr.token}x`,
    () => '',
  ];
  const tokenArb = fc.oneof(
    { weight: 3, arbitrary: hostileString.map((s) => () => s) },
    { weight: 4, arbitrary: fc.constantFrom(...forged) },
  );

  it(`when the token is missing, forged, expired, of another app or garbage (numRuns=${RUNS.invalidToken}), then a 4xx VoiceXML error document answers`, async () => {
    const prop = fc.asyncProperty(
      encodingArb,
      paramsArb,
      tokenArb,
      fc.constantFrom('query', 'body', 'none'),
      async (enc, params, makeToken, where) => {
        const token = makeToken();
        const all: Array<[string, unknown]> = where === 'body' ? [...params, ['token', token]] : params;
        const e = encode(enc, all, where === 'query' ? `token=${pct(token)}` : '');
        const path = `${hook(fx.ivr.streamId)}${e.query}`;
        const a = await post(e, path);
        checkAnswer(a, { what: describeRequest(e.method, path, e), vxml: true, docs: fx.gw.docs });
        if (a.status < 400)
          throw new Error(`an invalid token was served: ${a.status} ${describeRequest(e.method, path, e)}`);
      },
    );
    await checkProperty('webhook invalid token', RUNS.invalidToken, prop);
  });

  it(`when the path, method and streamId are hostile (numRuns=${RUNS.paths}), then the webhook still answers VoiceXML and never a 5xx`, async () => {
    const segmentArb = fc.oneof(
      hostileSegment,
      fc.constantFrom(fx.ivr.streamId, other.streamId, 'st-00000000-0000-0000-0000-000000000000'),
    );
    const methodArb = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
    const prop = fc.asyncProperty(
      segmentArb,
      methodArb,
      fc.boolean(),
      paramsArb,
      async (segment, method, withToken, params) => {
        const e = encode('json', params, withToken ? `token=${encodeURIComponent(fx.ivr.token)}` : '');
        const path = `${hook(segment)}${e.query}`;
        const a = await send(fx.gw.url, {
          method,
          path,
          headers: { 'Content-Type': 'application/json' },
          ...(method !== 'GET' && e.body ? { body: e.body } : {}),
        });
        checkAnswer(a, { what: describeRequest(method, path, e), vxml: true, docs: fx.gw.docs });
      },
    );
    await checkProperty('webhook paths', RUNS.paths, prop);
  });

  it('when every answer of this suite is checked against vxml.xsd, then all are valid VoiceXML 2.1', async () => {
    expect(fx.gw.docs.docs.length).toBeGreaterThan(RUNS.validToken);
    await timed(`webhook XSD validation of ${fx.gw.docs.docs.length} documents`, fx.gw.docs.docs.length, () =>
      fx.gw.docs.validateAll(),
    );
  });

  it('when the runs are over, then Object.prototype and the other built-in prototypes are unpolluted', () => {
    expect(pollutionProblem(snapshot)).toBeNull();
  });
});
