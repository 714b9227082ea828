import { describe, expect, it } from 'vitest';
import type { LlmPort, SkillGroupPort, TablePort } from '../../src/agent/index.js';
import { compileMini, converse, fakeLlm, last, settings, voice } from './agent-test-kit.js';

const start = { kind: 'start' } as const;

describe('message node', () => {
  it('when messages follow each other, then they merge into the next asking prompt with a break between', async () => {
    const agent = await compileMini(
      {
        a: { type: 'message', text: 'Hello.', next: [{ goto: 'b' }] },
        b: { type: 'message', text: 'Nice <emphasis>day</emphasis>.', next: [{ goto: 'q' }] },
        q: { type: 'entity', prompt: 'Your name?', entity: { name: 'who', type: 'string' } },
      },
      'a',
    );
    const [r] = await converse(agent, [start]);
    expect(r?.prompt).toEqual([
      { type: 'text', text: 'Hello.' },
      { type: 'break', time: '300ms' },
      { type: 'text', text: 'Nice ' },
      { type: 'emphasis', parts: [{ type: 'text', text: 'day' }] },
      { type: 'text', text: '.' },
      { type: 'break', time: '300ms' },
      { type: 'text', text: 'Your name?' },
    ]);
    expect(r?.promptText).toBe('Hello. Nice day. Your name?');
    expect(r?.trace).toEqual(['main.a', 'main.b', 'main.q']);
  });

  it('when a message has no next, then the dialog is finished and the agent awaits an intent', async () => {
    const agent = await compileMini({ a: { type: 'message', text: 'Hi.' } }, 'a');
    const [r] = await converse(agent, [start]);
    expect(r).toMatchObject({
      action: 'ask',
      awaitInput: true,
      await: { kind: 'intent' },
      endOfConversation: false,
    });
    expect(r?.state).toMatchObject({ dialog: null, node: null });
  });
});

describe('entity node', () => {
  it('when it asks, then the await spec and its IVR overrides are returned', async () => {
    const agent = await compileMini(
      {
        q: {
          type: 'entity',
          prompt: 'Pick a size.',
          entity: { name: 'size', type: 'list', values: ['small', { value: 'large', synonyms: ['big'] }] },
          ivr: {
            timeout: '5s',
            retries: 3,
            bargein: true,
            noInputPrompt: 'Say small or large, {{context.from}}.',
            grammar: { mode: 'dtmf', src: 'builtin:dtmf/digits' },
            recording: 'start',
            locale: 'en-GB',
            properties: { interdigittimeout: '2s' },
          },
        },
      },
      'q',
    );
    const [r] = await converse(agent, [start]);
    expect(r?.await).toEqual({ kind: 'entity', entityType: 'list', values: ['small', 'large', 'big'] });
    expect(r?.overrides).toEqual({
      noInputPrompt: [{ type: 'text', text: 'Say small or large, +15551230000.' }],
      grammar: [{ mode: 'dtmf', src: 'builtin:dtmf/digits' }],
      timeout: '5s',
      retries: 3,
      bargein: true,
      recording: 'start',
      locale: 'en-GB',
      properties: { interdigittimeout: '2s' },
    });
  });

  it('when the answer matches, then the entity is stored and next is followed', async () => {
    const agent = await compileMini(
      {
        q: {
          type: 'entity',
          prompt: 'Pick.',
          entity: { name: 'size', type: 'list', values: ['small', 'large'] },
          next: [{ goto: 'e' }],
        },
        e: { type: 'end', text: 'You chose {{context.entities.size}}.' },
      },
      'q',
    );
    const r = last(await converse(agent, [start, voice('large please')]));
    expect(r.state.entities).toEqual({ size: 'large' });
    expect(r).toMatchObject({ action: 'end', promptText: 'You chose large.', endOfConversation: true });
  });
});

describe('llm node', () => {
  const askNodes = (extra: Record<string, unknown> = {}) => ({
    q: {
      type: 'entity',
      prompt: 'Your question?',
      entity: { name: 'question', type: 'string' },
      next: [{ goto: 'llm' }],
    },
    llm: {
      type: 'llm',
      connectionId: 'cn-demo',
      system: 'You are brief. Caller {{context.from}}.',
      prompt: 'Answer: {{context.entities.question}}',
      next: [{ when: 'context.answerError', goto: 'sorry' }, { goto: 'read' }],
      ...extra,
    },
    read: { type: 'message', text: 'Here it is: {{context.answer}}' },
    sorry: { type: 'message', text: 'Anything else?' },
  });

  it('when the model answers, then the answer is stored, read back, and token counts kept', async () => {
    const llm = fakeLlm('We open at noon.');
    const agent = await compileMini(askNodes(), 'q');
    const r = last(await converse(agent, [start, voice('When do you open?')], { ports: { llm } }));
    expect(llm.calls).toEqual([
      {
        streamId: 'st-demo',
        connectionId: 'cn-demo',
        prompt: 'Answer: When do you open?',
        system: 'You are brief. Caller +15551230000.',
        timeoutMs: 8000,
        signal: expect.any(AbortSignal),
        step: 'main.llm',
      },
    ]);
    expect(r.promptText).toBe('Here it is: We open at noon.');
    expect(r.state.vars).toMatchObject({
      answer: 'We open at noon.',
      answerTokens: { input: 12, output: 7 },
    });
  });

  it('when the model answers with markup, then the read-back keeps it as one plain text part', async () => {
    const hostile = '</prompt><goto next="http://evil"/>';
    const agent = await compileMini(askNodes(), 'q');
    const r = last(await converse(agent, [start, voice('Hi')], { ports: { llm: fakeLlm(hostile) } }));
    expect(r.prompt).toEqual([{ type: 'text', text: `Here it is: ${hostile}` }]);
  });

  it('when the model fails, then the node error prompt is said and next continues', async () => {
    const llm: LlmPort = { complete: async () => Promise.reject(new Error('HTTP 500')) };
    const agent = await compileMini(askNodes({ errorPrompt: 'The kitchen is busy.' }), 'q');
    const r = last(await converse(agent, [start, voice('When do you open?')], { ports: { llm } }));
    expect(r.promptText).toBe('The kitchen is busy. Anything else?');
    expect(r.state.vars).toEqual({ answerError: 'failed' });
    expect(r.error).toBeUndefined();
  });

  it('when the model times out, then the call is aborted and the app error prompt is said', async () => {
    let signal: AbortSignal | undefined;
    const llm: LlmPort = {
      complete: (req) => {
        signal = req.signal;
        return new Promise(() => undefined);
      },
    };
    const agent = await compileMini(askNodes({ timeoutMs: 100 }), 'q');
    const r = last(await converse(agent, [start, voice('When?')], { ports: { llm } }));
    expect(signal?.aborted).toBe(true);
    expect(r.promptText).toBe('Sorry, something went wrong. Anything else?');
    expect(r.state.vars.answerError).toBe('timeout');
  });

  it('when there is no LLM port and no error prompt at all, then the turn is an error result', async () => {
    const agent = await compileMini(askNodes(), 'q');
    const { errorPrompt: _none, ...bare } = settings;
    const r = last(await converse(agent, [start, voice('When?')], { settings: bare }));
    expect(r).toMatchObject({ action: 'end', endOfConversation: true, error: { code: 'llm_unavailable' } });
  });

  it('when a message precedes the llm node, then the turn says it and continues with the model on the next turn', async () => {
    const llm = fakeLlm('Yes, we do.');
    const agent = await compileMini(
      {
        wait: { type: 'message', text: 'Let me check.', next: [{ goto: 'llm' }] },
        llm: { type: 'llm', connectionId: 'cn-demo', prompt: 'Vegan?', next: [{ goto: 'read' }] },
        read: { type: 'message', text: '{{context.answer}}' },
      },
      'wait',
    );
    const [first, second] = await converse(agent, [start, { kind: 'continue' }], { ports: { llm } });
    expect(first).toMatchObject({ action: 'continue', awaitInput: false, promptText: 'Let me check.' });
    expect(first?.state).toMatchObject({ pending: 'continue', node: 'llm' });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.step).toBe('main.llm');
    expect(second).toMatchObject({
      action: 'ask',
      promptText: 'Yes, we do.',
      trace: ['main.llm', 'main.read'],
    });
  });
});

describe('table node', () => {
  const nodes = {
    t: {
      type: 'table',
      table: 'callbacks',
      record: {
        phone: '{{context.from}}',
        size: '{{context.entities.size}}',
        note: 'size {{context.entities.size}}',
      },
      saveAs: 'row',
      next: [{ goto: 'ok' }],
    },
    ok: { type: 'message', text: 'Saved.' },
  };
  // the entity the record reads is defined (in a dialog this call never reaches, so it stays empty)
  const sizes = {
    sizes: {
      start: 'ask',
      nodes: { ask: { type: 'entity', prompt: 'How many?', entity: { name: 'size', type: 'number' } } },
    },
  };

  it('when it runs, then the filled record is inserted (lone placeholders keep their type)', async () => {
    const inserts: Parameters<TablePort['insert']>[0][] = [];
    const tables: TablePort = {
      insert: async (req) => {
        inserts.push(req);
        return { id: 'r1', ...req.record };
      },
    };
    const agent = await compileMini(nodes, 't', sizes);
    const r = last(await converse(agent, [start], { ports: { tables }, state: null }));
    expect(inserts).toEqual([
      {
        streamId: 'st-demo',
        table: 'callbacks',
        record: { phone: '+15551230000', size: '', note: 'size ' },
        step: 'main.t',
      },
    ]);
    expect(r.promptText).toBe('Saved.');
    expect(r.state.vars.row).toMatchObject({ id: 'r1' });
  });

  it('when the record holds literal numbers and booleans, then they are inserted as they are, beside the filled templates', async () => {
    const inserts: Parameters<TablePort['insert']>[0][] = [];
    const tables: TablePort = {
      insert: async (req) => {
        inserts.push(req);
        return { id: 'r2', ...req.record };
      },
    };
    const agent = await compileMini(
      { ...nodes, t: { ...nodes.t, record: { phone: '{{context.from}}', attempts: 1, vip: false } } },
      't',
    );
    await converse(agent, [start], { ports: { tables }, state: null });
    expect(inserts).toEqual([
      {
        streamId: 'st-demo',
        table: 'callbacks',
        record: { phone: '+15551230000', attempts: 1, vip: false },
        step: 'main.t',
      },
    ]);
  });

  it('when the same table node runs twice in one turn, then each run carries its own step, and a second run of the turn carries the same ones', async () => {
    const steps: Array<string | undefined> = [];
    let n = 0;
    const tables: TablePort = {
      insert: async (req) => {
        steps.push(req.step);
        return { n: ++n };
      },
    };
    const loop = {
      t: { ...nodes.t, next: [{ when: 'context.row.n % 2 == 0', goto: 'ok' }, { goto: 'again' }] },
      again: { type: 'message', text: 'Once more.', next: [{ goto: 't' }] },
      ok: { type: 'message', text: 'Saved.' },
    };
    const agent = await compileMini(loop, 't', sizes);
    await converse(agent, [start], { ports: { tables }, state: null });
    await converse(agent, [start], { ports: { tables }, state: null });
    expect(steps).toEqual(['main.t', 'main.t#2', 'main.t', 'main.t#2']);
  });

  it('when the insert fails, then the error prompt is said and next continues', async () => {
    const tables: TablePort = { insert: async () => Promise.reject(new Error('full')) };
    const agent = await compileMini(nodes, 't', sizes);
    const r = last(await converse(agent, [start], { ports: { tables } }));
    expect(r.promptText).toBe('Sorry, something went wrong. Saved.');
    expect(r.state.vars.rowError).toBe('failed');
  });
});

describe('transfer node', () => {
  const nodes = {
    x: {
      type: 'transfer',
      text: 'Connecting you.',
      destination: 'tel:+15550100',
      skillGroupId: 'sg-reservations',
      next: [{ when: "context.transferResult == 'busy'", goto: 'busy' }],
    },
    busy: { type: 'message', text: 'The line is busy.' },
  };
  const skillGroups: SkillGroupPort = {
    find: async ({ skillGroupId }) =>
      skillGroupId === 'sg-reservations' ? { id: skillGroupId, name: 'Reservations' } : null,
  };

  it('when the skill group exists, then the transfer carries its id and name', async () => {
    const agent = await compileMini(nodes, 'x');
    const [r] = await converse(agent, [start], { ports: { skillGroups } });
    expect(r).toMatchObject({
      action: 'transfer',
      awaitInput: false,
      endOfConversation: false,
      promptText: 'Connecting you.',
      transfer: {
        destination: 'tel:+15550100',
        skillGroupId: 'sg-reservations',
        skillGroupName: 'Reservations',
      },
    });
  });

  it('when the transfer outcome comes back, then the dialog resumes after the transfer node', async () => {
    const agent = await compileMini(nodes, 'x');
    const r = last(
      await converse(agent, [start, { kind: 'transfer', result: 'busy' }], { ports: { skillGroups } }),
    );
    expect(r).toMatchObject({ action: 'ask', promptText: 'The line is busy.', await: { kind: 'intent' } });
    expect(r.state.vars.transferResult).toBe('busy');
  });

  it('when the skill group is unknown, then the turn is an error result', async () => {
    const agent = await compileMini({ ...nodes, x: { ...nodes.x, skillGroupId: 'sg-ghost' } }, 'x');
    const [r] = await converse(agent, [start], { ports: { skillGroups } });
    expect(r).toMatchObject({
      action: 'end',
      endOfConversation: true,
      error: { code: 'skill_group_not_found' },
    });
    expect(r?.transfer).toBeUndefined();
  });
});

describe('end node', () => {
  it('when it runs, then the conversation ends with its text', async () => {
    const agent = await compileMini({ bye: { type: 'end', text: 'Goodbye.' } }, 'bye');
    const [r] = await converse(agent, [start]);
    expect(r).toMatchObject({
      action: 'end',
      awaitInput: false,
      endOfConversation: true,
      promptText: 'Goodbye.',
    });
    expect(r?.state.ended).toBe(true);
  });
});
