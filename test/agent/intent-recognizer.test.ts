import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileAgent, demoAgentDefinition, IntentModelError, listIntentPhrases, loadCompiledAgent, trainAgentModel, type CompiledAgent } from '../../src/agent/index.js';

const heldOut = JSON.parse(readFileSync(new URL('../fixtures/agent/held-out-phrases.json', import.meta.url), 'utf8')) as {
  phrases: { text: string; intent: string }[];
};

let agent: CompiledAgent;
beforeAll(async () => {
  agent = await compileAgent(demoAgentDefinition);
});

describe('intent recognizer (nlp.js)', () => {
  it('when held-out phrasings of the demo agent are recognised, then accuracy is above the floor', async () => {
    let correct = 0;
    for (const p of heldOut.phrases) if ((await agent.recognizer.recognize(p.text)).intent === p.intent) correct += 1;
    const accuracy = correct / heldOut.phrases.length;
    console.log(`[agent] intent accuracy on ${heldOut.phrases.length} held-out phrasings: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.6);
  });

  it('when a training utterance is recognised, then its intent wins with every score reported', async () => {
    const r = await agent.recognizer.recognize('book a table');
    expect(r).toMatchObject({ intent: 'BookTable', source: 'nlu' });
    expect(r.score).toBeGreaterThanOrEqual(0.6);
    expect(r.scores[0]).toEqual({ intent: 'BookTable', score: r.score });
  });

  it('when the text matches nothing, then the intent is None', async () => {
    for (const text of ['banana', 'hmm', '', '1234']) expect((await agent.recognizer.recognize(text)).intent).toBe('None');
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
    // neither the language guesser's copy of every utterance nor the training sentences are part of it
    const nlu = (JSON.parse(model) as { nlp: { nluManager: any } }).nlp.nluManager;
    expect(nlu.extraSentences).toEqual([]);
    expect(nlu.domainManagers.en.sentences).toEqual([]);
    expect(typeof nlu.domainManagers.en.domains.master_domain.neuralNetwork.perceptrons[0]).toBe('string');
  });

  it('when a model of the first format (weights as JSON numbers) is loaded, then it recognises as the current one does', async () => {
    const current = JSON.parse(agent.exportModel()) as { version: number; nlp: { nluManager: any } };
    const net = current.nlp.nluManager.domainManagers.en.domains.master_domain.neuralNetwork;
    net.perceptrons = net.perceptrons.map((p: string) => {
      const bytes = Buffer.from(p, 'base64');
      return Array.from(new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    });
    const old = loadCompiledAgent(demoAgentDefinition, JSON.stringify({ ...current, version: 1 }));
    for (const p of heldOut.phrases) {
      expect(await old.recognizer.recognize(p.text)).toEqual(await agent.recognizer.recognize(p.text));
    }
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
