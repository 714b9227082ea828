/**
 * Compiles a definition once: validates it, parses every prompt template and rule expression,
 * and trains the intent recognizer (or imports an exported model). Turns never parse or train.
 */
import { parseAgentDefinition, type AgentDefinition, type AgentNode } from './agent-definition.js';
import type { CompiledNode, CompiledRule } from './define-node.js';
import { compileExpression } from './expression.js';
import { IntentRecognizer, intentFingerprint, type IntentTrainingData, type IntentTrainingOptions } from './intent-recognizer.js';
import { resolveNluSettings, type NluSettings } from './nlu-settings.js';
import { nodeRegistry } from './node-registry.js';
import { parsePromptTemplate, parseTextTemplate, type PromptTemplate, type TextTemplate } from './prompt-template.js';

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
  /** The trained intent model as JSON, for loadCompiledAgent in another process. */
  exportModel(): string;
}

const IVR_PROMPT_FIELDS = ['noInputPrompt', 'noMatchPrompt', 'errorPrompt'] as const;

function compileNode(dialog: string, id: string, def: AgentNode): CompiledNode {
  const module = nodeRegistry.get(def.type);
  if (!module) throw new Error(`no handler for node type "${def.type}"`);
  const prompts: Record<string, PromptTemplate> = {};
  const texts: Record<string, TextTemplate> = {};
  const fields = def as unknown as Record<string, unknown>;
  for (const [field, kind] of Object.entries(module.templates)) {
    const value = fields[field];
    if (kind === 'textMap' && value !== null && typeof value === 'object') {
      for (const [key, text] of Object.entries(value)) if (typeof text === 'string') texts[`${field}.${key}`] = parseTextTemplate(text);
    } else if (typeof value === 'string') {
      if (kind === 'prompt') prompts[field] = parsePromptTemplate(value);
      else texts[field] = parseTextTemplate(value);
    }
  }
  for (const field of IVR_PROMPT_FIELDS) {
    const value = def.ivr?.[field];
    if (typeof value === 'string') prompts[`ivr.${field}`] = parsePromptTemplate(value);
  }
  const next: CompiledRule[] = ('next' in def ? (def.next ?? []) : []).map((rule) =>
    rule.when !== undefined ? { goto: rule.goto, when: compileExpression(rule.when) } : { goto: rule.goto },
  );
  return { id, dialog, def, prompts, texts, next };
}

function compileDialogs(definition: AgentDefinition): Map<string, CompiledDialog> {
  const dialogs = new Map<string, CompiledDialog>();
  for (const [name, dialog] of Object.entries(definition.dialogs)) {
    const nodes = new Map<string, CompiledNode>();
    for (const [id, def] of Object.entries(dialog.nodes)) nodes.set(id, compileNode(name, id, def));
    dialogs.set(name, { name, start: dialog.start, nodes });
  }
  return dialogs;
}

function assemble(definition: AgentDefinition, recognizer: IntentRecognizer): CompiledAgent {
  return {
    definition,
    recognizer,
    dialogs: compileDialogs(definition),
    intentDialogs: new Map(definition.intents.map((i) => [i.name, i.dialog])),
    nlu: resolveNluSettings(definition),
    exportModel: () => recognizer.export(),
  };
}

/** What training takes from a definition: the intents with their negatives, the out-of-scope examples. */
function trainingInput(def: AgentDefinition): [IntentTrainingData[], IntentTrainingOptions] {
  const intents = def.intents.map((i) => ({ name: i.name, utterances: i.utterances, ...(i.negatives ? { negatives: i.negatives } : {}) }));
  const outOfScope = def.nlu?.outOfScope;
  return [intents, { language: def.language, threshold: resolveNluSettings(def).threshold, ...(outOfScope ? { outOfScope } : {}) }];
}

/** Validates (throws AgentDefinitionError listing every problem), compiles and trains. */
export async function compileAgent(definition: unknown): Promise<CompiledAgent> {
  const def = parseAgentDefinition(definition);
  const recognizer = await IntentRecognizer.train(...trainingInput(def));
  return assemble(def, recognizer);
}

/**
 * Trains the intent model of a definition and answers it exported (what `loadCompiledAgent` takes).
 * The slow part of compiling, on its own so that it can run on a worker thread.
 */
export async function trainAgentModel(definition: unknown): Promise<string> {
  const def = parseAgentDefinition(definition);
  const recognizer = await IntentRecognizer.train(...trainingInput(def));
  return recognizer.export();
}

/**
 * Compiles with a model exported by `exportModel()` (no training). Throws IntentModelError when the
 * model was trained from other intents or utterances than the definition's.
 */
export function loadCompiledAgent(definition: unknown, modelJson: string): CompiledAgent {
  return loadValidatedAgent(parseAgentDefinition(definition), modelJson);
}

/**
 * `loadCompiledAgent` for a definition that validation answered (it is not validated again). With
 * `trainedFromIt`, the caller knows the model was trained from this very definition (a training
 * thread was handed its JSON), so the fingerprint check is skipped.
 */
export function loadValidatedAgent(def: AgentDefinition, modelJson: string, opts: { trainedFromIt?: boolean } = {}): CompiledAgent {
  const recognizer = IntentRecognizer.load(modelJson, {
    threshold: resolveNluSettings(def).threshold,
    ...(opts.trainedFromIt ? {} : { expectedFingerprint: intentFingerprint(def.language, def.intents, def.nlu?.outOfScope) }),
  });
  return assemble(def, recognizer);
}
