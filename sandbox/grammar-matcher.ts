/**
 * The "recognizer" of the terminal phone: compiles a field's grammars (builtin URIs, inline or
 * fetched SRGS XML, `<option>`s, the field's `type`) and matches typed text or keyed digits.
 *
 * lenient: every builtin is accepted; `builtin:speech/transcribe` and builtins other than digits,
 *   boolean and number take any text as a transcription. SRGS phrases match case-insensitively and
 *   also as a prefix of a longer utterance (the whole text stays the utterance).
 * strict-w3c: only grammar-based recognition with the builtins `digits` and `boolean`; any other
 *   builtin (number, transcribe, …) raises error.badfetch before the field runs (quirk 7). SRGS
 *   phrases must match exactly after lower-casing and trimming.
 * With `builtins` (a dialect's browser, emulated), the builtins it names are the ones there are, in
 * either mode: any other raises error.badfetch, as that browser does.
 */
import { matchBuiltin, parseBuiltinGrammar, type BuiltinGrammar } from './builtin-grammar.js';
import {
  grammarFromPhrases,
  matchSrgs,
  parseSrgsGrammar,
  samplePhrases,
  type SrgsGrammar,
} from './srgs-grammar.js';
import { badFetch, semanticError } from './vxml-event.js';
import { childElements, parseXmlTree, textContent, type XmlElement } from './xml-tree.js';

export type InterpreterMode = 'lenient' | 'strict-w3c';

export type CompiledGrammar =
  | { kind: 'builtin'; builtin: BuiltinGrammar }
  | { kind: 'srgs'; grammar: SrgsGrammar; label: string }
  | { kind: 'transcribe'; src: string };

/** Typed speech may carry its own ASR confidence (else the configured one). */
export type RecognizerInput =
  { kind: 'speech'; text: string; confidence?: number } | { kind: 'dtmf'; digits: string };

/** What a grammar accepts, as shown to a person: its name, its mode and some phrases (or a description). */
export interface GrammarSummary {
  label: string;
  mode: 'voice' | 'dtmf';
  phrases: string[];
}

/** A compiled grammar described for a person (the web caller shows the current field's). */
export function describeGrammar(g: CompiledGrammar): GrammarSummary {
  if (g.kind === 'transcribe') return { label: g.src, mode: 'voice', phrases: ['(any words)'] };
  if (g.kind === 'builtin') {
    const p = g.builtin.params;
    const length = p.length
      ? ` (${p.length} of them)`
      : p.minlength || p.maxlength
        ? ` (${p.minlength ?? '1'} to ${p.maxlength ?? 'any number'})`
        : '';
    const what =
      g.builtin.type === 'boolean'
        ? g.builtin.mode === 'dtmf'
          ? ['1 (yes)', '2 (no)']
          : ['yes', 'no']
        : g.builtin.type === 'digits'
          ? [`digits${length}`]
          : [`(a ${g.builtin.type})`];
    return { label: g.builtin.src, mode: g.builtin.mode, phrases: what };
  }
  return { label: g.label, mode: g.grammar.mode, phrases: samplePhrases(g.grammar) };
}

export interface Recognition {
  utterance: string;
  interpretation: unknown;
  inputmode: 'voice' | 'dtmf';
  confidence: number;
  /** Which grammar matched (its src, or "inline SRGS"). */
  grammar: string;
}

/** The builtin grammars an emulated browser has: types per mode, and whether it transcribes free speech. */
export interface BrowserGrammars {
  voice: readonly string[];
  dtmf: readonly string[];
  transcription: boolean;
}

export interface GrammarMatcherOptions {
  mode: InterpreterMode;
  /** The builtins of the browser being emulated (default: every one in lenient, digits and boolean in strict-w3c). */
  builtins?: BrowserGrammars;
  /** Confidence reported for voice input (DTMF is always 1). */
  confidence: number;
  /** Fetches an external grammar's text (throws on failure). */
  fetchText: (url: string) => Promise<string>;
}

const STRICT_BUILTINS = new Set(['digits', 'boolean']);

export class GrammarMatcher {
  constructor(private readonly options: GrammarMatcherOptions) {}

  /** The grammars active for a field, in document order; raises error.badfetch for unusable ones. */
  async compile(field: XmlElement, baseUrl: string | undefined): Promise<CompiledGrammar[]> {
    const out: CompiledGrammar[] = [];
    if (field.attrs.type) {
      const [type, query] = field.attrs.type.split('?');
      const suffix = query ? `?${query}` : '';
      out.push(this.builtin(`builtin:dtmf/${type}${suffix}`), this.builtin(`builtin:voice/${type}${suffix}`));
    }
    for (const g of childElements(field, 'grammar')) {
      const src = g.attrs.src;
      if (src !== undefined) {
        if (src.startsWith('builtin:')) out.push(this.builtin(src, g.attrs.mode));
        else out.push(await this.external(src, baseUrl, g.attrs.mode));
      } else if (childElements(g, 'rule').length > 0) {
        out.push({ kind: 'srgs', grammar: this.srgs(g, 'inline grammar'), label: 'inline SRGS' });
      } else if (g.attrs.srcexpr !== undefined) {
        throw badFetch('<grammar srcexpr> is not supported by this interpreter');
      } else if (textContent(g).trim() !== '') {
        throw badFetch('inline ABNF grammars are not supported (use SRGS XML)');
      }
    }
    const options = childElements(field, 'option');
    if (options.length > 0) out.push(...this.options_(options));
    return out;
  }

  /** Matches an input against the compiled grammars; undefined = nomatch. */
  recognize(grammars: CompiledGrammar[], input: RecognizerInput): Recognition | undefined {
    const inputmode = input.kind === 'dtmf' ? 'dtmf' : 'voice';
    const raw = input.kind === 'dtmf' ? input.digits : input.text.trim();
    if (raw === '') return undefined;
    const confidence = input.kind === 'dtmf' ? 1 : (input.confidence ?? this.options.confidence);
    const hit = (interpretation: unknown, grammar: string): Recognition => ({
      utterance: raw,
      interpretation,
      inputmode,
      confidence,
      grammar,
    });
    for (const g of grammars) {
      if (g.kind === 'transcribe') {
        if (inputmode === 'voice') return hit(raw, g.src);
      } else if (g.kind === 'builtin') {
        if (g.builtin.mode !== inputmode) continue;
        const m = matchBuiltin(g.builtin, raw, inputmode);
        if (m) return hit(m.interpretation, g.builtin.src);
      } else if (g.grammar.mode === inputmode) {
        const m = this.matchSrgs(g.grammar, raw, g.label);
        if (m) return hit(m.interpretation, g.label);
      }
    }
    return undefined;
  }

  private matchSrgs(
    grammar: SrgsGrammar,
    raw: string,
    label: string,
  ): { interpretation: unknown } | undefined {
    try {
      return matchSrgs(grammar, raw, this.options.mode === 'lenient' && grammar.mode === 'voice');
    } catch (err) {
      throw semanticError(`${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private builtin(src: string, modeAttr?: string): CompiledGrammar {
    const b = parseBuiltinGrammar(src, modeAttr);
    if (!b) throw badFetch(`unknown builtin grammar "${src}"`);
    const has = this.options.builtins;
    if (has) {
      const listed = b.type === 'transcribe' ? has.transcription : has[b.mode].includes(b.type);
      if (!listed) {
        const names = has[b.mode].length ? has[b.mode].join(', ') : 'none';
        throw badFetch(
          `${src} is not supported: this browser's ${b.mode} builtins are ${names}${has.transcription ? '' : ', and it has no transcription'}`,
        );
      }
    } else if (this.options.mode === 'strict-w3c' && !STRICT_BUILTINS.has(b.type)) {
      throw badFetch(`${src} is not supported: this browser has only the digits and boolean builtins`);
    }
    if (b.type === 'transcribe' || !['digits', 'boolean', 'number'].includes(b.type)) {
      return b.mode === 'voice' ? { kind: 'transcribe', src } : { kind: 'builtin', builtin: b };
    }
    return { kind: 'builtin', builtin: b };
  }

  private async external(
    src: string,
    baseUrl: string | undefined,
    modeAttr?: string,
  ): Promise<CompiledGrammar> {
    let url: string;
    try {
      url = new URL(src, baseUrl).toString();
    } catch {
      throw badFetch(`grammar URI "${src}" cannot be resolved`);
    }
    let text: string;
    try {
      text = await this.options.fetchText(url);
    } catch (err) {
      throw badFetch(`grammar ${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    let root: XmlElement;
    try {
      root = parseXmlTree(text);
    } catch (err) {
      throw badFetch(`grammar ${url} is not SRGS XML: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (modeAttr && !root.attrs.mode) root.attrs.mode = modeAttr;
    return { kind: 'srgs', grammar: this.srgs(root, url), label: url };
  }

  private srgs(g: XmlElement, what: string): SrgsGrammar {
    try {
      return parseSrgsGrammar(g);
    } catch (err) {
      throw badFetch(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private options_(options: XmlElement[]): CompiledGrammar[] {
    const voice: Array<{ text: string; value: unknown }> = [];
    const dtmf: Array<{ text: string; value: unknown }> = [];
    for (const o of options) {
      const text = textContent(o).trim();
      const value = o.attrs.value ?? text;
      if (text) voice.push({ text, value });
      if (o.attrs.dtmf) dtmf.push({ text: o.attrs.dtmf, value });
    }
    return [
      { kind: 'srgs', grammar: grammarFromPhrases('voice', voice), label: '<option>s' },
      { kind: 'srgs', grammar: grammarFromPhrases('dtmf', dtmf), label: '<option> keys' },
    ];
  }
}
