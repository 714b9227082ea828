/**
 * Compiles a definition once: validates it, parses every prompt template and rule expression,
 * trains the intent recognizer (or imports an exported model) and prepares the intent grammars the
 * renderer writes into intent questions. Turns never parse, train or build a grammar.
 */
import { parseAgentDefinition, type AgentDefinition, type AgentNode } from './agent-definition.js';
import type { CompiledNode, CompiledRule } from './define-node.js';
import { compileExpression } from './expression.js';
import {
  IntentModelError,
  IntentRecognizer,
  intentFingerprint,
  type IntentTrainingData,
  type IntentTrainingOptions,
} from './intent-recognizer.js';
import { prepareIntentGrammars } from './intent-grammars.js';
import { declaredLanguages, textIn } from './languages.js';
import { translationGaps } from './translation-gaps.js';
import { resolveNluSettings, type NluSettings } from './nlu-settings.js';
import { nodeRegistry } from './node-registry.js';
import {
  parsePromptTemplate,
  parseTextTemplate,
  type PromptTemplate,
  type TextTemplate,
} from './prompt-template.js';
import type { SrgsFieldGrammar } from '../vxml/index.js';

export interface CompiledDialog {
  readonly name: string;
  readonly start: string;
  readonly nodes: ReadonlyMap<string, CompiledNode>;
}

export interface CompiledAgent {
  readonly definition: AgentDefinition;
  readonly recognizer: IntentRecognizer;
  readonly dialogs: ReadonlyMap<string, CompiledDialog>;
  /** intent name → dialog name */
  readonly intentDialogs: ReadonlyMap<string, string>;
  /** The recognition settings (threshold, margin, confirmation, labels, prompts), defaults applied. */
  readonly nlu: NluSettings;
  /** The agent's languages, the default first. */
  readonly languages: readonly string[];
  /** The intent recognizer of each language (the default's is `recognizer`). */
  readonly recognizers: ReadonlyMap<string, IntentRecognizer>;
  /** The recognition settings in each language (labels and prompts differ; the default's is `nlu`). */
  readonly nluByLanguage: ReadonlyMap<string, NluSettings>;
  /** Texts missing in a language that the default language's text stands in for (translationFallback). */
  readonly missingTranslations: ReadonlyArray<{ path: string; language: string }>;
  /** The intents' SRGS grammar of each language, prepared for the renderer (intent-grammars.ts). */
  readonly intentGrammars: ReadonlyMap<string, SrgsFieldGrammar>;
  /** The trained intent model as JSON, for loadCompiledAgent in another process. */
  exportModel(): string;
}

const IVR_PROMPT_FIELDS = ['noInputPrompt', 'noMatchPrompt', 'errorPrompt'] as const;

/** A multilingual model: one exported recognizer per language (a single language keeps its plain model). */
const MULTI_FORMAT = 'ivr-gateway-intents-by-language';

interface Templates {
  prompts: Record<string, PromptTemplate>;
  texts: Record<string, TextTemplate>;
}

/** The node's templates in one language (a text missing there is the default language's). */
function nodeTemplates(
  def: AgentNode,
  kinds: Readonly<Record<string, string>>,
  lang: string,
  base: string,
): Templates {
  const prompts: Record<string, PromptTemplate> = {};
  const texts: Record<string, TextTemplate> = {};
  const fields = def as unknown as Record<string, unknown>;
  for (const [field, kind] of Object.entries(kinds)) {
    const value = fields[field];
    if (kind === 'textMap') {
      if (value !== null && typeof value === 'object') {
        for (const [key, text] of Object.entries(value))
          if (typeof text === 'string') texts[`${field}.${key}`] = parseTextTemplate(text);
      }
      continue;
    }
    const text = textIn(value, lang, base);
    if (text === undefined) continue;
    if (kind === 'prompt') prompts[field] = parsePromptTemplate(text);
    else texts[field] = parseTextTemplate(text);
  }
  for (const field of IVR_PROMPT_FIELDS) {
    const text = textIn(def.ivr?.[field], lang, base);
    if (text !== undefined) prompts[`ivr.${field}`] = parsePromptTemplate(text);
  }
  return { prompts, texts };
}

function compileNode(dialog: string, id: string, def: AgentNode, languages: readonly string[]): CompiledNode {
  const module = nodeRegistry.get(def.type);
  if (!module) throw new Error(`no handler for node type "${def.type}"`);
  const base = languages[0]!;
  const { prompts, texts } = nodeTemplates(def, module.templates, base, base);
  const next: CompiledRule[] = ('next' in def ? (def.next ?? []) : []).map((rule) =>
    rule.when !== undefined ? { goto: rule.goto, when: compileExpression(rule.when) } : { goto: rule.goto },
  );
  if (languages.length === 1) return { id, dialog, def, prompts, texts, next };
  const localized = new Map(
    languages.slice(1).map((lang) => [lang, nodeTemplates(def, module.templates, lang, base)]),
  );
  return { id, dialog, def, prompts, texts, next, localized };
}

function compileDialogs(
  definition: AgentDefinition,
  languages: readonly string[],
): Map<string, CompiledDialog> {
  const dialogs = new Map<string, CompiledDialog>();
  for (const [name, dialog] of Object.entries(definition.dialogs)) {
    const nodes = new Map<string, CompiledNode>();
    for (const [id, def] of Object.entries(dialog.nodes))
      nodes.set(id, compileNode(name, id, def, languages));
    dialogs.set(name, { name, start: dialog.start, nodes });
  }
  return dialogs;
}

function assemble(
  definition: AgentDefinition,
  recognizers: ReadonlyMap<string, IntentRecognizer>,
): CompiledAgent {
  const languages = declaredLanguages(definition);
  const recognizer = recognizers.get(languages[0]!)!;
  const nluByLanguage = new Map(languages.map((l) => [l, resolveNluSettings(definition, l)]));
  return {
    definition,
    recognizer,
    languages,
    recognizers,
    nluByLanguage,
    missingTranslations: translationGaps(definition),
    intentGrammars: prepareIntentGrammars(definition, languages),
    dialogs: compileDialogs(definition, languages),
    intentDialogs: new Map(definition.intents.map((i) => [i.name, i.dialog])),
    nlu: nluByLanguage.get(languages[0]!)!,
    exportModel: () => exportModels(languages, recognizers),
  };
}

function exportModels(
  languages: readonly string[],
  recognizers: ReadonlyMap<string, IntentRecognizer>,
): string {
  if (languages.length === 1) return recognizers.get(languages[0]!)!.export();
  return JSON.stringify({
    format: MULTI_FORMAT,
    models: Object.fromEntries(languages.map((l) => [l, recognizers.get(l)!.export()])),
  });
}

/** The out-of-scope examples of a language (a plain list is the default language's). */
function outOfScopeIn(def: AgentDefinition, lang: string, base: string): string[] | undefined {
  const given = def.nlu?.outOfScope;
  if (given === undefined) return undefined;
  if (Array.isArray(given)) return lang === base ? given : undefined;
  return given[lang] ?? (def.translationFallback ? given[base] : undefined);
}

/** What training takes from a definition in one language: the intents with their negatives, the out-of-scope examples. */
function trainingInput(def: AgentDefinition, lang: string): [IntentTrainingData[], IntentTrainingOptions] {
  const base = declaredLanguages(def)[0]!;
  const intents = def.intents.map((i) => {
    const own = lang === base ? i : (i.translations?.[lang] ?? i);
    return {
      name: i.name,
      utterances: own.utterances,
      ...(own.negatives ? { negatives: own.negatives } : {}),
    };
  });
  const outOfScope = outOfScopeIn(def, lang, base);
  // the default language keeps its model's language as before (def.language)
  const language = lang === base ? def.language : lang;
  return [
    intents,
    { language, threshold: resolveNluSettings(def, lang).threshold, ...(outOfScope ? { outOfScope } : {}) },
  ];
}

async function trainAll(def: AgentDefinition): Promise<Map<string, IntentRecognizer>> {
  const recognizers = new Map<string, IntentRecognizer>();
  for (const lang of declaredLanguages(def))
    recognizers.set(lang, await IntentRecognizer.train(...trainingInput(def, lang)));
  return recognizers;
}

/** Validates (throws AgentDefinitionError listing every problem), compiles and trains. */
export async function compileAgent(definition: unknown): Promise<CompiledAgent> {
  const def = parseAgentDefinition(definition);
  return assemble(def, await trainAll(def));
}

/**
 * Trains the intent model of a definition and answers it exported (what `loadCompiledAgent` takes).
 * The slow part of compiling, on its own so that it can run on a worker thread.
 */
export async function trainAgentModel(definition: unknown): Promise<string> {
  const def = parseAgentDefinition(definition);
  return exportModels(declaredLanguages(def), await trainAll(def));
}

/**
 * Compiles with a model exported by `exportModel()` (no training). Throws IntentModelError when the
 * model was trained from other intents or utterances than the definition's.
 */
export function loadCompiledAgent(definition: unknown, modelJson: string): CompiledAgent {
  return loadValidatedAgent(parseAgentDefinition(definition), modelJson);
}

/** The exported model of each language (a plain model is the only language's). */
function modelsByLanguage(languages: readonly string[], modelJson: string): Map<string, string> {
  if (languages.length === 1) return new Map([[languages[0]!, modelJson]]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(modelJson);
  } catch {
    throw new IntentModelError('the intent model is not JSON');
  }
  const models =
    (parsed as { format?: unknown; models?: unknown } | null)?.format === MULTI_FORMAT
      ? (parsed as { models: Record<string, unknown> }).models
      : undefined;
  const out = new Map<string, string>();
  for (const lang of languages) {
    const model = models?.[lang];
    if (typeof model !== 'string')
      throw new IntentModelError(`the intent model has no model for ${lang}: retrain it`);
    out.set(lang, model);
  }
  return out;
}

/**
 * `loadCompiledAgent` for a definition that validation answered (it is not validated again). With
 * `trainedFromIt`, the caller knows the model was trained from this very definition (a training
 * thread was handed its JSON), so the fingerprint check is skipped.
 */
export function loadValidatedAgent(
  def: AgentDefinition,
  modelJson: string,
  opts: { trainedFromIt?: boolean } = {},
): CompiledAgent {
  const languages = declaredLanguages(def);
  const recognizers = new Map<string, IntentRecognizer>();
  for (const [lang, json] of modelsByLanguage(languages, modelJson)) {
    const [intents, options] = trainingInput(def, lang);
    recognizers.set(
      lang,
      IntentRecognizer.load(json, {
        threshold: options.threshold,
        ...(opts.trainedFromIt
          ? {}
          : { expectedFingerprint: intentFingerprint(options.language, intents, options.outOfScope) }),
      }),
    );
  }
  return assemble(def, recognizers);
}
