import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileAgent,
  demoAgentDefinition,
  IntentModelError,
  listIntentPhrases,
  loadCompiledAgent,
  trainAgentModel,
  type CompiledAgent,
} from '../../src/agent/index.js';

const heldOut = JSON.parse(
  readFileSync(new URL('../fixtures/agent/held-out-phrases.json', import.meta.url), 'utf8'),
) as {
  phrases: { text: string; intent: string }[];
};

let agent: CompiledAgent;
beforeAll(async () => {
  agent = await compileAgent(demoAgentDefinition);
});

describe('intent recognizer', () => {
  it('when held-out phrasings of the demo agent are recognised, then accuracy is above the floor', async () => {
    let correct = 0;
    for (const p of heldOut.phrases)
      if ((await agent.recognizer.recognize(p.text)).intent === p.intent) correct += 1;
    const accuracy = correct / heldOut.phrases.length;
    console.log(
      `[agent] intent accuracy on ${heldOut.phrases.length} held-out phrasings: ${(accuracy * 100).toFixed(1)}%`,
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.6);
  });

  it('when held-out phrasings of the demo agent are recognised, then their own intent has the best score, accepted or not', async () => {
    let first = 0;
    for (const p of heldOut.phrases)
      if ((await agent.recognizer.recognize(p.text)).scores[0]?.intent === p.intent) first += 1;
    expect(first / heldOut.phrases.length).toBeGreaterThanOrEqual(0.9);
  });

  it('when a training utterance is recognised, then its intent wins with every score reported', async () => {
    const r = await agent.recognizer.recognize('book a table');
    expect(r).toMatchObject({ intent: 'BookTable', source: 'nlu' });
    expect(r.score).toBeGreaterThanOrEqual(0.6);
    expect(r.scores[0]).toEqual({ intent: 'BookTable', score: r.score });
  });

  it('when the text matches nothing, then the intent is None', async () => {
    for (const text of ['banana', 'hmm', '', '1234'])
      expect((await agent.recognizer.recognize(text)).intent).toBe('None');
  });

  it('when the best score is below the threshold, then the intent is None with that score', async () => {
    const normal = await agent.recognizer.recognize('get me a human');
    expect(normal.intent).toBe('TalkToHuman');
    expect(normal.score).toBeLessThan(0.999);
    const strict = await compileAgent({ ...demoAgentDefinition, intentThreshold: 0.999 });
    const r = await strict.recognizer.recognize('get me a human');
    expect(r.intent).toBe('None');
    expect(r.score).toBeCloseTo(normal.score, 6);
  });

  it('when the model is exported and imported, then scores are identical without retraining', async () => {
    const model = agent.exportModel();
    const loaded = loadCompiledAgent(demoAgentDefinition, model);
    for (const p of heldOut.phrases) {
      expect(await loaded.recognizer.recognize(p.text)).toEqual(await agent.recognizer.recognize(p.text));
    }
    expect(loaded.exportModel()).toBe(model);
  });

  it('when trainAgentModel trains on its own (as a worker thread does), then its model loads and recognises as the compiled agent does', async () => {
    const model = await trainAgentModel(demoAgentDefinition);
    const loaded = loadCompiledAgent(demoAgentDefinition, model);
    for (const p of heldOut.phrases) {
      expect(await loaded.recognizer.recognize(p.text)).toEqual(await agent.recognizer.recognize(p.text));
    }
    // the model is the agent's phrases and what they were encoded with: small, no vectors in it
    const parsed = JSON.parse(model) as {
      version: number;
      intents: Array<{ name: string; utterances: string[] }>;
    };
    expect(parsed.version).toBe(3);
    expect(parsed.intents.map((i) => i.name)).toEqual(['BookTable', 'AskQuestion', 'TalkToHuman']);
    expect(model.length).toBeLessThan(5_000);
  });

  it('when a model of an older version (an nlp.js network) is loaded, then it is refused so that the registry trains the agent again', () => {
    const current = JSON.parse(agent.exportModel()) as Record<string, unknown>;
    const nlpJsModel = {
      format: current.format,
      version: 2,
      language: 'en',
      fingerprint: current.fingerprint,
      nlp: { nluManager: {} },
    };
    expect(() => loadCompiledAgent(demoAgentDefinition, JSON.stringify(nlpJsModel))).toThrow(
      IntentModelError,
    );
    expect(() => loadCompiledAgent(demoAgentDefinition, JSON.stringify({ ...current, version: 2 }))).toThrow(
      /v3/,
    );
    expect(() =>
      loadCompiledAgent(demoAgentDefinition, JSON.stringify({ ...current, vectors: 'other-vectors/1000' })),
    ).toThrow(IntentModelError);
  });

  it('when the model was trained from other utterances, then loading it is refused', () => {
    const changed = structuredClone(demoAgentDefinition) as { intents: { utterances: string[] }[] };
    changed.intents[0]?.utterances.push('a brand new phrasing');
    expect(() => loadCompiledAgent(changed, agent.exportModel())).toThrow(IntentModelError);
    expect(() => loadCompiledAgent(demoAgentDefinition, '{"not":"a model"}')).toThrow(IntentModelError);
  });

  it('when the VXML side asks for the intent phrases, then each intent comes with its utterances', () => {
    const phrases = listIntentPhrases(agent);
    expect(phrases.map((p) => p.intent)).toEqual(['BookTable', 'AskQuestion', 'TalkToHuman']);
    expect(phrases[0]?.utterances).toContain('book a table');
    expect(phrases.every((p) => p.utterances.length >= 8)).toBe(true);
  });
});
