/**
 * Typed builder for SRGS 1.0 (XML form) grammars with SISR `semantics/1.0` tags, used both inline in a
 * VoiceXML `<field>` and as a standalone grammar document. Tag contents are ECMAScript and only accept
 * EcmaExpr (data enters them through ecmaString).
 */
import type { EcmaExpr } from './ecma-string.js';
import { BuilderNode, PreparedMarkup, SRGS_NS, documentRoot, type AttrValues } from './builder-core.js';
import { count, langTag, ncName } from './xml-values.js';

export interface GrammarAttrs {
  mode: 'voice' | 'dtmf';
  root: string;
  lang?: string;
}

/** Attributes of `<grammar>`; embedded grammars also carry `type` (as in the spec examples). */
export function grammarAttrs(a: GrammarAttrs, embedded: boolean): AttrValues {
  const common = { mode: a.mode, root: ncName(a.root), 'tag-format': 'semantics/1.0' };
  return embedded
    ? { type: 'application/srgs+xml', version: '1.0', ...common, 'xml:lang': langTag(a.lang) }
    : { version: '1.0', 'xml:lang': langTag(a.lang) ?? 'en-US', ...common };
}

function repeatAttr(min?: number, max?: number | null): string | undefined {
  const lo = count(min);
  if (lo === undefined) return undefined;
  if (max === undefined) return lo;
  if (max === null) return `${lo}-`;
  const hi = count(max);
  return hi !== undefined && max >= (min ?? 0) ? `${lo}-${hi}` : lo;
}

/** A `<grammar>` element: holds rules. */
export class SrgsGrammar extends BuilderNode {
  /** A `<rule>`; private (the SRGS default, not written) unless `public`. */
  rule(id: string, scope?: 'public'): SrgsSequence {
    return new SrgsSequence(this.add('rule', { id: ncName(id), scope }), this.state);
  }

  /** A standalone grammar document (`xmlns="http://www.w3.org/2001/06/grammar"`). */
  static document(a: GrammarAttrs): SrgsGrammar {
    const { x, state } = documentRoot(SRGS_NS, 'grammar', grammarAttrs(a, false));
    return new SrgsGrammar(x, state);
  }

  toXml(opts: { pretty?: boolean } = {}): string {
    return BuilderNode.finish(this, opts);
  }
}

/** Content of a `<rule>` or `<item>`: a sequence of tokens, items, alternatives, references and tags. */
export class SrgsSequence extends BuilderNode {
  token(text: string): this {
    this.addText(text);
    return this;
  }

  /**
   * `<item>`; `repeat(min)` = exactly min, `repeat(min, max)` = min to max, `repeat(min, null)` = min or more.
   */
  item(repeat?: { min: number; max?: number | null }): SrgsSequence {
    const attrs = repeat ? { repeat: repeatAttr(repeat.min, repeat.max) } : undefined;
    return new SrgsSequence(this.add('item', attrs), this.state);
  }

  oneOf(): SrgsOneOf {
    return new SrgsOneOf(this.add('one-of'), this.state);
  }

  ruleref(ruleId: string): this {
    this.add('ruleref', { uri: `#${ncName(ruleId)}` });
    return this;
  }

  /** `<ruleref special="VOID"/>`: a rule that never matches. */
  void(): this {
    this.add('ruleref', { special: 'VOID' });
    return this;
  }

  tag(script: EcmaExpr): this {
    new SrgsSequence(this.add('tag'), this.state).addText(script);
    return this;
  }

  /** Content prepared once by `SrgsSequence.prepare`, written as it is. */
  prepared(markup: PreparedMarkup): this {
    this.addPrepared(markup);
    return this;
  }

  /** A sequence's content written once, for `prepared` in many documents. */
  static prepare(build: (seq: SrgsSequence) => void): PreparedMarkup {
    return PreparedMarkup.write((top, state) => build(new SrgsSequence(top, state)));
  }
}

/** A `<one-of>`: only items. */
export class SrgsOneOf extends BuilderNode {
  item(): SrgsSequence {
    return new SrgsSequence(this.add('item'), this.state);
  }

  /** `<item>token<tag>script</tag></item>`, the common alternative. */
  alt(token: string, script?: EcmaExpr): this {
    const it = this.item().token(token);
    if (script !== undefined) it.tag(script);
    return this;
  }
}
