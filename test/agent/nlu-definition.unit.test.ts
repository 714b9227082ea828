/** The agent format's recognition settings: validated strictly at their paths, defaults, and the compiled agent's view. */
import { describe, expect, it, vi } from 'vitest';
import {
  compileAgent,
  trainAgentModel,
  validateAgentDefinition,
  type DefinitionProblem,
} from '../../src/agent/index.js';
import { IntentRecognizer } from '../../src/agent/intent-recognizer.js';

const base = (extra: Record<string, unknown> = {}, intentExtra: Record<string, unknown> = {}) => ({
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'welcome',
  intents: [
    {
      name: 'RefillPrescription',
      dialog: 'welcome',
      utterances: ['refill my prescription', 'i need a refill'],
      ...intentExtra,
    },
    { name: 'StoreHours', dialog: 'welcome', utterances: ['when are you open', 'opening hours'] },
  ],
  dialogs: { welcome: { start: 'hi', nodes: { hi: { type: 'message', text: 'Hello.' } } } },
  ...extra,
});

const problems = (input: unknown): DefinitionProblem[] => {
  const r = validateAgentDefinition(input);
  return r.ok ? [] : r.problems;
};
const at = (input: unknown, path: string): string[] =>
  problems(input)
    .filter((p) => p.path === path)
    .map((p) => p.msg);

describe("the nlu block and the intents' recognition settings", () => {
  it('when every member is given, then the definition is valid and the compiled agent carries the settings', async () => {
    const def = base(
      {
        nlu: {
          threshold: 0.5,
          margin: 0.15,
          confirmAbove: 0.8,
          outOfScope: ['cancel my credit card', 'order a pizza'],
          prompts: { confirm: 'You want to {label}?', choose: 'Is it {first} or {second}?', denied: 'OK.' },
        },
      },
      { negatives: ['refill my car'], label: 'get a refill', confirm: 'always', confirmAbove: 0.9 },
    );
    expect(problems(def)).toEqual([]);
    const agent = await compileAgent(def);
    expect(agent.nlu).toMatchObject({
      threshold: 0.5,
      margin: 0.15,
      confirmAbove: 0.8,
      prompts: { confirm: 'You want to {label}?', denied: 'OK.' },
    });
    expect(agent.nlu.intents.get('RefillPrescription')).toEqual({
      label: 'get a refill',
      confirm: 'always',
      confirmAbove: 0.9,
    });
    expect(agent.nlu.intents.get('StoreHours')).toEqual({
      label: 'store hours',
      confirm: 'auto',
      confirmAbove: 0.8,
    });
    expect(agent.recognizer.threshold).toBe(0.5);
  });

  it('when the agent has out-of-scope examples and negatives, then training (in process and for a worker) is given them with the threshold', async () => {
    const train = vi.spyOn(IntentRecognizer, 'train');
    try {
      const def = base(
        { nlu: { threshold: 0.45, outOfScope: ['order a pizza'] } },
        { negatives: ['refill my car'] },
      );
      await compileAgent(def);
      await trainAgentModel(def);
      expect(train).toHaveBeenCalledTimes(2);
      for (const [intents, options] of train.mock.calls) {
        expect(options).toEqual({ language: 'en', threshold: 0.45, outOfScope: ['order a pizza'] });
        expect(intents).toEqual([
          {
            name: 'RefillPrescription',
            utterances: ['refill my prescription', 'i need a refill'],
            negatives: ['refill my car'],
          },
          { name: 'StoreHours', utterances: ['when are you open', 'opening hours'] },
        ]);
      }
    } finally {
      train.mockRestore();
    }
  });

  it('when both intentThreshold and nlu.threshold are given, then nlu.threshold wins; intentThreshold alone still works', async () => {
    expect((await compileAgent(base({ intentThreshold: 0.9, nlu: { threshold: 0.4 } }))).nlu.threshold).toBe(
      0.4,
    );
    expect((await compileAgent(base({ intentThreshold: 0.7 }))).recognizer.threshold).toBe(0.7);
  });

  it('when a member is unknown, out of range or of the wrong type, then it is refused at its path', () => {
    expect(at(base({ nlu: { treshold: 0.5 } }), 'nlu.treshold')).toEqual(['unknown member "treshold"']);
    expect(at(base({ nlu: { margin: 1.5 } }), 'nlu.margin')).toHaveLength(1);
    expect(at(base({ nlu: { outOfScope: ['fine', '  '] } }), 'nlu.outOfScope[1]')).toEqual(['empty phrase']);
    expect(at(base({ nlu: { prompts: { greet: 'hi' } } }), 'nlu.prompts.greet')).toEqual([
      'unknown member "greet"',
    ]);
    expect(at(base({}, { confirm: 'sometimes' }), 'intents[0].confirm')).toHaveLength(1);
    expect(at(base({}, { negatives: 'refill my car' }), 'intents[0].negatives')).toHaveLength(1);
  });

  it("when a prompt uses a slot it does not have, then the slot is named at the prompt's path", () => {
    expect(
      at(base({ nlu: { prompts: { confirm: 'Did you want to {intent}?' } } }), 'nlu.prompts.confirm'),
    ).toEqual(['unknown slot {intent} (it may use {label})']);
    expect(at(base({ nlu: { prompts: { choose: '{first} or {label}?' } } }), 'nlu.prompts.choose')).toEqual([
      'unknown slot {label} (it may use {first} and {second})',
    ]);
    expect(at(base({ nlu: { prompts: { denied: 'No {label}.' } } }), 'nlu.prompts.denied')).toEqual([
      'unknown slot {label} (it has no slots)',
    ]);
  });

  it('when confirmAbove is under the threshold, then nothing would be confirmed and it is refused', () => {
    expect(at(base({ nlu: { threshold: 0.6, confirmAbove: 0.5 } }), 'nlu.confirmAbove')[0]).toMatch(
      /below the threshold 0.6/,
    );
    expect(at(base({ intentThreshold: 0.7 }, { confirmAbove: 0.65 }), 'intents[0].confirmAbove')[0]).toMatch(
      /below the threshold 0.7/,
    );
  });

  it('when a phrase is both an example and a counter-example, or two intents would be named alike, then it is refused', () => {
    expect(at(base({ nlu: { outOfScope: ['Opening hours!'] } }), 'nlu.outOfScope[0]')).toEqual([
      '"Opening hours!" is also an utterance of intent "StoreHours"',
    ]);
    expect(at(base({}, { negatives: ['I need a refill'] }), 'intents[0].negatives[0]')).toEqual([
      '"I need a refill" is also an utterance of this intent',
    ]);
    expect(at(base({}, { label: 'Store hours' }), 'intents[1].name')[0]).toMatch(
      /would name this intent "store hours", as intents\[0\]/,
    );
  });
});
