import { describe, expect, it } from 'vitest';
import { extractEntity, type EntitySpec } from '../../src/agent/entity-extractors.js';
import { fixedNow } from './agent-test-kit.js';

const extract = (
  spec: Omit<EntitySpec, 'name'>,
  text: string,
  inputmode: 'voice' | 'dtmf' = 'voice',
  interpretation?: string,
) =>
  extractEntity(
    { name: 'x', ...spec },
    { text, inputmode, ...(interpretation !== undefined ? { interpretation } : {}) },
    { now: fixedNow },
  );

describe('number entity', () => {
  it.each([
    ['twelve', 12],
    ['two hundred and five', 205],
    ['4.5', 4.5],
    ['four point five', 4.5],
    ['one thousand two hundred', 1200],
    ['two thousand and twenty seven', 2027],
    ['1,200', 1200],
    ['a hundred', 100],
    ['a table for 4 please', 4],
    ['we are six', 6],
    ['twenty-one', 21],
  ])('when the caller says "%s", then the number is %d', (text, value) => {
    expect(extract({ type: 'number' }, text)).toEqual({ ok: true, value });
  });

  it('when DTMF digits are keyed, then they are the number (star as the decimal point)', () => {
    expect(extract({ type: 'number' }, '12', 'dtmf')).toEqual({ ok: true, value: 12 });
    expect(extract({ type: 'number' }, '4*5', 'dtmf')).toEqual({ ok: true, value: 4.5 });
    expect(extract({ type: 'number' }, '8#', 'dtmf')).toEqual({ ok: true, value: 8 });
  });

  it('when the text holds no number, then there is no match', () => {
    expect(extract({ type: 'number' }, 'I am not sure')).toEqual({ ok: false });
  });
});

describe('digits entity', () => {
  const pin = { type: 'digits' as const, minLength: 4, maxLength: 4 };
  it('when digits are keyed by DTMF, then they are kept as a string', () => {
    expect(extract(pin, '4567', 'dtmf')).toEqual({ ok: true, value: '4567' });
    expect(extract(pin, '0123#', 'dtmf')).toEqual({ ok: true, value: '0123' });
  });

  it.each(['four five six seven', '4 5 6 7', 'it is 4567', 'double four five six'])(
    'when "%s" is spoken, then the digits are read one by one',
    (text) => {
      const r = extract(pin, text);
      expect(r.ok).toBe(true);
    },
  );

  it('when spoken digits include "oh", then it is a zero', () => {
    expect(extract(pin, 'oh one two three')).toEqual({ ok: true, value: '0123' });
  });

  it('when there are fewer or more digits than allowed, then there is no match', () => {
    expect(extract(pin, '456', 'dtmf')).toEqual({ ok: false });
    expect(extract(pin, 'four five six seven eight')).toEqual({ ok: false });
  });
});

describe('date entity (clock fixed at Wednesday 2027-03-10)', () => {
  it.each([
    ['2027-03-14', '2027-03-14'],
    ['today', '2027-03-10'],
    ['tomorrow', '2027-03-11'],
    ['the day after tomorrow', '2027-03-12'],
    ['next friday', '2027-03-12'],
    ['next wednesday', '2027-03-17'],
    ['friday', '2027-03-12'],
    ['march 3', '2028-03-03'],
    ['march 30', '2027-03-30'],
    ['march 3rd 2027', '2027-03-03'],
    ['the 21st of april', '2027-04-21'],
    ['march twenty first', '2027-03-21'],
    ['3/14/2027', '2027-03-14'],
    ['12/25', '2027-12-25'],
    ['in three days', '2027-03-13'],
  ])('when the caller says "%s", then the date is %s', (text, iso) => {
    expect(extract({ type: 'date' }, text)).toEqual({ ok: true, value: iso });
  });

  it('when a builtin date grammar interprets the answer, then its yyyymmdd form is used', () => {
    expect(extract({ type: 'date' }, 'the twentieth', 'voice', '20270320')).toEqual({
      ok: true,
      value: '2027-03-20',
    });
    expect(extract({ type: 'date' }, '20270320', 'dtmf')).toEqual({ ok: true, value: '2027-03-20' });
  });

  it('when the date does not exist or is not a date, then there is no match', () => {
    expect(extract({ type: 'date' }, 'february 30')).toEqual({ ok: false });
    expect(extract({ type: 'date' }, 'some day soon')).toEqual({ ok: false });
  });

  it('when a time zone is given, then "today" is the day in that zone', () => {
    const lateUtc = new Date('2027-03-11T02:00:00Z');
    const r = extractEntity(
      { name: 'd', type: 'date' },
      { text: 'today', inputmode: 'voice' },
      { now: lateUtc, timeZone: 'America/New_York' },
    );
    expect(r).toEqual({ ok: true, value: '2027-03-10' });
  });
});

describe('date entity in Spanish (clock fixed at Wednesday 2027-03-10)', () => {
  it.each([
    ['hoy', '2027-03-10'],
    ['mañana', '2027-03-11'],
    ['pasado mañana', '2027-03-12'],
    ['el viernes', '2027-03-12'],
    ['el próximo miércoles', '2027-03-17'],
    ['el tres de marzo', '2028-03-03'],
    ['el treinta de marzo', '2027-03-30'],
    ['el veintiuno de abril', '2027-04-21'],
    ['el primero de mayo', '2027-05-01'],
    ['el 3 de abril de 2027', '2027-04-03'],
    ['el tres de marzo de dos mil veintisiete', '2027-03-03'],
    ['dentro de tres días', '2027-03-13'],
    ['la semana que viene', '2027-03-17'],
    ['Para el Quince de Junio, por favor', '2027-06-15'],
  ])('when the caller says "%s", then the date is %s', (text, iso) => {
    expect(extract({ type: 'date' }, text)).toEqual({ ok: true, value: iso });
  });

  it('when the Spanish names no day, or a day that does not exist, then there is no match', () => {
    expect(extract({ type: 'date' }, 'en marzo')).toEqual({ ok: false });
    expect(extract({ type: 'date' }, 'el treinta de febrero')).toEqual({ ok: false });
    expect(extract({ type: 'date' }, 'a las cinco')).toEqual({ ok: false });
    expect(extract({ type: 'date' }, 'no lo sé')).toEqual({ ok: false });
  });

  it('when a time zone is given, then "hoy" is the day in that zone', () => {
    const lateUtc = new Date('2027-03-11T02:00:00Z');
    const r = extractEntity(
      { name: 'd', type: 'date' },
      { text: 'hoy', inputmode: 'voice' },
      { now: lateUtc, timeZone: 'America/New_York' },
    );
    expect(r).toEqual({ ok: true, value: '2027-03-10' });
  });
});

describe('yes/no entity', () => {
  it.each(['yes', 'Yeah.', 'yep', 'sure', 'correct', "that's right", 'yes please', 'absolutely'])(
    'when the caller says "%s", then it is yes',
    (text) => {
      expect(extract({ type: 'yesno' }, text)).toEqual({ ok: true, value: true });
    },
  );

  it.each(['no', 'nope', 'negative', "that's not right", 'no thanks', 'wrong'])(
    'when the caller says "%s", then it is no',
    (text) => {
      expect(extract({ type: 'yesno' }, text)).toEqual({ ok: true, value: false });
    },
  );

  it('when 1 or 2 is keyed, then 1 is yes and 2 is no', () => {
    expect(extract({ type: 'yesno' }, '1', 'dtmf')).toEqual({ ok: true, value: true });
    expect(extract({ type: 'yesno' }, '2', 'dtmf')).toEqual({ ok: true, value: false });
  });

  it('when a boolean grammar interprets the answer as true/false, then that is used', () => {
    expect(extract({ type: 'yesno' }, 'mhmm okey dokey', 'voice', 'true')).toEqual({ ok: true, value: true });
    expect(extract({ type: 'yesno' }, 'nah-ah', 'voice', 'false')).toEqual({ ok: true, value: false });
  });

  it('when the answer is both or neither, then there is no match', () => {
    expect(extract({ type: 'yesno' }, 'yes no')).toEqual({ ok: false });
    expect(extract({ type: 'yesno' }, "I don't know")).toEqual({ ok: false });
    expect(extract({ type: 'yesno' }, 'purple')).toEqual({ ok: false });
  });
});

describe('list entity', () => {
  const spec = {
    type: 'list' as const,
    values: [
      'small',
      { value: 'large', synonyms: ['big', 'huge', 'extra large'] },
      { value: 'medium', synonyms: ['regular'] },
    ],
  };
  it('when a synonym is said in a phrase, any case, then the canonical value is returned', () => {
    expect(extract(spec, 'a BIG one please')).toEqual({ ok: true, value: 'large' });
    expect(extract(spec, 'Regular')).toEqual({ ok: true, value: 'medium' });
    expect(extract(spec, 'small')).toEqual({ ok: true, value: 'small' });
  });

  it('when only part of a word matches, then there is no match', () => {
    expect(extract(spec, 'smaller')).toEqual({ ok: false });
    expect(extract(spec, 'tiny')).toEqual({ ok: false });
  });

  it('when key N is pressed, then the Nth value is chosen', () => {
    expect(extract(spec, '2', 'dtmf')).toEqual({ ok: true, value: 'large' });
  });
});

describe('string entity', () => {
  it('when text is given, then it is trimmed; when it is blank, then there is no match', () => {
    expect(extract({ type: 'string' }, '  Mario   Rossi ')).toEqual({ ok: true, value: 'Mario Rossi' });
    expect(extract({ type: 'string' }, '   ')).toEqual({ ok: false });
  });
});

describe('keys a browser reports one token apiece', () => {
  it.each([
    [{ type: 'date' as const }, '2 0 2 7 0 3 1 4', '2027-03-14'],
    [{ type: 'list' as const, values: ['small', '12'] }, '1 2', '12'],
    [{ type: 'number' as const }, '4 5', 45],
    [{ type: 'digits' as const, minLength: 4, maxLength: 4 }, '1 2 3 4', '1234'],
    [{ type: 'yesno' as const }, ' 2 ', false],
  ])(
    'when a %o answer is keyed as "%s" without an interpretation, then the keys are read together',
    (spec, text, value) => {
      expect(extract(spec, text, 'dtmf')).toEqual({ ok: true, value });
    },
  );

  it('when free text arrives as DTMF, then it keeps its spaces', () => {
    expect(extract({ type: 'string' }, '1 2', 'dtmf')).toEqual({ ok: true, value: '1 2' });
  });
});
