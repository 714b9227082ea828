import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileAgent,
  demoAgentDefinition,
  runTurn,
  type CompiledAgent,
  type DialogState,
  type TurnInput,
} from '../../src/agent/index.js';
import {
  call,
  compileMini,
  converse,
  dtmf,
  fakeLlm,
  fixedNow,
  last,
  settings,
  voice,
} from './agent-test-kit.js';

const start: TurnInput = { kind: 'start' };
let demo: CompiledAgent;
beforeAll(async () => {
  demo = await compileAgent(demoAgentDefinition);
});

describe('demo agent conversation', () => {
  it('when a call starts, then the welcome dialog plays and the agent awaits an intent', async () => {
    const [r] = await converse(demo, [start]);
    expect(r).toMatchObject({
      action: 'ask',
      awaitInput: true,
      await: { kind: 'intent' },
      endOfConversation: false,
      trace: ['welcome.hello'],
    });
    expect(r?.promptText).toMatch(/^Welcome to Luigi's/);
    expect(r?.state.turns).toBe(1);
  });

  it('when the size is heard with confidence "0.41", then the confirmation node asks', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), voice('four', '0.41')]));
    expect(r.trace).toEqual(['book.confirmSize']);
    expect(r.promptText).toBe('Did you say 4?');
  });

  it('when the size is heard with confidence "0.93", then the date is asked next', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), voice('four', '0.93')]));
    expect(r.trace).toEqual(['book.date']);
  });

  it('when the size is keyed by DTMF, then the digits are the number', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), dtmf('12')]));
    expect(r.state.entities.size).toBe(12);
    expect(r.trace).toEqual(['book.date']);
  });

  it('when a whole booking is made, then the end node ends the conversation and the state stays small', async () => {
    const results = await converse(demo, [
      start,
      voice('I would like to book a table for tonight', '0.88'),
      voice('two hundred and five', '0.41'),
      voice('nope'),
      voice('six'),
      voice('next friday'),
      voice("yes that's right"),
    ]);
    const end = last(results);
    expect(results.map((r) => r.trace.filter((t) => !t.startsWith('#')).join(','))).toEqual([
      'welcome.hello',
      'book.size',
      'book.confirmSize',
      'book.size',
      'book.date',
      'book.confirm',
      'book.done',
    ]);
    expect(results[5]?.promptText).toBe('A table for 6 on 2027-03-12. Shall I book it?');
    expect(results[5]?.prompt).toContainEqual({
      type: 'say-as',
      interpretAs: 'date',
      format: 'ymd',
      text: '2027-03-12',
    });
    expect(end).toMatchObject({ action: 'end', endOfConversation: true, awaitInput: false });
    expect(end.state.entities).toEqual({ size: 6, sizeOk: false, date: '2027-03-12', confirmed: true });
    const largest = Math.max(...results.map((r) => Buffer.byteLength(JSON.stringify(r.state))));
    console.log(`[agent] largest dialog state during a demo booking: ${largest} bytes of JSON`);
    expect(largest).toBeLessThan(1024);
  });

  it('when the caller says something, then it lands on lastMessage with the ASR metadata twice', async () => {
    const r = last(await converse(demo, [start, voice('book a table', '0.810000')]));
    const four = {
      confidence: '0.810000',
      Inputmode: 'voice',
      interpretation: 'book a table',
      utterance: 'book a table',
    };
    expect(r.state.lastMessage).toEqual({
      text: 'book a table',
      asrMetaData: { ...four, data: { text: four } },
    });
  });

  it('when a grammar tagged the utterance with an intent, then it is used with source grammar', async () => {
    const r = last(await converse(demo, [start, voice('blah', '0.7', { grammarIntent: 'TalkToHuman' })]));
    expect(r.recognition).toEqual({
      intent: 'TalkToHuman',
      score: 0.7,
      scores: [{ intent: 'TalkToHuman', score: 0.7 }],
      source: 'grammar',
    });
    expect(r.action).toBe('transfer');
  });

  it('when no intent matches, then the fallback dialog plays and the agent awaits an intent again', async () => {
    const r = last(await converse(demo, [start, voice('banana')]));
    expect(r.recognition?.intent).toBe('None');
    expect(r).toMatchObject({
      action: 'ask',
      await: { kind: 'intent' },
      trace: expect.arrayContaining(['fallback.sorry']),
    });
  });

  it('when a question is asked, then "let me check" plays first and the answer is read back on continue', async () => {
    const llm = fakeLlm('We open at noon.');
    const [, asked, answered] = await converse(
      demo,
      [start, voice('what are your opening hours'), { kind: 'continue' }],
      { ports: { llm } },
    );
    expect(asked).toMatchObject({ action: 'continue', promptText: 'Let me check that for you.' });
    expect(llm.calls[0]?.prompt).toBe('Caller question: what are your opening hours');
    expect(answered?.promptText).toBe('We open at noon. Is there anything else I can help with?');
  });

  it('when the caller hangs up, then the state ends with no prompt', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), { kind: 'hangup' }]));
    expect(r).toMatchObject({ action: 'end', endOfConversation: true, prompt: [], promptText: '' });
    expect(r.state.ended).toBe(true);
    const after = last(await converse(demo, [voice('hello')], { state: r.state }));
    expect(after).toMatchObject({ action: 'end', endOfConversation: true, prompt: [] });
  });

  it('when a turn runs, then the stored state passed in is not modified', async () => {
    const [first] = await converse(demo, [start]);
    const before = JSON.stringify(first?.state);
    await runTurn(demo, voice('book a table'), first?.state ?? null, call, settings, { now: () => fixedNow });
    expect(JSON.stringify(first?.state)).toBe(before);
  });
});

describe('no match and retries', () => {
  it('when an entity answer does not match, then the no-match prompt re-asks and retries counts', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), voice('purple')]));
    expect(r.promptText).toBe("Sorry, I didn't get that. For how many people?");
    expect(r.state).toMatchObject({ node: 'size', retries: 1 });
    expect(r.overrides?.retries).toBe(2);
  });

  it('when the utterance is below the confidence threshold, then it counts as no match', async () => {
    const r = last(
      await converse(demo, [start, voice('book a table'), voice('four', '0.2', { belowThreshold: true })]),
    );
    expect(r.state.retries).toBe(1);
    expect(r.state.entities.size).toBeUndefined();
  });

  it('when a noinput event arrives, then the node no-input prompt re-asks', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), { kind: 'noinput' }]));
    expect(r.promptText).toBe('Please say or key in the number of people. For how many people?');
  });

  /** An entity node allowing one retry; "help" exists only when it is the jump target (else unreachable). */
  const retryNodes = (onExceedingRetries?: { action: string; node?: string; dialog?: string }) => ({
    q: {
      type: 'entity',
      prompt: 'Number?',
      entity: { name: 'n', type: 'number' },
      ivr: {
        retries: 1,
        noMatchPrompt: 'Digits please.',
        ...(onExceedingRetries ? { onExceedingRetries } : {}),
      },
      next: [{ goto: 'thanks' }],
    },
    thanks: { type: 'message', text: 'Thanks.' },
    ...(onExceedingRetries?.action === 'jumpToNode'
      ? { help: { type: 'message', text: 'Let me help you.', next: [{ goto: 'q' }] } }
      : {}),
  });
  const agentDialogs = {
    goodbye: { start: 'bye', nodes: { bye: { type: 'end', text: 'We could not understand you. Goodbye.' } } },
    other: { start: 'o', nodes: { o: { type: 'message', text: 'Other dialog.' } } },
  };
  const exhaust: TurnInput[] = [start, voice('purple'), voice('green')];

  it('when retries are exhausted with startDialog, then that dialog starts', async () => {
    const agent = await compileMini(
      retryNodes({ action: 'startDialog', dialog: 'other' }),
      'q',
      agentDialogs,
    );
    const [, once, twice] = await converse(agent, exhaust);
    expect(once?.promptText).toBe('Digits please. Number?');
    expect(twice).toMatchObject({ promptText: 'Other dialog.', await: { kind: 'intent' } });
  });

  it('when retries are exhausted with jumpToNode, then the dialog jumps to that node', async () => {
    const base = retryNodes({ action: 'jumpToNode', node: 'help' });
    const agent = await compileMini(base, 'q', agentDialogs);
    const r = last(await converse(agent, exhaust));
    expect(r.trace).toContain('main.help');
    expect(r).toMatchObject({ promptText: 'Let me help you. Number?', state: { node: 'q', retries: 0 } });
  });

  it('when retries are exhausted with terminationHandler, then the call termination handler dialog runs', async () => {
    const agent = await compileMini(retryNodes({ action: 'terminationHandler' }), 'q', agentDialogs);
    const r = last(
      await converse(agent, exhaust, { settings: { ...settings, callTerminationHandler: 'goodbye' } }),
    );
    expect(r).toMatchObject({
      action: 'end',
      endOfConversation: true,
      promptText: 'We could not understand you. Goodbye.',
    });
  });

  it('when the termination handler is not set, then the call ends with endOfConversation', async () => {
    const agent = await compileMini(retryNodes(), 'q', agentDialogs);
    const r = last(await converse(agent, exhaust));
    expect(r).toMatchObject({ action: 'end', endOfConversation: true, prompt: [] });
    expect(r.error).toBeUndefined();
  });

  it('when the node has no behaviour, then the app behaviour applies (startDialog)', async () => {
    const agent = await compileMini(retryNodes(), 'q', agentDialogs);
    const r = last(
      await converse(agent, exhaust, {
        settings: { ...settings, onExceedingRetries: { action: 'startDialog', dialog: 'other' } },
      }),
    );
    expect(r.promptText).toBe('Other dialog.');
  });

  it('when the document reports maxretries, then the behaviour applies at once', async () => {
    const agent = await compileMini(
      retryNodes({ action: 'startDialog', dialog: 'other' }),
      'q',
      agentDialogs,
    );
    const r = last(await converse(agent, [start, { kind: 'maxretries' }]));
    expect(r.promptText).toBe('Other dialog.');
  });
});

describe('rules and guards', () => {
  it('when a rule fails at run time, then it counts as false and is reported in the trace', async () => {
    const agent = await compileMini(
      {
        a: {
          type: 'message',
          text: 'A.',
          next: [{ when: 'context.entities|nothere', goto: 'b' }, { goto: 'c' }],
        },
        b: { type: 'message', text: 'B.' },
        c: { type: 'message', text: 'C.' },
      },
      'a',
    );
    const [r] = await converse(agent, [start]);
    expect(r?.promptText).toBe('A. C.');
    expect(r?.trace.some((t) => t.startsWith('!main.a.next[0]'))).toBe(true);
  });

  it('when gotos loop without input, then the turn stops with an error result', async () => {
    const agent = await compileMini(
      {
        a: { type: 'message', text: 'A.', next: [{ goto: 'b' }] },
        b: { type: 'message', text: 'B.', next: [{ goto: 'a' }] },
      },
      'a',
    );
    const [r] = await converse(agent, [start]);
    expect(r).toMatchObject({ action: 'end', endOfConversation: true, error: { code: 'loop_limit' } });
  });

  it('when the state says nothing is pending, then an unexpected continue re-asks the current question', async () => {
    const r = last(await converse(demo, [start, voice('book a table'), { kind: 'continue' }]));
    expect(r).toMatchObject({ action: 'ask', promptText: 'For how many people?', state: { node: 'size' } });
  });

  it('when a new call starts with an old state, then the state is reset', async () => {
    const old: DialogState = {
      dialog: 'book',
      node: 'size',
      entities: { size: 3 },
      vars: {},
      retries: 2,
      turns: 9,
      ended: true,
    };
    const [r] = await converse(demo, [start], { state: old });
    expect(r?.state).toMatchObject({ entities: {}, turns: 1, ended: false });
  });
});
