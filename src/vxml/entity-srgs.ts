/**
 * Inline SRGS grammars (SISR semantics/1.0) for entity types a browser has no builtin for (see
 * dialects.ts): number, date, digits and boolean, in voice and DTMF modes. Results follow the VoiceXML
 * builtins: number → a number; date → 'yyyymmdd' with '????' for a missing year; digits → the digit
 * string; boolean → true/false (DTMF 1 = yes, 2 = no). Voice word lists are English (en-US).
 * All rule IDs are `<root>_…`, so several grammars can share a document.
 */
import { ecmaNumber, ecmaString, js } from './ecma-string.js';
import type { InlineEntity } from './document-spec.js';
import type { SrgsGrammar, SrgsOneOf, SrgsSequence } from './srgs-builder.js';

export interface EntitySrgsSpec {
  entity: InlineEntity;
  mode: 'voice' | 'dtmf';
  minLength?: number;
  maxLength?: number;
}

const UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];
const YES = ['yes', 'yeah', 'yep', 'sure', 'correct', 'right', 'okay', 'ok', 'true'];
const NO = ['no', 'nope', 'incorrect', 'wrong', 'false'];

const LATEST = js`rules.latest()`;
const two = (n: number) => ecmaString(String(n).padStart(2, '0'));

/** Cardinal words 1..31 (day of month). */
function cardinal(n: number): string {
  if (n < 10) return UNITS[n - 1]!;
  if (n < 20) return TEENS[n - 10]!;
  const t = TENS[Math.floor(n / 10) - 2]!;
  return n % 10 === 0 ? t : `${t} ${UNITS[(n % 10) - 1]!}`;
}

/** Ordinal words 1..31. */
function ordinal(n: number): string {
  if (n <= 20) return ORDINALS[n - 1]!;
  if (n === 30) return 'thirtieth';
  return `${TENS[Math.floor(n / 10) - 2]!} ${ORDINALS[(n % 10) - 1]!}`;
}

function valueRule(g: SrgsGrammar, id: string, words: readonly string[], value: (i: number) => number): void {
  const oneOf = g.rule(id).oneOf();
  words.forEach((w, i) => oneOf.alt(w, js`out=${ecmaNumber(value(i))};`));
}

/** An item that references a rule and copies (or adds, multiplies…) its value into `out`. */
function ref(seq: SrgsSequence | SrgsOneOf, id: string, op: '=' | '+=' = '='): SrgsSequence {
  const it = seq.item();
  it.ruleref(id).tag(op === '=' ? js`out=${LATEST};` : js`out+=${LATEST};`);
  return it;
}

/** units, teens, tens, n99 (1..99) and n999 (1..999) word rules under prefix `p`. */
function numberWordRules(g: SrgsGrammar, p: string): void {
  valueRule(g, `${p}_units`, UNITS, (i) => i + 1);
  valueRule(g, `${p}_teens`, TEENS, (i) => i + 10);
  valueRule(g, `${p}_tens`, TENS, (i) => (i + 2) * 10);
  const n99 = g.rule(`${p}_n99`).oneOf();
  ref(n99, `${p}_units`);
  ref(n99, `${p}_teens`);
  ref(ref(n99, `${p}_tens`).item({ min: 0, max: 1 }), `${p}_units`, '+=');
  const n999 = g.rule(`${p}_n999`).oneOf();
  ref(n999, `${p}_n99`);
  const hundreds = n999.item();
  hundreds
    .ruleref(`${p}_units`)
    .tag(js`out=100*${LATEST};`)
    .token('hundred');
  const rest = hundreds.item({ min: 0, max: 1 });
  rest.item({ min: 0, max: 1 }).token('and');
  rest.ruleref(`${p}_n99`).tag(js`out+=${LATEST};`);
}

/** A digit rule: DTMF keys, or spoken digits ("oh" = 0); value is the digit as a string. */
function digitRule(g: SrgsGrammar, id: string, mode: 'voice' | 'dtmf'): void {
  const oneOf = g.rule(id).oneOf();
  for (let d = 0; d <= 9; d++) {
    const words = mode === 'dtmf' ? [String(d)] : d === 0 ? ['zero', 'oh'] : [UNITS[d - 1]!];
    for (const w of words) oneOf.alt(w, js`out=${ecmaString(String(d))};`);
  }
}

function digitSequence(root: SrgsSequence, digit: string, min: number, max?: number | null): void {
  root.tag(js`out='';`);
  root
    .item(max === undefined ? { min } : { min, max })
    .ruleref(digit)
    .tag(js`out+=${LATEST};`);
}

function numberGrammar(g: SrgsGrammar, p: string, mode: 'voice' | 'dtmf'): void {
  const root = g.rule(p, 'public');
  if (mode === 'dtmf') {
    digitSequence(root, `${p}_digit`, 1, null);
    root.tag(js`out=Number(out);`);
    digitRule(g, `${p}_digit`, 'dtmf');
    return;
  }
  const oneOf = root.oneOf();
  oneOf.alt('zero', js`out=0;`);
  const big = ref(oneOf, `${p}_n999`);
  const thousands = big.item({ min: 0, max: 1 });
  thousands.token('thousand').tag(js`out*=1000;`);
  const tail = thousands.item({ min: 0, max: 1 });
  tail.item({ min: 0, max: 1 }).token('and');
  tail.ruleref(`${p}_n999`).tag(js`out+=${LATEST};`);
  numberWordRules(g, p);
}

function dateGrammar(g: SrgsGrammar, p: string, mode: 'voice' | 'dtmf'): void {
  const root = g.rule(p, 'public');
  if (mode === 'dtmf') {
    digitSequence(root, `${p}_digit`, 8);
    digitRule(g, `${p}_digit`, 'dtmf');
    return;
  }
  root.tag(js`var y='????';var m='';var d='';`);
  const forms = root.oneOf();
  const monthFirst = forms.item();
  monthFirst.ruleref(`${p}_month`).tag(js`m=${LATEST};`);
  monthFirst.item({ min: 0, max: 1 }).token('the');
  monthFirst.ruleref(`${p}_day`).tag(js`d=${LATEST};`);
  const dayFirst = forms.item();
  dayFirst.item({ min: 0, max: 1 }).token('the');
  dayFirst.ruleref(`${p}_day`).tag(js`d=${LATEST};`);
  dayFirst.item({ min: 0, max: 1 }).token('of');
  dayFirst.ruleref(`${p}_month`).tag(js`m=${LATEST};`);
  root
    .item({ min: 0, max: 1 })
    .ruleref(`${p}_year`)
    .tag(js`y=String(${LATEST});`);
  root.tag(js`out=y+m+d;`);

  const months = g.rule(`${p}_month`).oneOf();
  MONTHS.forEach((name, i) => months.alt(name, js`out=${two(i + 1)};`));
  const days = g.rule(`${p}_day`).oneOf();
  for (let n = 1; n <= 31; n++) days.alt(ordinal(n), js`out=${two(n)};`);
  for (let n = 1; n <= 31; n++) days.alt(cardinal(n), js`out=${two(n)};`);

  const years = g.rule(`${p}_year`).oneOf();
  const millennium = years
    .item()
    .token('two thousand')
    .tag(js`out=2000;`)
    .item({ min: 0, max: 1 });
  millennium.item({ min: 0, max: 1 }).token('and');
  millennium.ruleref(`${p}_n99`).tag(js`out+=${LATEST};`);
  const century = years.item();
  century.ruleref(`${p}_century`).tag(js`out=100*${LATEST};`);
  const yy = century.oneOf();
  ref(yy, `${p}_n99`, '+=');
  yy.item()
    .token('oh')
    .ruleref(`${p}_units`)
    .tag(js`out+=${LATEST};`);
  yy.alt('hundred');
  valueRule(g, `${p}_century`, ['nineteen', 'twenty'], (i) => 19 + i);
  numberWordRules(g, p);
}

function digitsGrammar(g: SrgsGrammar, p: string, spec: EntitySrgsSpec): void {
  const min = Math.max(1, Math.floor(spec.minLength ?? 1));
  const max = spec.maxLength === undefined ? null : Math.max(min, Math.floor(spec.maxLength));
  digitSequence(g.rule(p, 'public'), `${p}_digit`, min, max);
  digitRule(g, `${p}_digit`, spec.mode);
}

function booleanGrammar(g: SrgsGrammar, p: string, mode: 'voice' | 'dtmf'): void {
  const oneOf = g.rule(p, 'public').oneOf();
  for (const w of mode === 'dtmf' ? ['1'] : YES) oneOf.alt(w, js`out=true;`);
  for (const w of mode === 'dtmf' ? ['2'] : NO) oneOf.alt(w, js`out=false;`);
}

/** Writes the rules of one inline entity grammar into `g`; `root` is the public rule and ID prefix. */
export function entitySrgs(g: SrgsGrammar, root: string, spec: EntitySrgsSpec): void {
  switch (spec.entity) {
    case 'number':
      return numberGrammar(g, root, spec.mode);
    case 'date':
      return dateGrammar(g, root, spec.mode);
    case 'digits':
      return digitsGrammar(g, root, spec);
    case 'boolean':
      return booleanGrammar(g, root, spec.mode);
  }
}
