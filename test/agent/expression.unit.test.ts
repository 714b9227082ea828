import { describe, expect, it } from 'vitest';
import { buildEvaluationContext } from '../../src/agent/evaluation-context.js';
import { compileExpression, ExpressionError } from '../../src/agent/expression.js';
import type { DialogState } from '../../src/agent/index.js';
import { call } from './agent-test-kit.js';

const stateWith = (confidence: string | undefined, entities: Record<string, unknown> = {}): DialogState => {
  const four =
    confidence === undefined
      ? undefined
      : { confidence, Inputmode: 'voice', interpretation: 'four', utterance: 'four' };
  return {
    dialog: 'book',
    node: 'size',
    entities,
    vars: { answer: 'hi' },
    retries: 0,
    turns: 1,
    ended: false,
    lastMessage: four
      ? { text: 'four', asrMetaData: { ...four, data: { text: { ...four } } } }
      : { text: 'four' },
  };
};

const rule = 'session.BotUserSession.lastMessage.asrMetaData.confidence < 0.6';
const evaluate = (src: string, state: DialogState) =>
  compileExpression(src).evaluate(buildEvaluationContext(state, call));

describe('connection rule expressions', () => {
  it('when ASR confidence is "0.41", then the low-confidence rule (< 0.6) is true; when "0.93", then false', () => {
    expect(evaluate(rule, stateWith('0.41'))).toBe(true);
    expect(evaluate(rule, stateWith('0.93'))).toBe(false);
  });

  it('when confidence is a padded decimal string, then the comparison is numeric', () => {
    expect(evaluate(rule, stateWith('0.810000'))).toBe(false);
    expect(evaluate(rule, stateWith('0.100000'))).toBe(true);
    expect(
      evaluate(
        'session.BotUserSession.lastMessage.asrMetaData.data.text.confidence >= 0.81',
        stateWith('0.810000'),
      ),
    ).toBe(true);
  });

  it('when the rule is read through context.session, then it works the same', () => {
    expect(
      evaluate('context.session.BotUserSession.lastMessage.asrMetaData.confidence < 0.6', stateWith('0.41')),
    ).toBe(true);
  });

  it('when there is no ASR metadata (DTMF without it), then the confidence rule is false', () => {
    expect(evaluate(rule, stateWith(undefined))).toBe(false);
  });

  it('when entities are compared, then context.entities and entities both work', () => {
    const s = stateWith('0.9', { ok: true, size: 4 });
    expect(evaluate('context.entities.ok == true', s)).toBe(true);
    expect(evaluate('entities.size > 3 && context.answer == "hi"', s)).toBe(true);
    expect(evaluate("context.from == '+15551230000'", s)).toBe(true);
  });

  it('when an expression does not parse, then compileExpression throws a clear error', () => {
    expect(() => compileExpression('context.entities.size >')).toThrow(ExpressionError);
    expect(() => compileExpression('a b')).toThrow(/does not parse/);
    expect(() => compileExpression('')).toThrow(/empty/);
  });

  it('when an expression tries to reach code, then it cannot', () => {
    expect(() => compileExpression('x.constructor("return 1")()')).toThrow();
    expect(() => evaluate('context|nothere', stateWith('0.9'))).toThrow(/nothere/);
  });

  it('when the number transform is used, then a decimal string becomes a number', () => {
    expect(evaluate('"0.5"|number < 0.6', stateWith('0.9'))).toBe(true);
  });
});
