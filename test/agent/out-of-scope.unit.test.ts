import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileAgent, demoAgentDefinition, type CompiledAgent } from '../../src/agent/index.js';
import { IntentRecognizer, type IntentTrainingData } from '../../src/agent/intent-recognizer.js';

const offTopic = (
  JSON.parse(readFileSync(new URL('../fixtures/nlu/off-topic-phrases.json', import.meta.url), 'utf8')) as {
    phrases: string[];
  }
).phrases;
const heldOut = (
  JSON.parse(readFileSync(new URL('../fixtures/agent/held-out-phrases.json', import.meta.url), 'utf8')) as {
    phrases: { text: string; intent: string }[];
  }
).phrases;
const demoIntents: IntentTrainingData[] = demoAgentDefinition.intents.map((i) => ({
  name: i.name,
  utterances: i.utterances,
}));

let demo: CompiledAgent;
beforeAll(async () => {
  demo = await compileAgent(demoAgentDefinition);
});

describe('out-of-scope rejection and absolute confidence', () => {
  it('when a caller asks the demo agent for something it does not do, then each of 15 such requests reaches the fallback (None)', async () => {
    expect(offTopic).toHaveLength(15);
    expect(offTopic).toEqual(
      expect.arrayContaining([
        'cancel my credit card',
        'who won the football game',
        'I would like to order a pizza',
      ]),
    );
    for (const text of offTopic) {
      const r = await demo.recognizer.recognize(text);
      expect({ text, intent: r.intent }).toEqual({ text, intent: 'None' });
      expect(['out_of_scope', 'below_threshold']).toContain(r.rejection);
    }
  });

  it('when a caller uses in-domain phrasings the agent was not trained on, then most are recognised and none goes to a wrong intent', async () => {
    let recognised = 0;
    for (const p of heldOut) {
      const r = await demo.recognizer.recognize(p.text);
      expect([p.intent, 'None']).toContain(r.intent);
      if (r.intent === p.intent) recognised += 1;
    }
    expect(recognised / heldOut.length).toBeGreaterThanOrEqual(0.75);
  });

  it('when any text is recognised, then every confidence is in [0, 1], best first, and an accepted intent carries the best one', async () => {
    for (const text of [...offTopic, ...heldOut.map((p) => p.text), 'book a table', '???', 'a']) {
      const r = await demo.recognizer.recognize(text);
      for (const s of r.scores) expect(s.score >= 0 && s.score <= 1).toBe(true);
      for (let i = 1; i < r.scores.length; i += 1)
        expect(r.scores[i - 1]!.score).toBeGreaterThanOrEqual(r.scores[i]!.score);
      expect(r.score).toBe(r.scores[0]?.score ?? 0);
      if (r.intent !== 'None') expect(r.intent).toBe(r.scores[0]?.intent);
      else expect(r.rejection).toBeDefined();
    }
  });

  it('when the agent has an out-of-scope example near an utterance, then that utterance is rejected as out of scope instead of recognised', async () => {
    const without = await IntentRecognizer.train(demoIntents, { language: 'en', threshold: 0.6 });
    const withExample = await IntentRecognizer.train(demoIntents, {
      language: 'en',
      threshold: 0.6,
      outOfScope: ['can you deliver a pizza to my house'],
    });
    expect((await without.recognize('do you deliver pizza')).intent).toBe('AskQuestion');
    expect(await withExample.recognize('do you deliver pizza')).toMatchObject({
      intent: 'None',
      rejection: 'out_of_scope',
    });
    // in-domain requests are untouched
    expect((await withExample.recognize('what are your opening hours')).intent).toBe('AskQuestion');
    expect((await withExample.recognize('book a table for two')).intent).toBe('BookTable');
  });

  it('when an intent has a negative phrase near an utterance, then that intent is ruled out for it and keeps its own phrasings', async () => {
    const negatives = demoIntents.map((i) =>
      i.name === 'BookTable' ? { ...i, negatives: ['book a table at a different restaurant'] } : i,
    );
    const without = await IntentRecognizer.train(demoIntents, { language: 'en', threshold: 0.6 });
    const withNegative = await IntentRecognizer.train(negatives, { language: 'en', threshold: 0.6 });
    expect((await without.recognize('book a table at another restaurant')).intent).toBe('BookTable');
    const r = await withNegative.recognize('book a table at another restaurant');
    expect(r.intent).toBe('None');
    expect(r.scores.find((s) => s.intent === 'BookTable')?.score).toBe(0);
    expect((await withNegative.recognize('reserve a table for tonight')).intent).toBe('BookTable');
  });

  it('when a model with out-of-scope examples and negatives is exported and loaded, then it answers identically and its fingerprint covers them', async () => {
    const intents = demoIntents.map((i) =>
      i.name === 'BookTable' ? { ...i, negatives: ['book a table at a different restaurant'] } : i,
    );
    const options = { language: 'en', threshold: 0.6, outOfScope: ['can you deliver a pizza to my house'] };
    const trained = await IntentRecognizer.train(intents, options);
    const loaded = IntentRecognizer.load(trained.export(), {
      threshold: 0.6,
      expectedFingerprint: trained.fingerprint,
    });
    for (const text of [
      ...offTopic,
      ...heldOut.map((p) => p.text),
      'do you deliver pizza',
      'book a table at another restaurant',
    ]) {
      expect(await loaded.recognize(text)).toEqual(await trained.recognize(text));
    }
    expect(loaded.export()).toBe(trained.export());
    const plain = await IntentRecognizer.train(demoIntents, { language: 'en', threshold: 0.6 });
    expect(plain.fingerprint).not.toBe(trained.fingerprint);
    expect(() =>
      IntentRecognizer.load(trained.export(), { threshold: 0.6, expectedFingerprint: plain.fingerprint }),
    ).toThrow(/other intents or utterances/);
  });
});
