import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  assistFixture,
  group,
  metaData,
  skill,
  type AssistFixture,
  type Importer,
} from './assist-fixture.js';

const paths = (body: { errors: Array<{ path?: string }> }): Array<string | undefined> =>
  body.errors.map((e) => e.path);

describeEachStore('skill group import', 'api', (factory) => {
  let store: Store;
  let f: AssistFixture;
  let bot: Importer;

  beforeAll(async () => {
    store = await factory.make();
    f = assistFixture(store);
    bot = await f.importer();
  });
  afterAll(() => store.close());

  describe('success', () => {
    it('when valid skill groups are imported, then 200 with a message counting them, and they read back', async () => {
      const r = await f.post(bot, { data: [group('sg-1'), group('sg-2')], metaData: metaData() }).expect(200);
      expect(r.body).toEqual({ msg: '2 skill groups imported successfully' });
      const back = await f.readBack(bot.botId).expect(200);
      expect(back.body.total).toBe(2);
      expect(back.body.skillGroups).toEqual([group('sg-1'), group('sg-2')]);
    });

    it('when optional members are left out, then the import succeeds', async () => {
      const minimal = {
        _id: 'sg-min',
        name: 'Minimal',
        status: 'ACTIVE',
        isDefault: true,
        iId: 'st-x',
        createdByAId: 'ag',
      };
      const r = await f.post(bot, { data: [minimal], metaData: metaData() }).expect(200);
      expect(r.body.msg).toBe('1 skill group imported successfully');
    });
  });

  describe('auth', () => {
    it('when no token is sent, then 401', async () => {
      const r = await request(f.t.app)
        .post(`/assist/api/v1/public/analytics/${bot.botId}/storeAssistFunctionalities`)
        .query({ accountId: 'acc-1', orgId: 'org-1', type: 'skillGroups' })
        .set('accountId', 'acc-1')
        .send({ data: [group('x')], metaData: metaData() })
        .expect(401);
      expect(r.body.errors[0]).toMatchObject({ msg: 'Invalid SDK credentials', code: 4002 });
    });

    it("when another app's token is used for this botId, then 401", async () => {
      const other = await f.importer();
      await f.post(other, { data: [group('x')], metaData: metaData() }, { botId: bot.botId }).expect(401);
    });

    it('when the token lacks the assist-import-export scope, then 403', async () => {
      const weak = await f.importer(['tables']);
      const r = await f.post(weak, { data: [group('x')], metaData: metaData() }).expect(403);
      expect(r.body.errors[0].msg).toBe('Permission denied. Scope is incorrect!');
    });
  });

  describe('request checks', () => {
    it('when a query member is missing, then 400 naming it', async () => {
      const r = await f
        .post(
          bot,
          { data: [group('x')], metaData: metaData() },
          { query: { accountId: undefined, orgId: undefined, type: undefined } },
        )
        .expect(400);
      expect(paths(r.body)).toEqual(['query.accountId', 'query.orgId', 'query.type']);
    });

    it('when the accountId header is missing, then 400 at headers.accountId', async () => {
      const r = await f
        .post(bot, { data: [group('x')], metaData: metaData() }, { accountHeader: null })
        .expect(400);
      expect(paths(r.body)).toEqual(['headers.accountId']);
    });

    it('when the header, query and metaData accountIds disagree, then 400 naming them', async () => {
      const r = await f
        .post(
          bot,
          { data: [group('x')], metaData: metaData({ accountId: 'acc-3' }) },
          { accountHeader: 'acc-2' },
        )
        .expect(400);
      expect(paths(r.body)).toEqual(['headers.accountId', 'body.metaData.accountId']);
      expect(r.body.errors[0].msg).toMatch(/query accountId/);
    });

    it('when orgId or type of metaData disagree with the query, then 400 naming them', async () => {
      const r = await f.post(bot, { data: [group('x')], metaData: metaData({ orgId: 'org-9' }) }).expect(400);
      expect(paths(r.body)).toEqual(['body.metaData.orgId']);
      const t = await f.post(bot, { data: [group('x')], metaData: metaData({ type: 'Queues' }) }).expect(400);
      expect(t.body.errors[0]).toMatchObject({ path: 'body.metaData.type' });
      expect(t.body.errors[0].msg).toMatch(/not supported yet/);
      const u = await f.post(bot, { data: [group('x')], metaData: metaData({ type: 'teams' }) }).expect(400);
      expect(u.body.errors[0].msg).toMatch(/unknown type/);
    });

    it('when the type is Queues, StandardResponses or Waiting Experience, then 400 not supported yet', async () => {
      for (const type of [
        'Queues',
        'queues',
        'StandardResponses',
        'standard_responses',
        'Waiting Experience',
        'waitingExperience',
      ]) {
        const r = await f.post(bot, { anything: true }, { query: { type } }).expect(400);
        expect(r.body.errors[0].path, type).toBe('query.type');
        expect(r.body.errors[0].msg, type).toMatch(/not supported yet/);
      }
    });

    it('when the type is unknown, then 400', async () => {
      const r = await f
        .post(bot, { data: [group('x')], metaData: metaData() }, { query: { type: 'agents' } })
        .expect(400);
      expect(r.body.errors[0]).toMatchObject({ path: 'query.type' });
      expect(r.body.errors[0].msg).toMatch(/unknown type agents/);
    });

    it('when required members are missing or wrong, then 400 with each path', async () => {
      const bad = group('sg-bad', 'Bad', {
        isDefault: 'no',
        skills: [skill('k1'), skill('k2', { iId: undefined }), skill('k3', { name: '' })],
      });
      delete (bad as Record<string, unknown>).createdByAId;
      const r = await f
        .post(bot, {
          data: [group('ok'), bad],
          metaData: { userId: 'u-1', orgId: 'org-1', accountId: 'acc-1' },
        })
        .expect(400);
      expect(paths(r.body)).toEqual(
        expect.arrayContaining([
          'body.data[1].isDefault',
          'body.data[1].createdByAId',
          'body.data[1].skills[1].iId',
          'body.data[1].skills[2].name',
          'body.metaData.type',
        ]),
      );
      expect(r.body.errors).toHaveLength(5);
    });

    it('when data or metaData is missing, then 400', async () => {
      const r = await f.post(bot, {}).expect(400);
      expect(paths(r.body)).toEqual(['body.data', 'body.metaData']);
      const empty = await f.post(bot, { data: [], metaData: metaData() }).expect(400);
      expect(paths(empty.body)).toEqual(['body.data']);
    });

    it('when an id repeats inside one import, then 400 naming the repeat', async () => {
      const r = await f
        .post(bot, {
          data: [group('d1'), group('d1'), group('d2', 'D2', { skills: [skill('k'), skill('k')] })],
          metaData: metaData(),
        })
        .expect(400);
      expect(paths(r.body)).toEqual(['body.data[1]._id', 'body.data[2].skills[1]._id']);
    });

    it('when the body is not JSON, then 415', async () => {
      await f.post(bot, undefined).set('Content-Type', 'text/plain').send('data').expect(415);
    });
  });

  describe('re-import', () => {
    it('when the same ids are imported again, then they are replaced, not duplicated', async () => {
      const b = await f.importer();
      await f
        .post(b, { data: [group('r1', 'First'), group('r2', 'Second')], metaData: metaData() })
        .expect(200);
      await f
        .post(b, {
          data: [group('r1', 'First renamed', { skills: [skill('only')] }), group('r3', 'Third')],
          metaData: metaData(),
        })
        .expect(200);
      const back = await f.readBack(b.botId).expect(200);
      expect(back.body.skillGroups.map((g: { _id: string }) => g._id)).toEqual(['r1', 'r2', 'r3']);
      expect(back.body.skillGroups[0]).toMatchObject({ name: 'First renamed', skills: [skill('only')] });
      expect(await f.component.skillGroups.find({ streamId: b.botId, skillGroupId: 'r1' })).toEqual({
        id: 'r1',
        name: 'First renamed',
      });
      expect((await f.component.listSkillGroupIds(b.botId)).sort()).toEqual(['r1', 'r2', 'r3']);
    });

    it('when groups are imported under another account and org, then each pair reads back its own', async () => {
      const b = await f.importer();
      await f.post(b, { data: [group('a1')], metaData: metaData() }).expect(200);
      const other = { accountId: 'acc-2', orgId: 'org-2' };
      await f
        .post(b, { data: [group('b1')], metaData: metaData(other) }, { query: other, accountHeader: 'acc-2' })
        .expect(200);
      expect(
        (await f.readBack(b.botId).expect(200)).body.skillGroups.map((g: { _id: string }) => g._id),
      ).toEqual(['a1']);
      expect(
        (await f.readBack(b.botId, 'acc-2', 'org-2').expect(200)).body.skillGroups.map(
          (g: { _id: string }) => g._id,
        ),
      ).toEqual(['b1']);
    });
  });
});

describeEachStore('skill group import rate limit', 'api', (factory) => {
  let store: Store;
  beforeAll(async () => {
    store = await factory.make();
  });
  afterAll(() => store.close());

  it('when a bot exceeds its limit, then 429 with Retry-After, and other bots are unaffected', async () => {
    const f = assistFixture(store, { rateLimit: { perMinute: 2, perHour: 100 } });
    const [a, b] = [await f.importer(), await f.importer()];
    const body = { data: [group('x')], metaData: metaData() };
    await f.post(a, body).expect(200);
    await f.post(a, body).expect(200);
    const r = await f.post(a, body).expect(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.body.errors[0].code).toBe('rate_limited');
    await f.post(b, body).expect(200);
  });
});
