/**
 * What the inline grammars mean: each one is run by a small SRGS/SISR interpreter on sample utterances
 * (the browser's job), to check the values the webhook will receive as `interpretation`.
 */
import { describe, it, expect } from 'vitest';
import {
  buildIntentGrammar,
  entityGrammars,
  renderDocument,
  type FieldGrammar,
} from '../../src/vxml/index.js';
import { askEntity, intents } from './sample-documents.js';
import { SrgsInterpreter } from './srgs-interpreter.js';
import { findAll, parseXml } from './xml-tree.js';

function interpreter(grammar: FieldGrammar): SrgsInterpreter {
  const doc = parseXml(renderDocument({ ...askEntity, grammars: [grammar] }));
  const inline = findAll(doc, 'grammar').find((g) => g.attrs.src === undefined)!;
  return new SrgsInterpreter(inline);
}

const inline = (
  entity: 'number' | 'date' | 'digits' | 'boolean',
  mode: 'voice' | 'dtmf',
  extra: object = {},
): FieldGrammar => ({ kind: 'inline-entity', entity, mode, ...extra });

describe('inline entity grammars', () => {
  it.each([
    ['zero', 0],
    ['seven', 7],
    ['forty two', 42],
    ['one hundred', 100],
    ['three hundred and five', 305],
    ['two thousand twenty four', 2024],
    ['twelve thousand three hundred forty five', 12345],
    ['nine hundred ninety nine thousand nine hundred ninety nine', 999999],
    ['forty', 40],
    ['one thousand', 1000],
  ])('when a caller says "%s", then the voice number grammar gives %s', (said, value) => {
    expect(interpreter(inline('number', 'voice')).interpret(said)).toBe(value);
  });

  it('when words are not a number, then the voice number grammar does not match', () => {
    const g = interpreter(inline('number', 'voice'));
    for (const said of ['hundred', 'twenty twenty', 'one two', 'banana'])
      expect(g.interpret(said)).toBeUndefined();
  });

  it('when digits are keyed, then the DTMF number grammar gives the number', () => {
    expect(interpreter(inline('number', 'dtmf')).interpret('4 5 6')).toBe(456);
  });

  it.each([
    ['january first', '????0101'],
    ['the third of march twenty twenty four', '20240303'],
    ['december thirty first nineteen ninety nine', '19991231'],
    ['july fourth two thousand and five', '20050704'],
    ['february the twenty ninth twenty oh eight', '20080229'],
    ['october twelve', '????1012'],
  ])('when a caller says "%s", then the voice date grammar gives %s', (said, value) => {
    expect(interpreter(inline('date', 'voice')).interpret(said)).toBe(value);
  });

  it('when eight digits are keyed, then the DTMF date grammar gives yyyymmdd', () => {
    const g = interpreter(inline('date', 'dtmf'));
    expect(g.interpret('2 0 2 4 0 1 1 5')).toBe('20240115');
    expect(g.interpret('2 0 2 4')).toBeUndefined();
  });

  it('when digits are spoken or keyed within the length bounds, then the digit string comes back', () => {
    const voice = interpreter(inline('digits', 'voice', { minLength: 2, maxLength: 4 }));
    expect(voice.interpret('one two three four')).toBe('1234');
    expect(voice.interpret('oh five')).toBe('05');
    expect(voice.interpret('one')).toBeUndefined();
    expect(voice.interpret('one two three four five')).toBeUndefined();
    expect(interpreter(inline('digits', 'dtmf')).interpret('9 8 7')).toBe('987');
  });

  it('when yes or no is said or 1 or 2 is keyed, then the boolean grammars give true or false', () => {
    const voice = interpreter(inline('boolean', 'voice'));
    expect([
      voice.interpret('yes'),
      voice.interpret('yeah'),
      voice.interpret('nope'),
      voice.interpret('maybe'),
    ]).toEqual([true, true, false, undefined]);
    const dtmf = interpreter(inline('boolean', 'dtmf'));
    expect([dtmf.interpret('1'), dtmf.interpret('2'), dtmf.interpret('3')]).toEqual([true, false, undefined]);
  });
});

describe('item grammars', () => {
  it('when a training phrase is said, then the intents grammar gives its intent name', () => {
    const g = interpreter(buildIntentGrammar(intents));
    expect(g.interpret('reserve a table for tonight')).toBe('BookTable');
    expect(g.interpret('check my booking')).toBe('CheckBooking');
    expect(g.interpret('Check my booking')).toBeUndefined();
  });

  it('when a listed value is said or keyed, then the list grammar gives the value as written', () => {
    const [dtmf, voice] = entityGrammars(
      { kind: 'entity', entityType: 'list', values: ['Small', 'medium!', '12'] },
      'w3c',
    );
    expect(interpreter(voice!).interpret('medium')).toBe('medium!');
    expect(interpreter(voice!).interpret('small')).toBe('Small');
    expect(interpreter(dtmf!).interpret('1 2')).toBe('12');
  });
});
