/**
 * Property-based tests of every public JSON endpoint (connections, tables, skill-group import,
 * history v1/v2 GET and POST, batch-test run and status, the result-file download) and the
 * sandbox entry: random types, huge strings, deep nesting, unicode with lone surrogates and NUL,
 * prototype-pollution keys in bodies and queries, valid and invalid credentials. Never a 5xx; JSON
 * 4xx answers in the error shape; VoiceXML answers valid; Object.prototype unpolluted afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { signHs256 } from '../../src/platform/index.js';
import { checkAnswer, pollutionProblem, prototypeSnapshot } from './answer-rules.js';
import { fuzzTarget } from './fuzz-target.js';
import { hostileSegment, queryString } from './hostile-values.js';
import { publicTargets, type PublicCredentials } from './public-targets.js';
import { send } from './raw-http.js';
import {
  ALL_APP_SCOPES,
  checkProperty,
  startSecurityGateway,
  timed,
  type SecurityFixture,
} from './security-fixture.js';

const UNKNOWN_ROUTE_RUNS = 40;

describe('public JSON endpoints under hostile input', () => {
  let fx: SecurityFixture;
  let creds: PublicCredentials;
  let snapshot: ReturnType<typeof prototypeSnapshot>;

  beforeAll(async () => {
    snapshot = prototypeSnapshot();
    fx = await startSecurityGateway();
    const viewKey = (
      await fx.admin('view key', 'POST', '/api/admin/api-keys', {
        name: 'view',
        scopes: ['connections:view'],
      })
    ).body.apiKey as string;
    const otherAppId = (await fx.admin('other app', 'POST', '/api/admin/apps', { name: 'Other' })).body
      .streamId as string;
    const client = async (streamId: string, scopes: string[]) => {
      const r = (
        await fx.admin('API app', 'POST', `/api/admin/apps/${streamId}/api-apps`, { name: 'c', scopes })
      ).body;
      return {
        clientId: r.clientId,
        clientSecret: r.clientSecret,
        token: (claims = {}) => signHs256({ appId: r.clientId, ...claims }, r.clientSecret),
      };
    };
    creds = {
      viewKey,
      otherApp: await client(otherAppId, ALL_APP_SCOPES),
      narrow: await client(fx.ivr.streamId, ['tables']),
    };
  });
  afterAll(() => fx.close());

  // one test per endpoint, named with its run count (the list is fixed, so names are known up front)
  const planned = [
    ['GET /api/public/connections', 30],
    ['GET /api/public/connections/:connectionId', 20],
    ['POST /api/public/connections', 50],
    ['PATCH /api/public/connections/:connectionId', 30],
    ['POST /api/public/tables/:tableName', 40],
    ['POST /assist/api/v1/public/analytics/:botId/storeAssistFunctionalities', 40],
    ['GET /api/public/bot/:botId/getMessages and getMessagesV2', 30],
    ['POST /api/public/bot/:botId/getMessages and getMessagesV2, POST /api/public/getMessages', 40],
    ['POST /api/public/bot/:botId/testsuite/:name/run', 25],
    ['GET /api/public/bot|stream/:id/testsuite/:name/:runId/status', 25],
    ['GET /api/public/testruns/files/:fileId', 20],
    ['GET|POST /ivr/sandbox/:phoneNumber', 40],
  ] as const;

  for (const [name, runs] of planned) {
    it(`when ${name} gets hostile bodies, queries, paths and credentials (numRuns=${runs}), then it never answers 5xx and its 4xx answers keep the error shape`, async () => {
      const entry = publicTargets(fx, creds).find((t) => t.target.name === name);
      expect(entry?.runs).toBe(runs);
      await fuzzTarget(fx.gw.url, entry!.target, entry!.runs, fx.gw.docs);
    });
  }

  it(`when unknown paths under the public prefixes are asked (numRuns=${UNKNOWN_ROUTE_RUNS}), then 404 or 405 in the error shape`, async () => {
    const prefix = fc.constantFrom(
      '/api/public/',
      '/api/public/bot/',
      '/assist/api/v1/public/',
      '/api/public/connections/x/',
      '/api/admin/',
      '/',
    );
    const prop = fc.asyncProperty(
      prefix,
      hostileSegment,
      queryString(['a', '__proto__']),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      async (p, seg, query, method) => {
        const path = `${p}${seg}/${seg}${query}`;
        const a = await send(fx.gw.url, {
          method,
          path,
          headers: { auth: fx.client.token(), 'x-api-key': fx.apiKey },
        });
        checkAnswer(a, { what: `${method} ${path}`, docs: fx.gw.docs });
        if (!a.contentType.startsWith('application/voicexml') && a.status < 400)
          throw new Error(`an unknown path answered ${a.status}: ${path}`);
      },
    );
    await checkProperty('unknown public paths', UNKNOWN_ROUTE_RUNS, prop);
  });

  it('when the sandbox answers of this suite are checked against vxml.xsd, then all are valid VoiceXML 2.1', async () => {
    expect(fx.gw.docs.docs.length).toBeGreaterThan(10);
    await timed(`public XSD validation of ${fx.gw.docs.docs.length} documents`, fx.gw.docs.docs.length, () =>
      fx.gw.docs.validateAll(),
    );
  });

  it('when the runs are over, then Object.prototype and the other built-in prototypes are unpolluted', () => {
    expect(pollutionProblem(snapshot)).toBeNull();
  });
});
