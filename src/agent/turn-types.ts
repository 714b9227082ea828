/**
 * The agent's turn contract: what the IVR channel hands the agent for one caller turn, and the plain,
 * JSON-serialisable result it gets back. No VXML, HTTP or storage concepts live here.
 */

/** ASR values as a VXML browser reports them (strings as submitted; confidence is a decimal string). */
export interface AsrMeta {
  confidence: string; // e.g. "0.810000"
  Inputmode: string; // "voice" | "dtmf"
  interpretation: string;
  utterance: string;
}

/** What happened on the caller's side since the last turn. */
export type TurnInput =
  /** First request of a call, empty message: welcome. `language`: the call's language when the channel knows it (the number dialled, the customer's root document). */
  | { kind: 'start'; language?: string }
  | {
      kind: 'utterance';
      text: string; // what the caller said or keyed (digits for DTMF)
      inputmode: 'voice' | 'dtmf';
      /** Intent name when a grammar tagged the utterance with one (SRGS semantics), else undefined. */
      grammarIntent?: string;
      asr?: AsrMeta;
      /** true when the IVR applied the confidence threshold and the utterance fell below it. */
      belowThreshold?: boolean;
    }
  | { kind: 'noinput' } // the gateway saw no input (rare: the document handles no-input itself)
  | { kind: 'nomatch' }
  | { kind: 'maxretries' } // the document exhausted its retries
  | { kind: 'continue' } // say-and-continue finished playing
  | { kind: 'transfer'; result: string } // outcome of a transfer (busy, noanswer, error.noresource...)
  | { kind: 'hangup' };

/** A piece of a prompt. Text is plain text (never markup); SSML structure is explicit. */
export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'break'; time?: string; strength?: 'none' | 'x-weak' | 'weak' | 'medium' | 'strong' | 'x-strong' }
  | { type: 'emphasis'; level?: 'strong' | 'moderate' | 'none' | 'reduced'; parts: PromptPart[] }
  | { type: 'say-as'; interpretAs: string; format?: string; text: string }
  | { type: 'prosody'; rate?: string; pitch?: string; volume?: string; parts: PromptPart[] }
  | { type: 'audio'; src: string; parts: PromptPart[] };

/** A grammar the node asks the browser to use. */
export interface GrammarSpec {
  mode: 'voice' | 'dtmf';
  /** builtin:… or a URL */
  src?: string;
  /** inline SRGS XML supplied by the operator (validated elsewhere) */
  inline?: string;
}

/** Per-node IVR overrides; undefined members fall back to the app's IVR settings. */
export interface IvrOverrides {
  noInputPrompt?: PromptPart[];
  noMatchPrompt?: PromptPart[];
  errorPrompt?: PromptPart[];
  grammar?: GrammarSpec[];
  timeout?: string; // "4s" / "4000ms"
  retries?: number; // 1..10
  bargein?: boolean;
  recording?: 'start' | 'stop';
  locale?: string;
  properties?: Record<string, string>;
}

/** What kind of input the next document awaits. */
export type AwaitSpec =
  /** free utterance, recognised as an intent; `languageKeys`: the keys that choose a language (DTMF) */
  | { kind: 'intent'; languageKeys?: string[] }
  | {
      kind: 'entity';
      entityType: 'string' | 'number' | 'digits' | 'date' | 'yesno' | 'list';
      minLength?: number;
      maxLength?: number;
      values?: string[]; // list of values (synonyms flattened)
    };

export interface RecognitionResult {
  intent: string; // 'None' when nothing reached the threshold
  /** The best intent's confidence: absolute (0..1), comparable across agents and utterances. */
  score: number;
  /** Every intent's absolute confidence, best first (they need not sum to 1). */
  scores: Array<{ intent: string; score: number }>;
  source: 'grammar' | 'nlu';
  /**
   * Why the recognizer answered None: the utterance is nearest to the agent's out-of-scope examples
   * or shares nothing with its intents ('out_of_scope'), or its best confidence is under the
   * threshold ('below_threshold'). Absent when an intent was recognised.
   */
  rejection?: 'out_of_scope' | 'below_threshold';
}

/**
 * What the agent made of a recognition, and why: accept the intent (`confident`; `grammar` when the
 * browser's grammar named it; `confirmed` / `chosen` when the caller answered a question), ask
 * (`confirm` one intent: its confidence is under confirmAbove, `unsure`, or the intent always asks;
 * `choose` between two whose confidences are within the margin, `ambiguous`), or reject it
 * (`out_of_scope`, `below_threshold`; `denied` when the caller said no to the question).
 */
export type IntentDecision =
  | { outcome: 'accept'; intent: string; reason: 'confident' | 'grammar' | 'confirmed' | 'chosen' }
  | { outcome: 'confirm'; intent: string; reason: 'unsure' | 'always' }
  | { outcome: 'choose'; intents: [string, string]; reason: 'ambiguous' }
  /** `intents`: for `denied`, the intents the caller said no to. */
  | { outcome: 'reject'; reason: 'out_of_scope' | 'below_threshold' | 'denied'; intents?: string[] };

/** Why a turn went to the agent's fallback dialog (see TurnResult.fallback). */
export type FallbackReason = 'out_of_scope' | 'below_threshold' | 'no_dialog';

/** The dialog position and memory that must survive to the next turn. Small: it is stored per call. */
export interface DialogState {
  dialog: string | null; // null = between dialogs (awaiting an intent)
  node: string | null; // the node that asked, when awaiting input
  entities: Record<string, unknown>;
  vars: Record<string, unknown>; // llm answers (saveAs), table results…
  retries: number; // failed attempts on the current asking node
  turns: number; // agent turns so far
  ended: boolean;
  lastMessage?: { text: string; asrMetaData?: AsrMeta & { data: { text: AsrMeta } } };
  /**
   * Set when the agent awaits an event rather than caller input: 'continue' = `node` is the next node
   * to run once the say-and-continue document has played; 'transfer' = `node` is the transfer node
   * whose `next` rules run when the transfer outcome arrives. Absent = `node` (if any) asked.
   */
  pending?: 'continue' | 'transfer';
  /**
   * A question about the caller's intent awaits its answer: `confirm` (yes or no about
   * `intents[0]`) or `choose` (which of `intents[0]` and `intents[1]`). Absent otherwise.
   */
  question?: { ask: 'confirm' | 'choose'; intents: string[] };
  /** The call's language (one of the agent's languages); absent = the agent's default language. */
  language?: string;
}

export interface TurnResult {
  /** Merged prompts of this turn, in order (several messages in a row become one). */
  prompt: PromptPart[];
  /** Same prompt as plain text (for history and logs). */
  promptText: string;
  /** "Prompt: True": the agent awaits caller input. */
  awaitInput: boolean;
  action: 'ask' | 'continue' | 'end' | 'transfer';
  await?: AwaitSpec;
  /** Overrides of the node that asks (or transfers), merged over the app's settings by the channel. */
  overrides?: IvrOverrides;
  transfer?: { destination: string; skillGroupId?: string; skillGroupName?: string };
  endOfConversation: boolean;
  /** Set when the agent could not proceed (e.g. model failure without an error prompt). */
  error?: { code: string };
  recognition?: RecognitionResult;
  /** What the agent made of the recognition (or of the answer to its question), with the reason. */
  decision?: IntentDecision;
  /** The `next` rules that chose a following node this turn (node as `<dialog>.<node>`, rule index), in order. */
  rules?: Array<{ node: string; rule: number; goto: string }>;
  /**
   * A failed attempt this turn and why: the utterance fell below the confidence threshold, the
   * asking node could not take it (`no_match`), or the browser reported the event.
   */
  failed?: { kind: 'noinput' | 'nomatch'; reason: 'below_threshold' | 'no_match' | 'event' };
  /**
   * Set when the turn started the agent's fallback dialog, and why: the recognizer answered None
   * (`out_of_scope`: nearest the out-of-scope examples or nothing in common with the intents;
   * `below_threshold`: its best confidence under the threshold), or the intent it accepted has no
   * dialog of its own (`no_dialog`).
   */
  fallback?: { reason: FallbackReason };
  /** The language this turn's prompt is in (the call's language; it stays until the caller changes it). */
  language: string;
  /** Set on the turn where the call's language changed (by the channel at the start, or the caller's choice). */
  languageChanged?: { from: string; to: string; by: 'channel' | 'dtmf' | 'voice' };
  /** Node ids visited this turn, for logs and metrics. */
  trace: string[];
  state: DialogState;
}

/** Settings the channel passes down: the app's IVR defaults the agent must apply. */
export interface AgentRuntimeSettings {
  retries: number; // 1..10
  onExceedingRetries: ExceedBehaviour;
  callTerminationHandler?: string; // dialog name
  noMatchPrompt?: string;
  errorPrompt?: string;
  /** Played (before the node's prompt) when the gateway reports a `noinput` event. */
  noInputPrompt?: string;
  /**
   * The same prompts in the agent's other languages, by language tag. A language without its own
   * text uses the agent's built-in default for that language, never the app's text in another language.
   */
  byLanguage?: Record<string, { noMatchPrompt?: string; errorPrompt?: string; noInputPrompt?: string }>;
}

export type ExceedBehaviour =
  | { action: 'terminationHandler' }
  | { action: 'startDialog'; dialog: string }
  | { action: 'jumpToNode'; node: string };

/** Context the channel supplies (identity of the caller); read by placeholders and rules. */
export interface CallContext {
  /** The app's id (`st-<uuid>`). */
  streamId: string;
  callId: string;
  userId: string;
  from?: string;
  to?: string;
  sessionId: string;
}

/**
 * Ports through which the agent reaches the outside; main.ts wires them. A request that has an
 * effect carries `step`, the calling node's place in the turn (`<dialog>.<node>`, with `#<n>` from
 * its second run in the same turn): with the call and the turn, the channel makes the effect once
 * per turn however often the turn runs.
 */
export interface LlmPort {
  complete(req: {
    streamId: string;
    connectionId: string;
    prompt: string;
    system?: string;
    timeoutMs: number;
    signal?: AbortSignal;
    step?: string;
  }): Promise<{ text: string; inputTokens?: number; outputTokens?: number }>;
}

export interface TablePort {
  insert(req: {
    streamId: string;
    table: string;
    record: Record<string, unknown>;
    step?: string;
    /** Set by the channel: an insert already made with this key answers its row, writing nothing. */
    idempotencyKey?: string;
  }): Promise<Record<string, unknown>>;
}

export interface SkillGroupPort {
  find(req: { streamId: string; skillGroupId: string }): Promise<{ id: string; name: string } | null>;
}

export interface AgentPorts {
  llm?: LlmPort;
  tables?: TablePort;
  skillGroups?: SkillGroupPort;
  now?: () => Date;
}
