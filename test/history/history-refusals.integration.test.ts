import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHs256 } from '../../src/platform/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { ALICE, ICON, dataset, historyHarness, type HistoryHarness } from './history-harness.js';

const ivr = { userId: ALICE.userId, channelType: 'ivr' };

describeEachStore('conversation history refusals, auth, limits and encoding', 'api', (factory) => {
  let h: HistoryHarness;

  beforeAll(async () => {
    h = await historyHarness(factory);
    await h.comp.recorder.record(dataset(h.botId).messages);
  });
  afterAll(() => h.close());

  const refused = async (res: request.Response, path: string, msg: string | RegExp) => {
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path, msg: expect.stringMatching(msg) })]),
    );
  };

  describe('400 with the problem and its path', () => {
    it("when limit is over the version's maximum, then 400 (not a silent cut)", async () => {
      await refused(
        await h.get('v1', { ...ivr, limit: '101' }),
        'query.limit',
        'must be at most 100 for getMessages',
      );
      await refused(
        await h.post('v1', { ...ivr, limit: 101 }),
        'body.limit',
        'must be at most 100 for getMessages',
      );
      await refused(
        await h.get('v2', { ...ivr, limit: '10001', includeSecureForm: 'false' }),
        'query.limit',
        'must be at most 10000 for getMessagesV2',
      );
      await h.get('v1', { ...ivr, limit: '100' }).expect(200);
      await h.get('v2', { ...ivr, limit: '10000', includeSecureForm: 'false' }).expect(200);
    });
    it('when limit, skip or a flag is not a clean number or boolean, then 400', async () => {
      await refused(await h.get('v1', { ...ivr, limit: 'ten' }), 'query.limit', 'must be an integer');
      await refused(await h.get('v1', { ...ivr, limit: '2.5' }), 'query.limit', 'must be an integer');
      await refused(await h.get('v1', { ...ivr, limit: '0' }), 'query.limit', 'must be at least 1');
      await refused(await h.get('v1', { ...ivr, skip: '-1' }), 'query.skip', 'must be at least 0');
      await refused(await h.get('v1', { ...ivr, forward: 'yes' }), 'query.forward', 'must be true or false');
      await refused(
        await h.post('v1', { ...ivr, includeTraceId: 1 }),
        'body.includeTraceId',
        'must be true or false',
      );
      await refused(await h.get('v1', { ...ivr, direction: 'up' }), 'query.direction', 'must be an integer');
      await refused(await h.get('v1', { ...ivr, skip: '1', offset: '2' }), 'query.offset', 'skip and offset');
    });
    it('when channelType is not one of the 25 values, then 400', async () => {
      await refused(
        await h.get('v1', { ...ivr, channelType: 'whatsapp' }),
        'query.channelType',
        /must be one of msteams, .*rcs$/,
      );
      for (const ok of ['msteams', 'ivrVoice', 'googleactions', 'rcs', 'native', 'assist'])
        await h.get('v1', { ...ivr, channelType: ok }).expect(200);
    });
    it('when the span between dateFrom and dateTo is 7 days or more, then 400', async () => {
      await refused(
        await h.get('v1', { ...ivr, dateFrom: '2025-01-01', dateTo: '2025-01-08' }),
        'query.dateTo',
        'less than 7 days',
      );
      await refused(
        await h.get('v1', {
          ...ivr,
          dateFrom: '2025-01-01T00:00:00.000Z',
          dateTo: '2025-01-08T00:00:00.000Z',
        }),
        'query.dateTo',
        'less than 7 days',
      );
      await h.get('v1', { ...ivr, dateFrom: '2025-01-01', dateTo: '2025-01-07' }).expect(200);
      await h
        .get('v1', { ...ivr, dateFrom: '2025-01-01T00:00:00.000Z', dateTo: '2025-01-07T23:59:59.999Z' })
        .expect(200);
    });
    it('when dateFrom is after dateTo, then 400', async () => {
      await refused(
        await h.post('v1', { ...ivr, dateFrom: '2025-01-05', dateTo: '2025-01-04' }),
        'body.dateFrom',
        'dateFrom must not be after dateTo',
      );
    });
    it('when a date is malformed, then 400', async () => {
      for (const bad of [
        '2025-13-01',
        '2025-02-30',
        '01/02/2025',
        '2025-01-02T10:00:00',
        '2025-01-02T25:00:00.000Z',
        'yesterday',
      ]) {
        await refused(
          await h.get('v1', { ...ivr, dateFrom: bad }),
          'query.dateFrom',
          'must be yyyy-mm-dd or yyyy-mm-ddThh:mm:ss.msZ',
        );
      }
    });
    it('when msgId comes with dateFrom or dateTo, then 400', async () => {
      const msgId = 'ms-00000000-0000-5000-a000-000000000000';
      await refused(
        await h.get('v1', { ...ivr, msgId, dateFrom: '2025-01-10' }),
        'query.dateFrom',
        'msgId cannot be used with dateFrom',
      );
      await refused(
        await h.post('v1', { ...ivr, msgId, dateTo: '2025-01-10' }),
        'body.dateTo',
        'msgId cannot be used with dateTo',
      );
    });
    it('when userId is missing on GET, then 400; on POST it is optional', async () => {
      await refused(await h.get('v1', { channelType: 'ivr' }), 'query.userId', 'userId is required');
      await h.post('v1', { channelType: 'ivr' }).expect(200);
    });
    it('when includeSecureForm is missing on v2, then 400 (GET and POST)', async () => {
      await refused(
        await h.get('v2', ivr),
        'query.includeSecureForm',
        'includeSecureForm is required for getMessagesV2',
      );
      await refused(
        await h.post('v2', ivr),
        'body.includeSecureForm',
        'includeSecureForm is required for getMessagesV2',
      );
    });
    it('when several parameters are wrong, then each problem is listed', async () => {
      const res = await h.get('v1', { limit: '500', channelType: 'x', dateFrom: 'nope' }).expect(400);
      expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'query.channelType',
        'query.dateFrom',
        'query.limit',
        'query.userId',
      ]);
    });
  });

  describe('401 and 403', () => {
    it('when no token or a malformed token is sent, then 401', async () => {
      const path = `/api/public/bot/${h.botId}/getMessages`;
      const none = await request(h.t.app).get(path).query(ivr).expect(401);
      expect(none.body.errors[0]).toMatchObject({ msg: 'Invalid SDK credentials', code: 4002 });
      const bad = await request(h.t.app).get(path).query(ivr).set('auth', 'not-a-jwt').expect(401);
      expect(bad.body.errors[0].code).toBe(4002);
      await request(h.t.app).post('/api/public/getMessages').send({}).expect(401);
    });
    it('when the token belongs to another app, then 401', async () => {
      const other = await h.t.createAppWithClient(['chat-history']);
      await h.get('v1', ivr, other.token()).expect(401);
      await h.post('v2', { ...ivr, includeSecureForm: true }, other.token()).expect(401);
    });
    it('when the token lacks the chat-history scope, then 403', async () => {
      const client = await h.t.apps.createApiApp(h.botId, { name: 'tables only', scopes: ['tables'] });
      const token = signHs256({ appId: client.clientId, sub: 'u' }, client.clientSecret);
      const res = await h.get('v1', ivr, token).expect(403);
      expect(res.body.errors[0]).toMatchObject({ msg: 'Permission denied. Scope is incorrect!', code: 4002 });
      await request(h.t.app).post('/api/public/getMessages').set('auth', token).send({}).expect(403);
    });
  });

  describe('admin console form and encoding', () => {
    it("when POST /api/public/getMessages is called, then the JWT's app is read (v1 rules)", async () => {
      const res = await request(h.t.app)
        .post('/api/public/getMessages')
        .set('auth', h.token())
        .send({ ...ivr, limit: 100 })
        .expect(200);
      expect(res.body).toMatchObject({ total: 16, icon: ICON });
      expect(res.body.messages.every((m: { botId: string }) => m.botId === h.botId)).toBe(true);
      const over = await request(h.t.app)
        .post('/api/public/getMessages')
        .set('auth', h.token())
        .send({ limit: 101 })
        .expect(400);
      expect(over.body.errors[0].path).toBe('body.limit');
    });
    it('when the client accepts gzip, then the answer is gzip-encoded', async () => {
      const res = await h
        .post('v2', { channelType: 'ivr', limit: 100, includeSecureForm: true })
        .set('Accept-Encoding', 'gzip')
        .expect(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.body.messages.length).toBeGreaterThan(10);
    });
    it('when another method is used, then 405', async () => {
      await request(h.t.app)
        .delete(`/api/public/bot/${h.botId}/getMessages`)
        .set('auth', h.token())
        .expect(405);
    });
  });
});

describeEachStore('conversation history rate limit', 'api', (factory) => {
  it('when a bot exceeds its per-minute limit, then 429 with Retry-After and the platform message', async () => {
    const h = await historyHarness(factory, { rateLimits: { perMinute: 3, perHour: 100 } });
    try {
      for (let i = 0; i < 3; i++) await h.get('v1', ivr).expect(200);
      const res = await h.get('v1', ivr).expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.body.errors[0].msg).toBe(
        'Rate limit for this API has been reached. Please try again after some time.',
      );
      await h.post('v2', { ...ivr, includeSecureForm: true }).expect(429);
    } finally {
      await h.close();
    }
  });
});
