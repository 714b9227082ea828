/**
 * Runs dialog nodes within one turn and builds the turn's result.
 *
 * Turn shape: messages in a row are merged into the next asking / ending / transferring document
 * (one prompt, parts in order, a 300ms break between messages). The only split is before a slow
 * node (llm): when messages precede it, the turn answers 'continue' with those messages and the
 * slow node runs on the `continue` turn, so the caller hears "let me check" first.
 */
import type { CompiledAgent } from './compile-agent.js';
import type { CompiledNode, NodeRuntime } from './define-node.js';
import { buildEvaluationContext, type EvaluationContext } from './evaluation-context.js';
import { languageChoiceEnabled, languageKeys } from './language-choice.js';
import { primary } from './languages.js';
import type { NluSettings } from './nlu-settings.js';
import { nodeRegistry } from './node-registry.js';
import { nodeOverrides } from './node-overrides.js';
import {
  parsePromptTemplate,
  promptToText,
  renderPrompt,
  renderText,
  renderValue,
  type PromptTemplate,
} from './prompt-template.js';
import type {
  AgentPorts,
  AgentRuntimeSettings,
  AwaitSpec,
  CallContext,
  DialogState,
  IntentDecision,
  IvrOverrides,
  PromptPart,
  RecognitionResult,
  TurnResult,
} from './turn-types.js';

/** Said before re-asking when the app gives no no-match prompt. */
export const DEFAULT_NO_MATCH_PROMPT = "Sorry, I didn't get that.";
/** The same in other languages (by primary subtag). */
const DEFAULT_NO_MATCH_PROMPTS: Readonly<Record<string, string>> = {
  en: DEFAULT_NO_MATCH_PROMPT,
  es: 'Perdone, no le he entendido.',
};
/** Allowed retries when neither the node nor the app says (the platform's default). */
export const DEFAULT_RETRIES = 3;
/** Nodes one turn may visit before it is cut off as a loop (goto cycles without input). */
export const MAX_NODES_PER_TURN = 50;
export const MESSAGE_BREAK: PromptPart = { type: 'break', time: '300ms' };

/** An app-level prompt (from the IVR settings, with every turn) as a template. */
export function settingsPrompt(text: string | undefined): PromptTemplate | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return parsePromptTemplate(text);
}

interface ResultShape {
  action: TurnResult['action'];
  awaitInput: boolean;
  endOfConversation: boolean;
  await?: AwaitSpec;
  overrides?: IvrOverrides;
  transfer?: TurnResult['transfer'];
  error?: { code: string };
}

export class DialogRunner implements NodeRuntime {
  readonly trace: string[] = [];
  readonly now: Date;
  readonly timeZone: string;
  recognition: RecognitionResult | undefined;
  /** What was made of the recognition or of the answer to a question (see TurnResult.decision). */
  decision: IntentDecision | undefined;
  /** The rules that chose a next node this turn (see TurnResult.rules). */
  readonly rules: NonNullable<TurnResult['rules']> = [];
  failed: TurnResult['failed'];
  /** Set when the turn started the fallback dialog (see TurnResult.fallback). */
  fallback: TurnResult['fallback'];
  languageChanged: TurnResult['languageChanged'];
  /** Said when the turn ends awaiting an intent: the offer of the other languages (the welcome turn only). */
  languageOffer: PromptPart[] | undefined;
  private readonly spoken: PromptPart[][] = [];
  private visits = 0;
  /** How many times each node ran in this turn (by `<dialog>.<node>`). */
  private readonly runs = new Map<string, number>();

  constructor(
    readonly agent: CompiledAgent,
    readonly state: DialogState,
    readonly call: CallContext,
    readonly settings: AgentRuntimeSettings,
    readonly ports: AgentPorts,
  ) {
    this.now = ports.now?.() ?? new Date();
    this.timeZone = agent.definition.timeZone ?? 'UTC';
  }

  // ---- NodeRuntime -------------------------------------------------------------------------

  scope(): EvaluationContext {
    return buildEvaluationContext(this.state, this.call);
  }

  /** The call's language (state.language, else the agent's default). */
  get language(): string {
    const lang = this.state.language;
    return lang !== undefined && this.agent.languages.includes(lang) ? lang : this.agent.languages[0]!;
  }

  /** The recognition settings (labels, question prompts) in the call's language. */
  get nlu(): NluSettings {
    return this.agent.nluByLanguage.get(this.language) ?? this.agent.nlu;
  }

  /** The node's templates in the call's language. */
  private templates(node: CompiledNode): Pick<CompiledNode, 'prompts' | 'texts'> {
    return (
      (this.language !== this.agent.languages[0] ? node.localized?.get(this.language) : undefined) ?? node
    );
  }

  prompt(node: CompiledNode, field: string): PromptPart[] | undefined {
    const t = this.templates(node).prompts[field];
    return t ? renderPrompt(t, this.scope()) : undefined;
  }

  text(node: CompiledNode, field: string): string {
    const t = this.templates(node).texts[field];
    return t ? renderText(t, this.scope()) : '';
  }

  value(node: CompiledNode, field: string): unknown {
    const t = this.templates(node).texts[field];
    return t ? renderValue(t, this.scope()) : undefined;
  }

  errorPrompt(node: CompiledNode): PromptPart[] | undefined {
    return (
      this.prompt(node, 'errorPrompt') ??
      this.prompt(node, 'ivr.errorPrompt') ??
      this.renderSettings(this.setting('errorPrompt'))
    );
  }

  /**
   * An app-level prompt in the call's language: the app's text in the default language, the
   * language's own text (`settings.byLanguage`) in another; the no-match prompt falls back to the
   * language's built-in one.
   */
  setting(name: 'noMatchPrompt' | 'errorPrompt' | 'noInputPrompt'): string | undefined {
    const lang = this.language;
    const own = lang === this.agent.languages[0] ? this.settings : this.settings.byLanguage?.[lang];
    if (name === 'noInputPrompt')
      return own?.noInputPrompt ?? own?.noMatchPrompt ?? this.setting('noMatchPrompt');
    if (name === 'noMatchPrompt')
      return own?.noMatchPrompt ?? DEFAULT_NO_MATCH_PROMPTS[primary(lang)] ?? DEFAULT_NO_MATCH_PROMPT;
    return own?.errorPrompt;
  }

  step(node: CompiledNode): string {
    const place = `${node.dialog}.${node.id}`;
    const n = this.runs.get(place) ?? 1;
    return n > 1 ? `${place}#${n}` : place;
  }

  /** Counts a run of the node in this turn (what `step` tells apart). */
  private ran(node: CompiledNode): void {
    const place = `${node.dialog}.${node.id}`;
    this.runs.set(place, (this.runs.get(place) ?? 0) + 1);
  }

  // ---- helpers -----------------------------------------------------------------------------

  renderSettings(text: string | undefined): PromptPart[] | undefined {
    const t = settingsPrompt(text);
    return t ? renderPrompt(t, this.scope()) : undefined;
  }

  say(prompt: PromptPart[] | undefined): void {
    if (prompt && prompt.length > 0) this.spoken.push(prompt);
  }

  node(dialog: string | null, id: string | null): CompiledNode | undefined {
    if (dialog === null || id === null) return undefined;
    return this.agent.dialogs.get(dialog)?.nodes.get(id);
  }

  /** The first rule whose `when` is absent or true; a rule that throws counts as false (traced). */
  nextTarget(node: CompiledNode): string | undefined {
    for (const [i, rule] of node.next.entries()) {
      try {
        if (!rule.when || rule.when.evaluate(this.scope())) {
          this.rules.push({ node: `${node.dialog}.${node.id}`, rule: i, goto: rule.goto });
          return rule.goto;
        }
      } catch (err) {
        this.trace.push(
          `!${node.dialog}.${node.id}.next[${i}]: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    return undefined;
  }

  /** Runs nodes from `id` until one asks, ends, transfers, fails or the dialog finishes. */
  async runFrom(dialog: string, id: string): Promise<TurnResult> {
    let current = id;
    for (;;) {
      const node = this.node(dialog, current);
      if (!node) return this.errorResult('missing_node');
      this.visits += 1;
      if (this.visits > MAX_NODES_PER_TURN) return this.errorResult('loop_limit');
      const module = nodeRegistry.get(node.def.type);
      if (!module) return this.errorResult('unknown_node_type');
      if (module.slow && this.spoken.length > 0) return this.continueResult(node);
      this.trace.push(`${dialog}.${current}`);
      this.state.dialog = dialog;
      this.state.node = null;
      delete this.state.pending;
      this.ran(node);
      const outcome = await module.run(node, this);
      switch (outcome.kind) {
        case 'say': {
          this.say(outcome.prompt);
          const target = this.nextTarget(node);
          if (target === undefined) return this.finishDialog();
          current = target;
          break;
        }
        case 'ask':
          this.state.retries = 0;
          return this.askResult(node, outcome.prompt, outcome.await);
        case 'end':
          this.say(outcome.prompt);
          return this.endResult();
        case 'transfer':
          this.say(outcome.prompt);
          this.state.node = node.id;
          this.state.pending = 'transfer';
          return this.result({
            action: 'transfer',
            awaitInput: false,
            endOfConversation: false,
            transfer: outcome.transfer,
            ...this.withOverrides(node),
          });
        case 'error':
          this.say(outcome.prompt);
          return this.errorResult(outcome.code);
      }
    }
  }

  async startDialog(name: string): Promise<TurnResult> {
    const dialog = this.agent.dialogs.get(name);
    if (!dialog) return this.errorResult('unknown_dialog');
    this.state.retries = 0;
    return this.runFrom(name, dialog.start);
  }

  /** Follows the node's rules after it completed; no rule → the dialog is finished. */
  async continueAfter(node: CompiledNode): Promise<TurnResult> {
    const target = this.nextTarget(node);
    return target === undefined ? this.finishDialog() : this.runFrom(node.dialog, target);
  }

  /** Retries exhausted: the node's behaviour, else the app's. */
  async exceedRetries(node: CompiledNode | undefined): Promise<TurnResult> {
    const behaviour = node?.def.ivr?.onExceedingRetries ??
      this.settings.onExceedingRetries ?? { action: 'terminationHandler' };
    this.state.retries = 0;
    this.trace.push(`!maxretries${node ? ` ${node.dialog}.${node.id}` : ''} → ${behaviour.action}`);
    if (behaviour.action === 'startDialog') return this.startDialog(behaviour.dialog);
    if (behaviour.action === 'jumpToNode' && node) {
      return this.node(node.dialog, behaviour.node)
        ? this.runFrom(node.dialog, behaviour.node)
        : this.errorResult('missing_node');
    }
    const handler = this.settings.callTerminationHandler;
    if (handler && this.agent.dialogs.has(handler)) return this.startDialog(handler);
    return this.endResult();
  }

  /** Asks the same node again after a failed attempt (the reason prompt first). */
  async reask(node: CompiledNode, reason: PromptPart[] | undefined): Promise<TurnResult> {
    const module = nodeRegistry.get(node.def.type);
    const outcome = module ? await module.run(node, this) : undefined;
    if (outcome?.kind !== 'ask') return this.errorResult('not_asking');
    this.say(reason);
    this.trace.push(`${node.dialog}.${node.id}`);
    return this.askResult(node, outcome.prompt, outcome.await);
  }

  // ---- results -----------------------------------------------------------------------------

  private withOverrides(node: CompiledNode): { overrides?: IvrOverrides } {
    return nodeOverrides(node, (field) => this.prompt(node, field));
  }

  askResult(node: CompiledNode, prompt: PromptPart[], awaitSpec: AwaitSpec): TurnResult {
    this.say(prompt);
    this.state.dialog = node.dialog;
    this.state.node = node.id;
    delete this.state.pending;
    return this.result({
      action: 'ask',
      awaitInput: true,
      endOfConversation: false,
      await: awaitSpec,
      ...this.withOverrides(node),
    });
  }

  /** The dialog reached a node without `next`: await the caller's next utterance (an intent). */
  finishDialog(): TurnResult {
    this.state.dialog = null;
    this.state.node = null;
    this.state.retries = 0;
    delete this.state.pending;
    return this.awaitIntentResult();
  }

  awaitIntentResult(): TurnResult {
    this.say(this.languageOffer);
    const keys = languageChoiceEnabled(this.agent) ? [...languageKeys(this.agent).values()] : [];
    return this.result({
      action: 'ask',
      awaitInput: true,
      endOfConversation: false,
      await: keys.length > 0 ? { kind: 'intent', languageKeys: keys } : { kind: 'intent' },
    });
  }

  /** Between dialogs, awaits the answer to a question about the intent (state.question says which). */
  awaitAnswerResult(awaitSpec: AwaitSpec): TurnResult {
    this.state.dialog = null;
    this.state.node = null;
    delete this.state.pending;
    return this.result({ action: 'ask', awaitInput: true, endOfConversation: false, await: awaitSpec });
  }

  continueResult(node: CompiledNode): TurnResult {
    this.state.dialog = node.dialog;
    this.state.node = node.id;
    this.state.pending = 'continue';
    return this.result({ action: 'continue', awaitInput: false, endOfConversation: false });
  }

  endResult(): TurnResult {
    this.state.ended = true;
    this.state.dialog = null;
    this.state.node = null;
    delete this.state.pending;
    return this.result({ action: 'end', awaitInput: false, endOfConversation: true });
  }

  errorResult(code: string): TurnResult {
    this.trace.push(`!error ${code}`);
    this.state.ended = true;
    this.state.dialog = null;
    this.state.node = null;
    delete this.state.pending;
    return this.result({ action: 'end', awaitInput: false, endOfConversation: true, error: { code } });
  }

  private result(shape: ResultShape): TurnResult {
    const prompt: PromptPart[] = [];
    for (const part of this.spoken) {
      if (prompt.length > 0) prompt.push({ ...MESSAGE_BREAK });
      prompt.push(...part);
    }
    const result: TurnResult = {
      prompt,
      promptText: promptToText(prompt),
      awaitInput: shape.awaitInput,
      action: shape.action,
      endOfConversation: shape.endOfConversation,
      language: this.language,
      trace: this.trace,
      state: this.state,
    };
    if (this.languageChanged) result.languageChanged = this.languageChanged;
    if (shape.await) result.await = shape.await;
    if (shape.overrides) result.overrides = shape.overrides;
    if (shape.transfer) result.transfer = shape.transfer;
    if (shape.error) result.error = shape.error;
    if (this.recognition) result.recognition = this.recognition;
    if (this.decision) result.decision = this.decision;
    if (this.rules.length) result.rules = this.rules;
    if (this.failed) result.failed = this.failed;
    if (this.fallback) result.fallback = this.fallback;
    return result;
  }
}
