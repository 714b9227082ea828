/**
 * SRGS 1.0 XML grammars (inline or fetched) as a recogniser: the grammar is compiled to a small
 * rule tree (`<rule>`, `<one-of>`, `<item repeat>`, `<token>`, `<ruleref uri="#id">` and the specials
 * NULL/VOID/GARBAGE, `<tag>`), the caller's words (or keys) are parsed against the root rule by
 * backtracking, and the parse's tags are run as SISR (semantics/1.0): every rule invocation has its
 * own scope with `out`, `rules.<id>`, `rules.latest()` and `var`s, and a rule that ran no tag is worth
 * the text it matched. Tag scripts are statements (`var x=…;`, `out=…;`, `out.slot=…;`, `out+=…;`,
 * `out*=…;`) whose expressions go through the same safe evaluator as VoiceXML expressions.
 * tag-format="semantics/1.0-literals" makes each tag's text the value itself.
 */
import { ExpressionEvaluator } from './expression-evaluator.js';
import { ScopeChain } from './scope-chain.js';
import { childElements, textContent, type XmlElement, type XmlNode } from './xml-tree.js';

type SrgsNode =
  | { t: 'tokens'; words: string[] }
  | { t: 'seq'; items: SrgsNode[] }
  | { t: 'alt'; items: SrgsNode[] }
  | { t: 'repeat'; node: SrgsNode; min: number; max: number }
  | { t: 'ref'; rule: string }
  | { t: 'special'; name: 'NULL' | 'VOID' | 'GARBAGE' }
  | { t: 'tag'; script: string }
  | { t: 'literal'; value: unknown };

export interface SrgsGrammar {
  mode: 'voice' | 'dtmf';
  root: string;
  rules: Map<string, SrgsNode>;
  literalTags: boolean;
}

type DerivItem = { k: 'tag'; script: string } | { k: 'literal'; value: unknown } | RuleDeriv;
interface RuleDeriv {
  k: 'rule';
  name: string;
  items: DerivItem[];
  from: number;
  to: number;
}
type Parse = [number, DerivItem[]];

const MAX_STEPS = 200_000;
const MAX_DEPTH = 60;
const sisr = new ExpressionEvaluator();

/** Lower case, punctuation to spaces, whitespace collapsed: how typed text is compared to grammar words. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[.,!?;:"()¿¡]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function tokensOf(text: string, mode: 'voice' | 'dtmf'): string[] {
  return mode === 'dtmf'
    ? text.replace(/\s+/g, '').toUpperCase().split('').filter(Boolean)
    : normalizeWords(text);
}

function parseRepeat(repeat: string): [number, number] {
  const m = /^\s*(\d+)\s*(?:(-)\s*(\d*))?\s*$/.exec(repeat);
  if (!m) throw new Error(`bad repeat "${repeat}"`);
  const min = Number(m[1]);
  if (!m[2]) return [min, min];
  return [min, m[3] ? Math.max(min, Number(m[3])) : Infinity];
}

function seqOf(items: Array<SrgsNode | undefined>): SrgsNode {
  const kept = items.filter((n): n is SrgsNode => n !== undefined);
  return kept.length === 1 ? (kept[0] as SrgsNode) : { t: 'seq', items: kept };
}

function compile(node: XmlNode, mode: 'voice' | 'dtmf', literalTags: boolean): SrgsNode | undefined {
  if (typeof node === 'string') {
    const words = tokensOf(node, mode);
    return words.length ? { t: 'tokens', words } : undefined;
  }
  const children = (): SrgsNode => seqOf(node.children.map((c) => compile(c, mode, literalTags)));
  switch (node.name) {
    case 'item': {
      const body = children();
      if (node.attrs.repeat === undefined) return body;
      const [min, max] = parseRepeat(node.attrs.repeat);
      return { t: 'repeat', node: body, min, max };
    }
    case 'one-of':
      return {
        t: 'alt',
        items: childElements(node, 'item').map(
          (i) => compile(i, mode, literalTags) ?? { t: 'seq', items: [] },
        ),
      };
    case 'token':
      return { t: 'tokens', words: tokensOf(textContent(node), mode) };
    case 'ruleref': {
      const special = node.attrs.special;
      if (special === 'NULL' || special === 'VOID' || special === 'GARBAGE')
        return { t: 'special', name: special };
      const uri = node.attrs.uri ?? '';
      if (!uri.startsWith('#')) throw new Error(`ruleref "${uri}": only local rules (#id) are supported`);
      return { t: 'ref', rule: uri.slice(1) };
    }
    case 'tag': {
      const text = textContent(node);
      return literalTags ? { t: 'literal', value: text.trim() } : { t: 'tag', script: text };
    }
    case 'example':
    case 'meta':
    case 'metadata':
    case 'lexicon':
      return undefined;
    default:
      return children();
  }
}

/** Compiles a `<grammar>` element (SRGS XML form). Throws an Error when it is outside the subset. */
export function parseSrgsGrammar(grammar: XmlElement): SrgsGrammar {
  const mode = grammar.attrs.mode === 'dtmf' ? 'dtmf' : 'voice';
  const literalTags = (grammar.attrs['tag-format'] ?? '').includes('literals');
  const rules = new Map<string, SrgsNode>();
  const ruleEls = childElements(grammar, 'rule');
  for (const rule of ruleEls)
    if (rule.attrs.id)
      rules.set(rule.attrs.id, seqOf(rule.children.map((c) => compile(c, mode, literalTags))));
  const root = grammar.attrs.root ?? ruleEls[0]?.attrs.id;
  if (!root || !rules.has(root))
    throw new Error(root ? `root rule "${root}" not found` : 'grammar has no rule');
  const check = (n: SrgsNode): void => {
    if (n.t === 'ref' && !rules.has(n.rule)) throw new Error(`ruleref "#${n.rule}": no such rule`);
    if (n.t === 'seq' || n.t === 'alt') n.items.forEach(check);
    if (n.t === 'repeat') check(n.node);
  };
  rules.forEach(check);
  return { mode, root, rules, literalTags };
}

/** A grammar of fixed phrases, each with its value (used for `<option>`s). */
export function grammarFromPhrases(
  mode: 'voice' | 'dtmf',
  phrases: Array<{ text: string; value: unknown }>,
): SrgsGrammar {
  const items: SrgsNode[] = phrases.map((p) => ({
    t: 'seq',
    items: [
      { t: 'tokens', words: tokensOf(p.text, mode) },
      { t: 'literal', value: p.value },
    ],
  }));
  return { mode, root: 'options', rules: new Map([['options', { t: 'alt', items }]]), literalTags: false };
}

class OutOfSteps extends Error {}

class Parser {
  private steps = 0;
  constructor(
    private readonly grammar: SrgsGrammar,
    private readonly tokens: string[],
  ) {}

  *node(n: SrgsNode, pos: number, depth: number): Generator<Parse> {
    if (++this.steps > MAX_STEPS) throw new OutOfSteps();
    switch (n.t) {
      case 'tokens':
        if (n.words.every((w, i) => this.tokens[pos + i] === w)) yield [pos + n.words.length, []];
        return;
      case 'seq':
        yield* this.seq(n.items, 0, pos, depth);
        return;
      case 'alt':
        for (const item of n.items) yield* this.node(item, pos, depth);
        return;
      case 'repeat':
        yield* this.repeat(n, 0, pos, depth);
        return;
      case 'ref': {
        if (depth > MAX_DEPTH) return;
        for (const [end, items] of this.node(this.grammar.rules.get(n.rule) as SrgsNode, pos, depth + 1)) {
          yield [end, [{ k: 'rule', name: n.rule, items, from: pos, to: end }]];
        }
        return;
      }
      case 'special':
        if (n.name === 'NULL') yield [pos, []];
        if (n.name === 'GARBAGE') for (let end = this.tokens.length; end >= pos; end--) yield [end, []];
        return;
      case 'tag':
        yield [pos, [{ k: 'tag', script: n.script }]];
        return;
      case 'literal':
        yield [pos, [{ k: 'literal', value: n.value }]];
    }
  }

  private *seq(items: SrgsNode[], i: number, pos: number, depth: number): Generator<Parse> {
    const first = items[i];
    if (!first) {
      yield [pos, []];
      return;
    }
    for (const [p1, d1] of this.node(first, pos, depth)) {
      for (const [p2, d2] of this.seq(items, i + 1, p1, depth)) yield [p2, d1.concat(d2)];
    }
  }

  private *repeat(
    n: Extract<SrgsNode, { t: 'repeat' }>,
    count: number,
    pos: number,
    depth: number,
  ): Generator<Parse> {
    if (count < n.max) {
      for (const [p1, d1] of this.node(n.node, pos, depth)) {
        if (p1 === pos && count >= n.min) continue;
        for (const [p2, d2] of this.repeat(n, count + 1, p1, depth)) yield [p2, d1.concat(d2)];
      }
    }
    if (count >= n.min) yield [pos, []];
  }
}

/** Splits a tag script into statements at top-level semicolons. */
function statements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote = '';
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    if (quote) {
      current += c;
      if (c === '\\') current += script[++i] ?? '';
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === ';') {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

const VAR_STATEMENT = /^var\s+([A-Za-z_$][\w$]*)\s*(?:=\s*([\s\S]+))?$/;
const ASSIGNMENT = /^([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*([+\-*/]?)=(?!=)\s*([\s\S]+)$/;

function combine(op: string, current: unknown, value: unknown): unknown {
  const a = current as number;
  const b = value as number;
  if (op === '+') return (a as unknown as string) + (b as unknown as string);
  if (op === '-') return a - b;
  if (op === '*') return a * b;
  if (op === '/') return a / b;
  return value;
}

function runTag(script: string, scope: ScopeChain): void {
  const source = script
    .replace(/\brules\s*\.\s*latest\s*\(\s*\)/g, 'rules.latest__')
    .replace(/\bmeta\s*\.\s*(current|latest)\s*\(\s*\)/g, 'meta.$1__');
  for (const statement of statements(source)) {
    const v = VAR_STATEMENT.exec(statement);
    if (v) {
      scope.declare(v[1] as string, v[2] === undefined ? undefined : sisr.evaluate(v[2], scope));
      continue;
    }
    const a = ASSIGNMENT.exec(statement);
    if (!a) {
      sisr.evaluate(statement, scope);
      continue;
    }
    const target = (a[1] as string).replace(/\s+/g, '');
    const op = a[2] as string;
    const value = sisr.evaluate(a[3] as string, scope);
    const next = op === '' ? value : combine(op, sisr.evaluate(target, scope), value);
    if (!target.includes('.') && !scope.isDeclared(target)) scope.declare(target, next);
    else scope.assign(target, next);
  }
}

function evaluateRule(d: RuleDeriv, tokens: string[]): unknown {
  const scope = new ScopeChain('anonymous');
  const rules: Record<string, unknown> = {};
  const text = tokens.slice(d.from, d.to).join(' ');
  const meta = { current__: { text }, latest__: { text: '' } };
  scope.declare('out', {});
  scope.declare('rules', rules);
  scope.declare('meta', meta);
  let tagged = false;
  for (const item of d.items) {
    if (item.k === 'rule') {
      const value = evaluateRule(item, tokens);
      rules[item.name] = value;
      rules.latest__ = value;
      meta.latest__ = { text: tokens.slice(item.from, item.to).join(' ') };
    } else if (item.k === 'literal') {
      tagged = true;
      scope.assign('out', item.value);
    } else {
      tagged = true;
      runTag(item.script, scope);
    }
  }
  return tagged ? scope.vars.out : text;
}

/**
 * Parses an input against the grammar. `prefix` also accepts a parse of the input's first words (the
 * longest one wins). Returns the SISR interpretation, or undefined for no match; a tag script
 * outside the subset throws an Error.
 */
export function matchSrgs(
  grammar: SrgsGrammar,
  input: string,
  prefix: boolean,
): { interpretation: unknown; words: number } | undefined {
  const tokens = tokensOf(input, grammar.mode);
  if (tokens.length === 0) return undefined;
  const parser = new Parser(grammar, tokens);
  let best: RuleDeriv | undefined;
  try {
    for (const [end, items] of parser.node({ t: 'ref', rule: grammar.root }, 0, 0)) {
      const root = items[0] as RuleDeriv;
      if (end === tokens.length) {
        best = root;
        break;
      }
      if (prefix && end > 0 && (!best || end > best.to)) best = root;
    }
  } catch (err) {
    if (!(err instanceof OutOfSteps)) throw err;
  }
  if (!best) return undefined;
  return { interpretation: evaluateRule(best, tokens), words: best.to };
}

/**
 * Up to `limit` phrases the grammar accepts, for showing a person what can be said: each
 * alternative, the fewest repeats (an optional item left out first), GARBAGE as "…"; deep or recursive rules are cut.
 */
export function samplePhrases(grammar: SrgsGrammar, limit = 12): string[] {
  const expand = (node: SrgsNode, depth: number): string[][] => {
    if (depth > 12) return [['…']];
    switch (node.t) {
      case 'tokens':
        return [node.words];
      case 'seq': {
        let out: string[][] = [[]];
        for (const item of node.items) {
          const next: string[][] = [];
          for (const head of out)
            for (const tail of expand(item, depth + 1))
              if (next.length < limit) next.push([...head, ...tail]);
          out = next;
        }
        return out;
      }
      case 'alt':
        return node.items.flatMap((i) => expand(i, depth + 1)).slice(0, limit);
      case 'repeat': {
        const once = expand(node.node, depth + 1);
        // an optional item: first without it (the shortest phrases are the clearest examples)
        if (node.min === 0) return [[], ...once].slice(0, limit);
        return once.map((words) => Array.from({ length: node.min }, () => words).flat());
      }
      case 'ref': {
        const rule = grammar.rules.get(node.rule);
        return rule ? expand(rule, depth + 1) : [];
      }
      case 'special':
        return node.name === 'GARBAGE' ? [['…']] : node.name === 'VOID' ? [] : [[]];
      default:
        return [[]];
    }
  };
  const root = grammar.rules.get(grammar.root);
  if (!root) return [];
  const joiner = grammar.mode === 'dtmf' ? '' : ' ';
  return [
    ...new Set(
      expand(root, 0)
        .map((words) => words.join(joiner))
        .filter((p) => p !== ''),
    ),
  ].slice(0, limit);
}
