/**
 * Typed handles on the CommonJS libraries that ship without type declarations (jexl, @nlpjs/*).
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

export interface NlpClassification {
  intent: string;
  score: number;
}

export interface NlpInstance {
  addDocument(locale: string, utterance: string, intent: string): void;
  train(): Promise<unknown>;
  classify(locale: string, utterance: string): Promise<{ classifications?: NlpClassification[]; intent?: string; score?: number }>;
  export(minified?: boolean): string;
  import(data: string | object): void;
}

export interface NlpContainer {
  use(plugin: unknown): unknown;
}

interface VendorModules {
  Jexl: new () => JexlInstance;
  Nlp: new (settings: Record<string, unknown>, container: NlpContainer) => NlpInstance;
  LangEn: unknown;
  containerBootstrap: () => NlpContainer;
}

const jexlModule = require('jexl') as { Jexl: VendorModules['Jexl'] };
const nlpModule = require('@nlpjs/nlp') as { Nlp: VendorModules['Nlp'] };
const coreModule = require('@nlpjs/core') as { containerBootstrap: VendorModules['containerBootstrap'] };
const langEnModule = require('@nlpjs/lang-en-min') as { LangEn: unknown };

export const vendorModules: VendorModules = {
  Jexl: jexlModule.Jexl,
  Nlp: nlpModule.Nlp,
  LangEn: langEnModule.LangEn,
  containerBootstrap: coreModule.containerBootstrap,
};
