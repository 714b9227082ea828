/**
 * The contract of a node type: its zod schema, which of its fields are templates (parsed once at
 * compile time), and its handler. Adding a node type = one file under nodes/ + one line in
 * node-registry.ts.
 */
import type { z } from 'zod';
import type { Extraction } from './entity-extractors.js';
import type { EvaluationContext } from './evaluation-context.js';
import type { CompiledExpression } from './expression.js';
import type { NextRule, IvrOverridesInput } from './node-schema-parts.js';
import type { PromptTemplate, TextTemplate } from './prompt-template.js';
import type {
  AgentPorts,
  AgentRuntimeSettings,
  AwaitSpec,
  CallContext,
  DialogState,
  PromptPart,
  TurnInput,
} from './turn-types.js';

/** 'prompt' = SSML allowlist + placeholders; 'text' = placeholders only; 'textMap' = a map of 'text'. */
export type TemplateKind = 'prompt' | 'text' | 'textMap';

/** What every node definition carries, whatever its type. */
export interface NodeDefinitionBase {
  type: string;
  ivr?: IvrOverridesInput;
  next?: NextRule[];
}

export interface CompiledRule {
  readonly goto: string;
  readonly when?: CompiledExpression;
}

export interface CompiledNode<N extends NodeDefinitionBase = NodeDefinitionBase> {
  readonly id: string;
  readonly dialog: string;
  readonly def: N;
  /** Prompt templates by field ("text", "prompt", "ivr.noMatchPrompt"…). */
  readonly prompts: Readonly<Record<string, PromptTemplate>>;
  /** Text templates by field ("prompt", "system", "record.phone"…). */
  readonly texts: Readonly<Record<string, TextTemplate>>;
  readonly next: readonly CompiledRule[];
  /** The prompts and texts in each other language of the agent (the default's are above). */
  readonly localized?: ReadonlyMap<
    string,
    {
      readonly prompts: Readonly<Record<string, PromptTemplate>>;
      readonly texts: Readonly<Record<string, TextTemplate>>;
    }
  >;
}

/** What a handler may use during a turn. `state` is the turn's working copy. */
export interface NodeRuntime {
  readonly call: CallContext;
  readonly settings: AgentRuntimeSettings;
  readonly ports: AgentPorts;
  readonly state: DialogState;
  readonly now: Date;
  readonly timeZone: string;
  /** The evaluation context over the current state (rules and placeholders read it). */
  scope(): EvaluationContext;
  /** A prompt field rendered over the current state; undefined when the node has no such field. */
  prompt(node: CompiledNode, field: string): PromptPart[] | undefined;
  /** A text field filled over the current state ('' when absent). */
  text(node: CompiledNode, field: string): string;
  /** The value of a text field (a lone placeholder keeps its type). */
  value(node: CompiledNode, field: string): unknown;
  /** Node's error prompt (its `errorPrompt`, then `ivr.errorPrompt`), else the app's; undefined if none. */
  errorPrompt(node: CompiledNode): PromptPart[] | undefined;
  /**
   * The node's place in this turn, for the requests that have effects: `<dialog>.<node>`, and
   * `#<n>` from its second run in the turn. The same on every run of the same turn.
   */
  step(node: CompiledNode): string;
}

export type NodeOutcome =
  /** spoken, then the `next` rules run */
  | { kind: 'say'; prompt: PromptPart[] }
  | { kind: 'ask'; prompt: PromptPart[]; await: AwaitSpec }
  | { kind: 'end'; prompt: PromptPart[] }
  | {
      kind: 'transfer';
      prompt: PromptPart[];
      transfer: { destination: string; skillGroupId?: string; skillGroupName?: string };
    }
  | { kind: 'error'; code: string; prompt?: PromptPart[] };

export type UtteranceInput = Extract<TurnInput, { kind: 'utterance' }>;

export interface NodeModule<S extends z.ZodType<NodeDefinitionBase> = z.ZodType<NodeDefinitionBase>> {
  readonly type: string;
  readonly schema: S;
  readonly templates: Readonly<Record<string, TemplateKind>>;
  /**
   * A long-running step (a model call): when messages precede it in the same turn, the turn ends
   * with a say-and-continue document first so the caller hears them while it runs.
   */
  readonly slow?: boolean;
  run(node: CompiledNode<z.output<S>>, rt: NodeRuntime): NodeOutcome | Promise<NodeOutcome>;
  /** For nodes that await input: takes the caller's answer. */
  accept?(node: CompiledNode<z.output<S>>, rt: NodeRuntime, input: UtteranceInput): Extraction;
  /** For nodes that await input: the entity name the answer is stored under. */
  entityName?(node: CompiledNode<z.output<S>>): string;
  /**
   * The names this node sets for later rules and placeholders (`context.<var>`, `entities.<name>`),
   * read from its definition as given, so the agent's names can be checked before it is saved.
   */
  writes?(def: Readonly<Record<string, unknown>>): NodeWrites;
}

export interface NodeWrites {
  vars?: string[];
  entities?: string[];
}

/** Identity helper that keeps the schema's type for the handler's parameters. */
export function defineNode<S extends z.ZodType<NodeDefinitionBase>>(module: NodeModule<S>): NodeModule<S> {
  return module;
}
