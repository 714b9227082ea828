/**
 * Issue 43: a batch run honours the `bot-language` header with the app's real agent (the registry's
 * recognizer adapter over a compiled bilingual agent): `es` runs the Spanish model and reports
 * `botLanguage: es`; a language the agent lacks is a 400 at the header.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { agentRecognizers } from '../../src/admin/index.js';
import { bilingualDemoAgentDefinition, compileAgent, type CompiledAgent } from '../../src/agent/index.js';
import type { Store } from '../../src/store/index.js';
import { makeHarness, putSuite, statusPath, waitForStatus, type Harness } from './testruns-harness.js';

const SPANISH_SUITE = [
  { utterance: 'quiero reservar una mesa para dos', intent: 'BookTable' },
  { utterance: 'cuál es su horario', intent: 'OpeningHours' },
  { utterance: 'adiós', intent: 'Goodbye' },
];

describeEachStore("batch runs in the agent's languages", 'api', (factory) => {
  let store: Store;
  let h: Harness;
  let app: Awaited<ReturnType<Harness['t']['createAppWithClient']>>;
  let agent: CompiledAgent;

  beforeAll(async () => {
    store = await factory.make();
    agent = await compileAgent(bilingualDemoAgentDefinition);
    h = await makeHarness(
      store,
      {},
      new Map(),
      agentRecognizers({
        resolve: async () => ({ agent, version: 'bilingual', from: 'published' as const }),
      }),
    );
    app = await h.t.createAppWithClient(['batch-tests']);
    await putSuite(h.t, app.streamId, 'spanish', SPANISH_SUITE);
  });
  afterAll(async () => {
    await h.component.stop();
    await store.close();
  });

  describe('a run', () => {
    it('when bot-language is es, then the Spanish model answers and the result says botLanguage es', async () => {
      const res = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/spanish/run`)
        .set('auth', app.token())
        .set('bot-language', 'es')
        .send({ runType: 'published' });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.botLanguage).toBe('es');
      const done = await waitForStatus(h.t, statusPath(app.streamId, 'spanish', res.body._id), app.token());
      expect(done.result).toMatchObject({ botLanguage: 'es', status: 'completed' });
      expect(done.result.results.TP).toBe(SPANISH_SUITE.length);
    });

    it('when bot-language is a language the agent lacks, then the run is refused with 400 at the header', async () => {
      const res = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/spanish/run`)
        .set('auth', app.token())
        .set('bot-language', 'fr');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('headers.bot-language');
      expect(res.body.errors[0].msg).toContain('en-US, es-US');
    });
  });
});
