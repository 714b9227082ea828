import { describe, expect, it } from 'vitest';
import { validateAgentDefinition } from '../../src/agent/index.js';

/** An agent whose welcome dialog is `nodes`, plus a fallback. */
const agentWith = (nodes: Record<string, unknown>, start = Object.keys(nodes)[0]!) => ({
  language: 'en',
  welcomeDialog: 'main',
  fallbackDialog: 'fallback',
  intents: [],
  dialogs: {
    main: { start, nodes },
    fallback: { start: 'sorry', nodes: { sorry: { type: 'message', text: 'Sorry?' } } },
  },
});

const problemsOf = (input: unknown) => {
  const r = validateAgentDefinition(input);
  return r.ok ? [] : r.problems;
};

const party = {
  size: {
    type: 'entity',
    prompt: 'For how many people?',
    entity: { name: 'size', type: 'number' },
    next: [{ goto: 'say' }],
  },
  say: { type: 'message', text: 'A party of {{context.entities.size}}.' },
};

describe('strict agent definitions', () => {
  it('when the agent reads only names it defines, then it is valid', () => {
    expect(problemsOf(agentWith(party))).toEqual([]);
  });

  it('when a node, its ivr block, an entity or a rule carries an unknown member, then each is refused at its own path', () => {
    const input = agentWith({
      size: {
        type: 'entity',
        prompt: 'How many?',
        colour: 'red',
        entity: { name: 'size', type: 'number', min: 1 },
        ivr: { timout: '4s', retries: 2 },
        next: [{ goto: 'say', whne: 'true' }],
      },
      say: { type: 'message', text: 'ok' },
    });
    expect(problemsOf(input)).toEqual(
      expect.arrayContaining([
        { path: 'dialogs.main.nodes.size.colour', msg: 'unknown member "colour"' },
        { path: 'dialogs.main.nodes.size.entity.min', msg: 'unknown member "min"' },
        { path: 'dialogs.main.nodes.size.ivr.timout', msg: 'unknown member "timout"' },
        { path: 'dialogs.main.nodes.size.next[0].whne', msg: 'unknown member "whne"' },
      ]),
    );
  });

  it('when the top level carries an unknown member, then it is refused at its path', () => {
    expect(problemsOf({ ...agentWith(party), welcomDialog: 'main' })).toContainEqual({
      path: 'welcomDialog',
      msg: 'unknown member "welcomDialog"',
    });
  });

  it('when a placeholder names an entity no node fills, then it is refused with the entities the agent has', () => {
    const input = agentWith({
      ...party,
      say: { type: 'message', text: 'A party of {{context.entities.sise}}.' },
    });
    expect(problemsOf(input)).toEqual([
      {
        path: 'dialogs.main.nodes.say.text',
        msg: '"context.entities.sise" names entity "sise", which no entity node of this agent fills (entities: size)',
      },
    ]);
  });

  it('when a placeholder or an ivr prompt reads a context variable no node sets, then it is refused', () => {
    const input = agentWith({
      ...party,
      say: {
        type: 'message',
        text: 'You said {{context.answer}}.',
        ivr: { noInputPrompt: 'Still {{entities.size}} for {{session.BotUserSession.lastMesage.text}}?' },
      },
    });
    const problems = problemsOf(input);
    expect(problems.map((p) => p.path)).toEqual([
      'dialogs.main.nodes.say.ivr.noInputPrompt',
      'dialogs.main.nodes.say.text',
    ]);
    expect(problems[0]!.msg).toMatch(/"session.BotUserSession.lastMesage.text" is not part of the session/);
    expect(problems[1]!.msg).toMatch(
      /"context.answer" is never set: the context holds .*from.*size|"context.answer" is never set/,
    );
  });

  it('when a rule reads an unknown name, then the rule is refused; when it reads what an llm node saves, then it is valid', () => {
    const rules = (when: string) =>
      agentWith({
        ask: {
          type: 'llm',
          connectionId: 'cn-x',
          prompt: 'Hi',
          saveAs: 'reply',
          next: [{ when, goto: 'say' }, { goto: 'say' }],
        },
        say: { type: 'message', text: '{{context.reply}}' },
      });
    expect(
      problemsOf(rules('context.replyError || context.replyTokens.output > 10 || context.from == "x"')),
    ).toEqual([]);
    expect(problemsOf(rules('context.replyErorr'))).toEqual([
      {
        path: 'dialogs.main.nodes.ask.next[0].when',
        msg: expect.stringMatching(/^"context.replyErorr" is never set/),
      },
    ]);
    expect(problemsOf(rules('confidence < 0.5'))).toEqual([
      {
        path: 'dialogs.main.nodes.ask.next[0].when',
        msg: '"confidence" reads "confidence", which is not defined: read context., session. or entities.',
      },
    ]);
  });

  it('when a transfer precedes a rule on its result, then transferResult is known', () => {
    const input = agentWith({
      go: {
        type: 'transfer',
        destination: 'tel:+15550100',
        next: [{ when: "context.transferResult == 'busy'", goto: 'busy' }],
      },
      busy: { type: 'message', text: 'Busy.' },
    });
    expect(problemsOf(input)).toEqual([]);
  });
});

describe('node grammars', () => {
  it('when a node gives an inline SRGS grammar, then it is refused at its path instead of being dropped; a src grammar is kept', () => {
    const withGrammar = (grammar: unknown) =>
      agentWith({
        size: {
          type: 'entity',
          prompt: 'How many?',
          entity: { name: 'size', type: 'number' },
          ivr: { grammar },
        },
      });
    expect(problemsOf(withGrammar({ mode: 'dtmf', inline: '<grammar/>' }))).toEqual([
      {
        path: 'dialogs.main.nodes.size.ivr.grammar.inline',
        msg: 'inline grammars are not supported yet: serve the SRGS grammar at a URL and give it as src',
      },
    ]);
    expect(problemsOf(withGrammar({ mode: 'dtmf', src: 'builtin:dtmf/digits' }))).toEqual([]);
  });
});
