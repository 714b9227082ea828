import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Store } from '../../src/store/index.js';
import { describeEachStore } from '../helpers/test-stores.js';
import {
  ACCOUNT,
  ORG,
  assistFixture,
  group,
  metaData,
  type AssistFixture,
  type Importer,
} from './assist-fixture.js';

describeEachStore('skill group read-back and port', 'api', (factory) => {
  let store: Store;
  let f: AssistFixture;
  let bot: Importer;

  beforeAll(async () => {
    store = await factory.make();
    f = assistFixture(store);
    bot = await f.importer();
    await f
      .post(bot, { data: [group('sg-b', 'Billing'), group('sg-a', 'Accounts')], metaData: metaData() })
      .expect(200);
  });
  afterAll(() => store.close());

  describe('GET /api/admin/apps/:streamId/skill-groups', () => {
    it('when groups were imported, then they read back sorted by name with the account and org', async () => {
      const r = await f.readBack(bot.botId).expect(200);
      expect(r.body).toEqual({
        streamId: bot.botId,
        accountId: ACCOUNT,
        orgId: ORG,
        skillGroups: [group('sg-a', 'Accounts'), group('sg-b', 'Billing')],
        total: 2,
      });
    });

    it('when nothing was imported for the pair, then an empty list', async () => {
      const r = await f.readBack(bot.botId, ACCOUNT, 'org-none').expect(200);
      expect(r.body).toMatchObject({ skillGroups: [], total: 0 });
    });

    it('when accountId or orgId is missing, then 400 naming each', async () => {
      const r = await request(f.t.app)
        .get(`/api/admin/apps/${bot.botId}/skill-groups`)
        .set({ Authorization: 'Bearer test-admin-token-0123456789' })
        .expect(400);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(['query.accountId', 'query.orgId']);
    });

    it('when the app is unknown, then 404', async () => {
      await f.readBack('st-00000000-0000-4000-8000-000000000000').expect(404);
    });

    it('when the admin token is missing, then 401', async () => {
      await request(f.t.app)
        .get(`/api/admin/apps/${bot.botId}/skill-groups`)
        .query({ accountId: ACCOUNT, orgId: ORG })
        .expect(401);
    });
  });

  describe('SkillGroupPort and listSkillGroupIds', () => {
    it('when an imported id is looked up, then its id and name', async () => {
      expect(await f.component.skillGroups.find({ streamId: bot.botId, skillGroupId: 'sg-b' })).toEqual({
        id: 'sg-b',
        name: 'Billing',
      });
    });

    it('when the id is unknown or belongs to another app, then null', async () => {
      const other = await f.importer();
      expect(await f.component.skillGroups.find({ streamId: bot.botId, skillGroupId: 'sg-zz' })).toBeNull();
      expect(await f.component.skillGroups.find({ streamId: other.botId, skillGroupId: 'sg-b' })).toBeNull();
    });

    it('when the ids of an app are listed, then every imported group is there once', async () => {
      expect((await f.component.listSkillGroupIds(bot.botId)).sort()).toEqual(['sg-a', 'sg-b']);
      expect(await f.component.listSkillGroupIds('st-00000000-0000-4000-8000-000000000000')).toEqual([]);
    });
  });
});
