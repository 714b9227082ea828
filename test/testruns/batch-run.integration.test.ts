import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { storeKeys, type Store } from '../../src/store/index.js';
import { gatedRecognizer, keywordRecognizer } from './keyword-recognizer.js';
import {
  admin,
  launch,
  makeHarness,
  putSuite,
  statusPath,
  waitForStatus,
  type Harness,
} from './testruns-harness.js';

const INTENTS = {
  BookFlight: ['book', 'flight', 'fly'],
  Weather: ['weather', 'forecast', 'joke'],
  CancelFlight: ['refund'],
};
const TRICKY = 'book a "flight", to\nParis';
const FORMULA = "=cmd|' /C calc'!A0";

/** Thirteen utterances with known outcomes under keywordRecognizer(INTENTS). */
const SUITE = [
  { utterance: 'book a flight', intent: 'BookFlight' }, //                              1 TP
  { utterance: 'I want to fly', intent: 'BookFlight' }, //                              2 TP
  { utterance: 'what is the weather', intent: 'Weather' }, //                           3 TP
  { utterance: 'cancel my flight', intent: 'CancelFlight' }, //                         4 wrong intent (BookFlight): FP and FN
  { utterance: 'hello there', intent: 'None' }, //                                      5 None expected, None matched: TN
  { utterance: 'tell me a joke', intent: 'None' }, //                                   6 None expected, Weather matched: FP
  { utterance: 'will it rain', intent: 'Weather' }, //                                  7 Weather expected, None matched: FN
  { utterance: TRICKY, intent: 'BookFlight', entities: [{ name: 'city', value: 'Paris' }] }, // 8 TP, entity matched
  { utterance: 'book a flight to Rome', intent: 'BookFlight', entities: [{ name: 'city', value: 'London' }] }, // 9 TP, entity not matched
  { utterance: 'weather forecast please', intent: 'Weather' }, //                       10 TP
  { utterance: 'is it sunny', intent: 'Weather' }, //                                   11 FN
  { utterance: 'explode now', intent: 'BookFlight' }, //                                12 recognizer error
  { utterance: FORMULA, intent: 'none' }, //                                            13 TN
];
// Worked by hand: TP = {1,2,3,8,9,10} = 6; TN = {5,13} = 2; FP = {4,6} = 2; FN = {4,7,11} = 3.
// success = right intent outcome and all entities matched = {1,2,3,5,8,10,13} = 7; failure = 13 - 7 = 6.
// precision = 6/(6+2) = 0.75; recall = 6/(6+3) = 0.666… → "0.67"; f1 = 2·0.75·0.667/(0.75+0.667) = 0.7059 → "0.71".
const PLATFORM_RESULTS = {
  TP: 6,
  TN: 2,
  FP: 2,
  FN: 3,
  success: 7,
  failure: 6,
  traitSuccess: 0,
  traitFailure: 0,
  totalEntitiesCount: 2,
  matchedEntitiesCount: 1,
  totalTraitsCount: 0,
  matchedTraitsCount: 0,
  failedUtteranceCount: 1,
  failedEntitiesCount: 1,
};
// None as a class, over the 12 utterances scored (12 failed, so it is in none of these):
// expected None = {5,6,13} = 3, of which routed to an intent (false accepts) = {6} = 1;
// expected an intent = {1,2,3,4,7,8,9,10,11} = 9, right = {1,2,3,8,9,10} = 6, routed to None (false rejects) = {7,11} = 2.
const EXPECTED_RESULTS = {
  ...PLATFORM_RESULTS,
  outOfScopeCount: 3,
  falseAcceptCount: 1,
  inScopeCount: 9,
  inScopeCorrectCount: 6,
  falseRejectCount: 2,
};
// Expected (rows) against matched (columns), intents alphabetically then None:
//   BookFlight {1,2,8,9} → BookFlight; CancelFlight {4} → BookFlight; Weather {3,10} → Weather, {7,11} → None;
//   None {5,13} → None, {6} → Weather.
const EXPECTED_MATRIX = {
  labels: ['BookFlight', 'CancelFlight', 'Weather', 'None'],
  matrix: [
    [4, 0, 0, 0],
    [1, 0, 0, 0],
    [0, 0, 2, 2],
    [0, 0, 1, 2],
  ],
};
// Calibration, as the recognizer's evaluation has it: confidence = the recognizer's score (hits/(hits+1)
// of its best-scoring intent B, scores[0]; ties keep INTENTS order, so B = BookFlight when nothing hits),
// right = (B = expected), never right when None is expected (no intent is right), whatever the threshold decided:
//   score 0   (bin 0): {5 B=BookFlight, None expected: wrong; 7 B=BookFlight ≠ Weather: wrong;
//                       11 likewise wrong; 13 None expected: wrong}            n=4, mean confidence 0,   accuracy 0
//   score 1/2 (bin 5): {2 right, 3 right, 4 B=BookFlight ≠ CancelFlight: wrong,
//                       6 B=Weather, None expected: wrong}                     n=4, mean confidence 1/2, accuracy 1/2
//   score 2/3 (bin 6): {1, 8, 9, 10} B = expected, all right                   n=4, mean confidence 2/3, accuracy 1
//   ECE = 4/12·|0 − 0| + 4/12·|1/2 − 1/2| + 4/12·|1 − 2/3| = 1/9.
//   (Under the older definition, correct = matched = expected with None included, the correct
//   rejections 5 and 13 made bin 0 right at 1/2 and the ECE 5/18.)
const EXPECTED_ECE = 1 / 9;
const EXPECTED_BINS: Record<number, { count: number; meanConfidence: number; accuracy: number }> = {
  0: { count: 4, meanConfidence: 0, accuracy: 0 },
  5: { count: 4, meanConfidence: 0.5, accuracy: 0.5 },
  6: { count: 4, meanConfidence: 2 / 3, accuracy: 1 },
};

describeEachStore('batch test runs', 'api', (factory) => {
  let store: Store;
  let h: Harness;
  let app: { streamId: string; token: (claims?: Record<string, unknown>) => string };
  let other: { streamId: string; token: (claims?: Record<string, unknown>) => string };

  beforeAll(async () => {
    store = await factory.make();
    h = await makeHarness(store, { chunkSize: 4 });
    app = await h.t.createAppWithClient(['batch-tests']);
    other = await h.t.createAppWithClient(['batch-tests']);
    h.agents.set(app.streamId, keywordRecognizer(INTENTS, { failOn: /explode/ }));
    h.agents.set(other.streamId, keywordRecognizer(INTENTS));
    await putSuite(h.t, app.streamId, 'regression', SUITE);
  });
  afterAll(async () => {
    await h.component.stop();
    await store.close();
  });

  describe('test suites', () => {
    it('when a suite is put again under the same name, then its id stays and GET returns the new utterances', async () => {
      const first = await putSuite(h.t, app.streamId, 'smoke suite', [
        { utterance: 'book a flight', intent: 'BookFlight' },
      ]);
      expect(first.id).toMatch(/^ts-[0-9a-f-]{36}$/);
      const second = await putSuite(h.t, app.streamId, 'smoke suite', [
        { utterance: 'hi', intent: 'None' },
        { utterance: 'fly', intent: 'BookFlight' },
      ]);
      expect(second.id).toBe(first.id);
      const got = await request(h.t.app)
        .get(`/api/admin/apps/${app.streamId}/testsuites/smoke%20suite`)
        .set(admin);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        id: first.id,
        name: 'smoke suite',
        utteranceCount: 2,
        utterances: [{ utterance: 'hi', intent: 'None' }, { utterance: 'fly' }],
      });
      const underscore = await putSuite(h.t, app.streamId, 'smoke_suite', [
        { utterance: 'x', intent: 'None' },
      ]);
      expect(underscore.id).not.toBe(first.id);
    });

    it('when a suite is invalid, then 400 names every problem with its path', async () => {
      const res = await request(h.t.app)
        .put(`/api/admin/apps/${app.streamId}/testsuites/bad`)
        .set(admin)
        .send({
          utterances: [
            { utterance: 'ok', intent: 'A' },
            { utterance: '  ', intent: '' },
            { utterance: 'x', intent: 'B', entities: [{ name: 'city' }] },
          ],
        });
      expect(res.status).toBe(400);
      const paths = (res.body.errors as Array<{ path: string }>).map((e) => e.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          'body.utterances.1.utterance',
          'body.utterances.1.intent',
          'body.utterances.2.entities.0.value',
        ]),
      );
      const empty = await request(h.t.app)
        .put(`/api/admin/apps/${app.streamId}/testsuites/bad`)
        .set(admin)
        .send({ utterances: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.errors[0].path).toBe('body.utterances');
    });

    it('when the app or the suite is unknown, then 404', async () => {
      const noApp = await request(h.t.app)
        .put('/api/admin/apps/st-00000000-0000-0000-0000-000000000000/testsuites/x')
        .set(admin)
        .send({ utterances: [{ utterance: 'a', intent: 'None' }] });
      expect(noApp.status).toBe(404);
      const noSuite = await request(h.t.app)
        .get(`/api/admin/apps/${app.streamId}/testsuites/missing`)
        .set(admin);
      expect(noSuite.status).toBe(404);
      expect(noSuite.body.errors[0].msg).toBe('Test Suite not found');
    });
  });

  describe('a completed run', () => {
    let runId: string;
    let done: Record<string, any>;

    beforeAll(async () => {
      const res = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/regression/run`)
        .set('auth', app.token())
        .set('bot-language', 'en')
        .send({ runType: 'published' });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({
        status: 'accepted',
        streamId: app.streamId,
        runType: 'published',
        botLanguage: 'en',
        utterance_count: SUITE.length,
      });
      expect(res.body._id).toMatch(/^tr-[0-9a-f-]{36}$/);
      expect(res.body.statusUrl).toContain(
        `/api/public/bot/${app.streamId}/testsuite/regression/${res.body._id}/status`,
      );
      runId = res.body._id;
      done = await waitForStatus(h.t, statusPath(app.streamId, 'regression', runId), app.token());
    });

    it('when it has finished, then the completed form carries every result member', async () => {
      expect(done.status).toBe('completed');
      expect(done).not.toHaveProperty('totalUtterances');
      expect(done).not.toHaveProperty('utterance_ran');
      expect(done).not.toHaveProperty('percentage');
      const suite = await request(h.t.app)
        .get(`/api/admin/apps/${app.streamId}/testsuites/regression`)
        .set(admin);
      const r = done.result;
      expect(r).toMatchObject({
        _id: runId,
        isPartialFailure: false,
        status: 'completed',
        testSuiteId: suite.body.id,
        streamId: app.streamId,
        botLanguage: 'en',
        runType: 'published',
        utterance_count: 13,
        __v: 0,
        isAvailable: true,
      });
      expect(r.triggeredBy).toMatch(
        /^u-[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(Date.parse(r.startTime)).toBeLessThanOrEqual(Date.parse(r.endTime));
      expect(r.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r.fileId).toMatch(/^fl-/);
      expect(r.fileUrl).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/api\/public\/testruns\/files\/fl-[^?]+\?exp=\d+&sig=/,
      );
    });

    it('when the counters are read, then they match the hand-worked outcomes and ratios', () => {
      expect(done.result.results).toEqual(EXPECTED_RESULTS);
      expect(done.result.precision).toBe('0.75');
      expect(done.result.recall).toBe('0.67');
      expect(done.result.f1_score).toBe('0.71');
    });

    it('when None is expected for some utterances, then the result carries the false-accept rate, in-scope accuracy and a confusion matrix with None', () => {
      expect(done.result.falseAcceptRate).toBeCloseTo(1 / 3, 10);
      expect(done.result.inScopeAccuracy).toBeCloseTo(6 / 9, 10);
      expect(done.result.confusionMatrix).toEqual(EXPECTED_MATRIX);
    });

    it('when the calibration is read, then the ECE and every bin match the hand-worked figures', () => {
      const cal = done.result.calibration as {
        ece: number;
        bins: Array<{
          from: number;
          to: number;
          count: number;
          meanConfidence: number | null;
          accuracy: number | null;
        }>;
      };
      expect(cal.ece).toBeCloseTo(EXPECTED_ECE, 10);
      expect(cal.bins).toHaveLength(10);
      cal.bins.forEach((b, i) => {
        expect(b.from).toBeCloseTo(i / 10, 10);
        expect(b.to).toBeCloseTo((i + 1) / 10, 10);
        const want = EXPECTED_BINS[i];
        if (!want)
          return expect(b, `bin ${i}`).toMatchObject({ count: 0, meanConfidence: null, accuracy: null });
        expect(b.count, `bin ${i}`).toBe(want.count);
        expect(b.meanConfidence).toBeCloseTo(want.meanConfidence, 10);
        expect(b.accuracy).toBeCloseTo(want.accuracy, 10);
      });
    });

    it('when the OpenAPI document is read, then the result schema shows the new figures', async () => {
      const doc = await request(h.t.app).get('/openapi.json');
      expect(doc.status).toBe(200);
      const text = JSON.stringify(doc.body);
      for (const name of [
        'falseAcceptRate',
        'inScopeAccuracy',
        'confusionMatrix',
        'calibration',
        'meanConfidence',
        'falseAcceptCount',
      ])
        expect(text).toContain(`"${name}"`);
    });

    it('when the stream form is asked, then it answers the same run', async () => {
      const res = await request(h.t.app)
        .get(`/api/public/stream/${app.streamId}/testsuite/regression/${runId}/status`)
        .set('auth', app.token())
        .set('bot-language', 'en');
      expect(res.status).toBe(200);
      expect(res.body.result.results).toEqual(EXPECTED_RESULTS);
    });

    it('when the file is downloaded without auth, then the CSV has the header block and every row survives', async () => {
      const url = new URL(done.result.fileUrl as string);
      const res = await request(h.t.app)
        .get(url.pathname + url.search)
        .buffer(true)
        .parse((r, cb) => {
          let s = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (s += c));
          r.on('end', () => cb(null, s));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="regression-tr-.+\.csv"$/);
      const rows = parse(res.body as string, { relax_column_count: true });
      const columnsAt = rows.findIndex((r) => r[0] === 'Utterance');
      const head = Object.fromEntries(rows.slice(0, columnsAt).map((r) => [r[0], r[1]]));
      expect(head).toMatchObject({
        'App Name': 'Test app',
        'Report Name': 'regression',
        Language: 'en',
        'Run Type': 'published',
        'Utterance Count': '13',
        'Success/Failure Ratio': '53.85% / 46.15%',
        'True Positive (TP)': '46.15%',
        'True Negative (TN)': '15.38%',
        'False Positive (FP)': '15.38%',
        'False Negative (FN)': '23.08%',
        'False Accept Rate': '33.33% (1 of 3 expected None)',
        'In-Scope Accuracy': '66.67% (6 of 9 expected an intent)',
        'Expected Calibration Error': (1 / 9).toFixed(4),
      });
      // the platform's rows keep their places: the new ones come after them
      expect(rows.slice(10, 14).map((r) => r[0])).toEqual([
        'True Positive (TP)',
        'True Negative (TN)',
        'False Positive (FP)',
        'False Negative (FN)',
      ]);
      expect(head.Thresholds).toContain('0.50');
      expect(head['Last Tested']).toBe(done.result.endTime);
      expect(rows[columnsAt]).toEqual([
        'Utterance',
        'Expected Intent',
        'Matched Intent',
        'Parent Intent',
        'Task State',
        'Result Type',
        'Entity Name',
        'Expected Entity Value',
        'Matched Entity Value',
        'Entity Result',
        "Matched Intent's Score",
        "Expected Intent's Score",
        'Intent Outcome',
        'Confidence',
      ]);
      const data = rows.slice(columnsAt + 1);
      expect(data).toHaveLength(13);
      const byText = new Map(data.map((r) => [r[0], r]));
      expect(byText.get(TRICKY)).toEqual([
        TRICKY,
        'BookFlight',
        'BookFlight',
        '',
        'Published',
        'TP',
        'city',
        'Paris',
        'Paris',
        'Matched',
        '0.67',
        '0.67',
        'Correct',
        '0.6667',
      ]);
      expect(byText.get('book a flight to Rome')?.slice(5, 10)).toEqual([
        'TP',
        'city',
        'London',
        'Rome',
        'Not Matched',
      ]);
      expect(byText.get('cancel my flight')?.slice(1, 6)).toEqual([
        'CancelFlight',
        'BookFlight',
        '',
        'Published',
        'FP+FN',
      ]);
      expect(byText.get('tell me a joke')?.[5]).toBe('FP');
      expect(byText.get('will it rain')?.slice(2, 6)).toEqual(['None', '', '', 'FN']);
      expect(byText.get('hello there')?.[5]).toBe('TN');
      expect(byText.get('explode now')?.[5]).toBe('Error');
      expect(byText.get(`'${FORMULA}`)?.[5]).toBe('TN');
      // None as a class: each utterance says which way the routing went, with the score behind it
      const outcome = (text: string) => byText.get(text)?.slice(12);
      expect(outcome('tell me a joke')).toEqual(['False Accept', '0.5000']);
      expect(outcome('will it rain')).toEqual(['False Reject', '0.0000']);
      expect(outcome('cancel my flight')).toEqual(['Wrong Intent', '0.5000']);
      expect(outcome('hello there')).toEqual(['Correct', '0.0000']);
      expect(outcome('explode now')).toEqual(['Error', '']);
      expect(data.filter((r) => r[12] === 'False Accept')).toHaveLength(done.result.results.falseAcceptCount);
    });

    it('when the link is tampered with, then 403; without its signature, 403', async () => {
      const url = new URL(done.result.fileUrl as string);
      const sig = url.searchParams.get('sig')!;
      const exp = url.searchParams.get('exp')!;
      const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
      for (const q of [`exp=${exp}&sig=${flipped}`, `exp=${Number(exp) + 1000}&sig=${sig}`, `exp=${exp}`]) {
        const res = await request(h.t.app).get(`${url.pathname}?${q}`);
        expect(res.status, q).toBe(403);
        expect(res.body.errors[0].code).toBe('invalid_link');
      }
      const otherFile = await request(h.t.app).get(
        `/api/public/testruns/files/fl-00000000-0000-0000-0000-000000000000${url.search}`,
      );
      expect(otherFile.status).toBe(403);
    });

    it('when the link has expired, then 410', async () => {
      const shortLived = await makeHarness(store, { linkTtlMs: 1 }, h.agents);
      const body = await waitForStatus(
        shortLived.t,
        statusPath(app.streamId, 'regression', runId),
        app.token(),
      );
      await new Promise((r) => setTimeout(r, 20));
      const url = new URL(body.result.fileUrl as string);
      const res = await request(shortLived.t.app).get(url.pathname + url.search);
      expect(res.status).toBe(410);
      expect(res.body.errors[0].code).toBe('link_expired');
      await shortLived.component.stop();
    });

    it('when the run is asked under another language, another suite or another id, then 404', async () => {
      const lang = await request(h.t.app)
        .get(statusPath(app.streamId, 'regression', runId))
        .set('auth', app.token())
        .set('bot-language', 'de');
      expect(lang.status).toBe(404);
      expect(lang.body.errors[0].msg).toBe('Test Result not found.');
      const wrongSuite = await request(h.t.app)
        .get(statusPath(app.streamId, 'smoke suite', runId))
        .set('auth', app.token());
      expect(wrongSuite.status).toBe(404);
      expect(wrongSuite.body.errors[0].msg).toBe('Test Result not found.');
      const unknownRun = await request(h.t.app)
        .get(statusPath(app.streamId, 'regression', 'tr-00000000-0000-0000-0000-000000000000'))
        .set('auth', app.token());
      expect(unknownRun.status).toBe(404);
      expect(unknownRun.body.errors[0].msg).toBe('Test Result not found.');
      const unknownSuite = await request(h.t.app)
        .get(statusPath(app.streamId, 'nope', runId))
        .set('auth', app.token());
      expect(unknownSuite.status).toBe(404);
      expect(unknownSuite.body.errors[0].msg).toBe('Test Suite not found');
    });

    it('when another app asks for the run, then 401 on its path and 404 on its own', async () => {
      const foreign = await request(h.t.app)
        .get(statusPath(app.streamId, 'regression', runId))
        .set('auth', other.token());
      expect(foreign.status).toBe(401);
      const foreignStream = await request(h.t.app)
        .get(`/api/public/stream/${app.streamId}/testsuite/regression/${runId}/status`)
        .set('auth', other.token());
      expect(foreignStream.status).toBe(401);
      await putSuite(h.t, other.streamId, 'regression', [{ utterance: 'fly', intent: 'BookFlight' }]);
      const ownPath = await request(h.t.app)
        .get(statusPath(other.streamId, 'regression', runId))
        .set('auth', other.token());
      expect(ownPath.status).toBe(404);
      const noToken = await request(h.t.app).get(statusPath(app.streamId, 'regression', runId));
      expect(noToken.status).toBe(401);
    });
  });

  describe('a run stored before the rejection figures existed', () => {
    it('when its status is read, then it answers the platform members as before and none of the new ones', async () => {
      await putSuite(h.t, other.streamId, 'older', [
        { utterance: 'fly', intent: 'BookFlight' },
        { utterance: 'hello', intent: 'None' },
      ]);
      const runId = await launch(h.t, other.streamId, 'older', other.token());
      await waitForStatus(h.t, statusPath(other.streamId, 'older', runId), other.token());
      // what an older version stored: no analysis beside the counters
      await store.atomic([
        { op: 'hdel', key: storeKeys.testRun(other.streamId, runId), fields: ['analysis'] },
      ]);
      const res = await request(h.t.app)
        .get(statusPath(other.streamId, 'older', runId))
        .set('auth', other.token());
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('completed');
      expect(res.body.result).toMatchObject({
        status: 'completed',
        isAvailable: true,
        precision: '1.00',
        recall: '1.00',
        f1_score: '1.00',
      });
      expect(Object.keys(res.body.result.results).sort()).toEqual(Object.keys(PLATFORM_RESULTS).sort());
      expect(res.body.result.results).toMatchObject({ TP: 1, TN: 1, FP: 0, FN: 0 });
      for (const name of ['falseAcceptRate', 'inScopeAccuracy', 'confusionMatrix', 'calibration'])
        expect(res.body.result).not.toHaveProperty(name);
    });
  });

  describe('launching', () => {
    it('when the token lacks the batch-tests scope, then 403', async () => {
      const noScope = await h.t.createAppWithClient(['chat-history']);
      const res = await request(h.t.app)
        .post(`/api/public/bot/${noScope.streamId}/testsuite/regression/run`)
        .set('auth', noScope.token())
        .send({});
      expect(res.status).toBe(403);
      expect(res.body.errors[0].msg).toBe('Permission denied. Scope is incorrect!');
    });

    it('when the suite is unknown, the app has no agent, the language differs or the run type is unknown, then 404, 422, 422, 400', async () => {
      const unknown = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/nope/run`)
        .set('auth', app.token());
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors[0].msg).toBe('Test Suite not found');
      const bare = await h.t.createAppWithClient(['batch-tests']);
      await putSuite(h.t, bare.streamId, 's', [{ utterance: 'a', intent: 'None' }]);
      const noAgent = await request(h.t.app)
        .post(`/api/public/bot/${bare.streamId}/testsuite/s/run`)
        .set('auth', bare.token());
      expect(noAgent.status).toBe(422);
      expect(noAgent.body.errors[0].msg).toContain('no agent');
      const lang = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/regression/run`)
        .set('auth', app.token())
        .set('bot-language', 'fr');
      expect(lang.status).toBe(400);
      expect(lang.body.errors[0].path).toBe('headers.bot-language');
      const badType = await request(h.t.app)
        .post(`/api/public/bot/${app.streamId}/testsuite/regression/run?runType=nightly`)
        .set('auth', app.token());
      expect(badType.status).toBe(400);
      expect(badType.body.errors[0].path).toBe('body.runType');
    });

    it('when the token has a u-<uuid> sub and runType comes in the query, then both are recorded', async () => {
      const sub = 'u-12345678-1234-4234-8234-123456789abc';
      const res = await request(h.t.app)
        .post(`/api/public/bot/${other.streamId}/testsuite/regression/run?runType=published`)
        .set('auth', other.token({ sub }));
      expect(res.status).toBe(202);
      const body = await waitForStatus(
        h.t,
        statusPath(other.streamId, 'regression', res.body._id),
        other.token(),
      );
      expect(body.result).toMatchObject({
        triggeredBy: sub,
        runType: 'published',
        botLanguage: 'en',
        status: 'completed',
      });
      const defaults = await launch(h.t, other.streamId, 'regression', other.token());
      const again = await waitForStatus(
        h.t,
        statusPath(other.streamId, 'regression', defaults),
        other.token(),
      );
      expect(again.result.runType).toBe('inDevelopment');
      expect(again.result.triggeredBy).not.toBe(sub);
    });

    it('when a run of the suite is in progress, then another launch is 409 until it ends', async () => {
      const gated = gatedRecognizer(keywordRecognizer(INTENTS), 1);
      const busy = await h.t.createAppWithClient(['batch-tests']);
      h.agents.set(busy.streamId, gated.recognizer);
      await putSuite(h.t, busy.streamId, 'slow', [
        { utterance: 'fly', intent: 'BookFlight' },
        { utterance: 'book', intent: 'BookFlight' },
      ]);
      const runId = await launch(h.t, busy.streamId, 'slow', busy.token());
      await gated.reached;
      const second = await request(h.t.app)
        .post(`/api/public/bot/${busy.streamId}/testsuite/slow/run`)
        .set('auth', busy.token());
      expect(second.status).toBe(409);
      gated.release();
      await waitForStatus(h.t, statusPath(busy.streamId, 'slow', runId), busy.token());
      await launch(h.t, busy.streamId, 'slow', busy.token());
    });

    it('when the bot API limit is exceeded, then 429 with Retry-After', async () => {
      const limited = await makeHarness(store, { rateLimit: { perMinute: 2, perHour: 100 } }, h.agents);
      const path = statusPath(app.streamId, 'regression', 'tr-00000000-0000-0000-0000-000000000000');
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await request(limited.t.app).get(path).set('auth', app.token())).status);
      expect(codes).toEqual([404, 404, 429]);
      await limited.component.stop();
    });
  });
});
