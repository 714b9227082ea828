/**
 * Test-only: a tiny SRGS (XML form) matcher with SISR semantics/1.0 evaluation, enough to check what
 * the inline grammars the renderer writes return for a given utterance. It runs the grammars' own
 * static tag scripts with `new Function` (test code; the scripts come from our grammar builders).
 */
import { deepText, findAll, type XNode } from './xml-tree.js';

type Event = { tag: string } | { rule: string; events: Event[] };
type Match = [end: number, events: Event[]];

function words(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

function repeatOf(item: XNode): [number, number] {
  const r = item.attrs.repeat;
  if (r === undefined) return [1, 1];
  const m = /^(\d+)(?:-(\d*))?$/.exec(r)!;
  const min = Number(m[1]);
  return [min, m[2] === undefined ? min : m[2] === '' ? Infinity : Number(m[2])];
}

export class SrgsInterpreter {
  private readonly rules = new Map<string, XNode>();

  constructor(private readonly grammar: XNode) {
    for (const r of findAll(grammar, 'rule')) this.rules.set(r.attrs.id!, r);
  }

  /** The SISR result of the first full parse of `utterance`, or undefined (nomatch). */
  interpret(utterance: string): unknown {
    const toks = words(utterance);
    const root = this.rules.get(this.grammar.attrs.root!)!;
    for (const [end, events] of this.seq(root.content, 0, 0, toks)) {
      if (end === toks.length) return evaluate(events);
    }
    return undefined;
  }

  private *seq(content: Array<XNode | string>, i: number, pos: number, toks: string[]): Generator<Match> {
    if (i === content.length) {
      yield [pos, []];
      return;
    }
    const c = content[i]!;
    if (typeof c === 'string') {
      const w = words(c);
      if (w.every((x, k) => toks[pos + k] === x)) yield* this.seq(content, i + 1, pos + w.length, toks);
      return;
    }
    for (const [p1, e1] of this.node(c, pos, toks)) {
      for (const [p2, e2] of this.seq(content, i + 1, p1, toks)) yield [p2, [...e1, ...e2]];
    }
  }

  private *node(n: XNode, pos: number, toks: string[]): Generator<Match> {
    if (n.name === 'tag') {
      yield [pos, [{ tag: deepText(n) }]];
    } else if (n.name === 'ruleref') {
      if (n.attrs.special === 'VOID') return;
      const id = n.attrs.uri!.slice(1);
      for (const [p, events] of this.seq(this.rules.get(id)!.content, 0, pos, toks))
        yield [p, [{ rule: id, events }]];
    } else if (n.name === 'one-of') {
      for (const item of n.children) yield* this.node(item, pos, toks);
    } else if (n.name === 'item') {
      const [min, max] = repeatOf(n);
      yield* this.reps(n, 0, min, max, pos, [], toks);
    }
  }

  private *reps(
    n: XNode,
    k: number,
    min: number,
    max: number,
    pos: number,
    acc: Event[],
    toks: string[],
  ): Generator<Match> {
    if (k < max && pos < toks.length) {
      for (const [p, e] of this.seq(n.content, 0, pos, toks))
        if (p > pos) yield* this.reps(n, k + 1, min, max, p, [...acc, ...e], toks);
    }
    if (k >= min) yield [pos, acc];
  }
}

/** Runs one rule's tags in order; `rules.latest()` is the value of the last rule reference before. */
function evaluate(events: Event[]): unknown {
  const values: unknown[] = [];
  let code = 'var __latest; var rules = { latest: function () { return __latest; } }; var out;\n';
  for (const e of events) {
    if ('tag' in e) code += `${e.tag}\n`;
    else {
      values.push(evaluate(e.events));
      code += `__latest = __values[${values.length - 1}];\n`;
    }
  }
  return new Function('__values', `${code}return out;`)(values) as unknown;
}
