import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  compileAgent,
  demoAgentDefinition,
  validateAgentDefinition,
  AgentDefinitionError,
  NLU_DEFAULTS,
  resolveNluSettings,
} from '../../src/agent/index.js';
import { normalizeUtterance } from '../../src/agent/definition-checks.js';

const broken = {
  language: 'en',
  welcomeDialog: 'hello',
  fallbackDialog: 'fallback',
  intents: [
    { name: 'BookTable', utterances: ['book a table', 'Reserve a table!'], dialog: 'book' },
    { name: 'BookTable', utterances: ['reserve a table'], dialog: 'book' },
    { name: 'Empty', utterances: [], dialog: 'nowhere' },
  ],
  dialogs: {
    book: {
      start: 'size',
      nodes: {
        size: {
          type: 'entity',
          prompt: 'For how many, {{context.entities.}}?',
          entity: { name: 'size', type: 'number' },
          ivr: {
            retries: 11,
            timeout: '4 minutes',
            onExceedingRetries: { action: 'jumpToNode', node: 'ghost' },
          },
          next: [{ when: 'context.entities.size >', goto: 'done' }, { goto: 'missing' }],
        },
        done: { type: 'end', text: 'Bye' },
        island: {
          type: 'message',
          text: 'nobody comes here',
          ivr: { onExceedingRetries: { action: 'startDialog', dialog: 'nope' } },
        },
        weird: { type: 'video', src: 'x' },
      },
    },
    fallback: { start: 'absent', nodes: { sorry: { type: 'message', text: 'Sorry?' } } },
  },
};

describe('validateAgentDefinition', () => {
  it('when the demo agent is validated, then it is valid with defaults applied', () => {
    const r = validateAgentDefinition(demoAgentDefinition);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.definition.dialogs.ask?.nodes.answer).toMatchObject({ type: 'llm', saveAs: 'answer' });
  });

  it('when the demo agent without its threshold is validated, then it is valid and the threshold is the default one', () => {
    const { intentThreshold: _drop, ...rest } = demoAgentDefinition;
    const r = validateAgentDefinition(rest);
    expect(r.ok).toBe(true);
    if (r.ok) expect(resolveNluSettings(r.definition).threshold).toBe(NLU_DEFAULTS.threshold);
  });

  it('when a definition has many problems, then every one is listed with its path', () => {
    const r = validateAgentDefinition(broken);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const byPath = (path: string) => r.problems.filter((p) => p.path === path).map((p) => p.msg);
    expect(byPath('welcomeDialog')).toEqual(['dialog "hello" does not exist']);
    expect(byPath('dialogs.book.nodes.weird.type')[0]).toMatch(/unknown node type "video"/);
    expect(byPath('dialogs.book.nodes.size.next[1].goto')[0]).toMatch(/missing node "missing"/);
    expect(byPath('dialogs.book.nodes.size.next[0].when')[0]).toMatch(/does not parse/);
    expect(byPath('dialogs.book.nodes.size.prompt')[0]).toMatch(/placeholder/);
    expect(byPath('dialogs.book.nodes.size.ivr.retries')).toHaveLength(1);
    expect(byPath('dialogs.book.nodes.size.ivr.timeout')).toHaveLength(1);
    expect(byPath('dialogs.book.nodes.size.ivr.onExceedingRetries.node')[0]).toMatch(
      /jumpToNode to a missing node "ghost"/,
    );
    expect(byPath('dialogs.book.nodes.island.ivr.onExceedingRetries.dialog')[0]).toMatch(
      /missing dialog "nope"/,
    );
    expect(byPath('dialogs.book.nodes.island')[0]).toMatch(/unreachable/);
    expect(byPath('dialogs.fallback.start')[0]).toMatch(/start node "absent"/);
    expect(byPath('intents[1].name')[0]).toMatch(/duplicate intent name "BookTable"/);
    expect(byPath('intents[1].utterances[0]')[0]).toBeUndefined(); // same intent name: not a clash
    expect(byPath('intents[2].utterances')).toEqual(['intent has no utterances']);
    expect(byPath('intents[2].dialog')[0]).toMatch(/"nowhere"/);
    expect(r.problems.length).toBeGreaterThanOrEqual(15);
  });

  it('when two intents share an utterance (ignoring case and punctuation), then it is a problem', () => {
    const def = structuredClone(demoAgentDefinition) as { intents: { utterances: string[] }[] };
    def.intents[2]?.utterances.push('Book a table!');
    const r = validateAgentDefinition(def);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems).toEqual([
        {
          path: 'intents[2].utterances[10]',
          msg: 'utterance "Book a table!" is also an utterance of intent "BookTable" (intents[0].utterances[0])',
        },
      ]);
  });

  it('when an utterance is printable ASCII, then its quick normal form is the one the Unicode rules give', () => {
    const unicodeRules = (text: string) =>
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s']+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const ascii = fc.string({
      unit: fc.constantFrom(
        ...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.split(''),
        ...'abcxyzABCXYZ0123456789  '.split(''),
      ),
      maxLength: 40,
    });
    fc.assert(
      fc.property(ascii, (text) => normalizeUtterance(text) === unicodeRules(text)),
      { numRuns: 500 },
    );
    expect(normalizeUtterance('  Book a TABLE, please!! ')).toBe('book a table please');
    expect(normalizeUtterance('Réserver\tune table')).toBe('réserver une table');
  });

  it('when the input is not an object, then the root is reported', () => {
    const r = validateAgentDefinition('nope');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]?.path).toBe('');
  });

  it('when an llm node saves under a reserved name, then it is a problem', () => {
    const def = structuredClone(demoAgentDefinition) as {
      dialogs: { ask: { nodes: { answer: { saveAs: string } } } };
    };
    def.dialogs.ask.nodes.answer.saveAs = 'entities';
    const r = validateAgentDefinition(def);
    expect(!r.ok && r.problems.map((p) => p.path)).toContain('dialogs.ask.nodes.answer.saveAs');
  });

  it('when a list entity has no values, then it is a problem at its path', () => {
    const def = structuredClone(demoAgentDefinition) as {
      dialogs: { book: { nodes: { size: { entity: unknown } } } };
    };
    def.dialogs.book.nodes.size.entity = { name: 'size', type: 'list' };
    const r = validateAgentDefinition(def);
    expect(!r.ok && r.problems).toEqual([
      { path: 'dialogs.book.nodes.size.entity.values', msg: 'a list entity needs values' },
    ]);
  });

  it('when compileAgent gets an invalid definition, then it throws with the problems', async () => {
    await expect(compileAgent(broken)).rejects.toBeInstanceOf(AgentDefinitionError);
  });
});

describe('demo agent fixture', () => {
  it('when the JSON fixture is read, then it is the exported demo agent (for tools that PUT it)', async () => {
    const { readFileSync } = await import('node:fs');
    const json: unknown = JSON.parse(
      readFileSync(new URL('../fixtures/agent/demo-agent.json', import.meta.url), 'utf8'),
    );
    expect(json).toEqual(demoAgentDefinition);
    expect(validateAgentDefinition(json).ok).toBe(true);
  });
});
