/**
 * Typed handles on the CommonJS libraries that ship without type declarations (jexl, @nlpjs/lang-en-min, @nlpjs/lang-es).
 * Loaded through createRequire so no ambient `declare module` leaks into the rest of the project.
 * Only the members the agent uses are described.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface JexlExpression {
  evalSync(context?: object): unknown;
  /** The parsed tree (jexl 2's Expression#_getAst); read only to list the names an expression reads. */
  _getAst(): JexlAstNode;
}

/** The members of jexl's parse-tree nodes that the name check walks; other nodes pass through. */
export interface JexlAstNode {
  type: string;
  value?: unknown;
  from?: JexlAstNode;
  relative?: boolean;
  subject?: JexlAstNode;
  expr?: JexlAstNode;
  left?: JexlAstNode;
  right?: JexlAstNode;
  test?: JexlAstNode;
  consequent?: JexlAstNode;
  alternate?: JexlAstNode;
  args?: JexlAstNode[];
}

export interface JexlInstance {
  compile(expression: string): JexlExpression;
  addTransform(name: string, fn: (value: unknown, ...args: unknown[]) => unknown): void;
}

/** nlp.js's English and Spanish word tools (only these: its classifier is not used, docs/nlu.md). */
export interface NlpTokenizer {
  tokenize(text: string, normalize?: boolean): string[];
}
export interface NlpStemmer {
  stemWord(word: string): string;
}
export interface NlpNormalizer {
  normalize(text: string): string;
}

interface VendorModules {
  Jexl: new () => JexlInstance;
  TokenizerEn: new () => NlpTokenizer;
  StemmerEn: new () => NlpStemmer;
  NormalizerEn: new () => NlpNormalizer;
  TokenizerEs: new () => NlpTokenizer;
  StemmerEs: new () => NlpStemmer;
  NormalizerEs: new () => NlpNormalizer;
}

const jexlModule = require('jexl') as { Jexl: VendorModules['Jexl'] };
const langEnModule = require('@nlpjs/lang-en-min') as Pick<
  VendorModules,
  'TokenizerEn' | 'StemmerEn' | 'NormalizerEn'
>;
const langEsModule = require('@nlpjs/lang-es') as Pick<
  VendorModules,
  'TokenizerEs' | 'StemmerEs' | 'NormalizerEs'
>;

export const vendorModules: VendorModules = {
  Jexl: jexlModule.Jexl,
  TokenizerEn: langEnModule.TokenizerEn,
  StemmerEn: langEnModule.StemmerEn,
  NormalizerEn: langEnModule.NormalizerEn,
  TokenizerEs: langEsModule.TokenizerEs,
  StemmerEs: langEsModule.StemmerEs,
  NormalizerEs: langEsModule.NormalizerEs,
};
