/**
 * Plain-data description of every VoiceXML document the gateway answers. The renderer turns one of
 * these into a VoiceXML 2.1 string; nothing else builds VXML. Prompts are structured (PromptPart),
 * never markup, so caller and model text cannot change a document's structure. These are the
 * renderer's own types: the IVR turn loop maps the agent's turn result to them (document-mapper.ts).
 */
import type { PreparedMarkup } from './builder-core.js';

export type { PromptVoice } from './builder-core.js';
import type { PromptVoice } from './builder-core.js';

/** A piece of a prompt. Text is plain text (never markup); SSML structure is explicit. */
export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'break'; time?: string; strength?: 'none' | 'x-weak' | 'weak' | 'medium' | 'strong' | 'x-strong' }
  | { type: 'emphasis'; level?: 'strong' | 'moderate' | 'none' | 'reduced'; parts: PromptPart[] }
  | { type: 'say-as'; interpretAs: string; format?: string; text: string }
  | { type: 'prosody'; rate?: string; pitch?: string; volume?: string; parts: PromptPart[] }
  | { type: 'audio'; src: string; parts: PromptPart[] };

/** What kind of input a document awaits, as far as choosing its grammars goes (entityGrammars). */
export type AwaitSpec =
  | { kind: 'intent' } // free utterance, recognised as an intent
  | {
      kind: 'entity';
      entityType: 'string' | 'number' | 'digits' | 'date' | 'yesno' | 'list';
      minLength?: number;
      maxLength?: number;
      values?: string[]; // list of values (synonyms flattened)
    };

/** Where and how a document submits back to the webhook. */
export interface SubmitTarget {
  /** Absolute webhook URL including ?token=… (the renderer never edits it). */
  url: string;
  method?: 'get' | 'post'; // default post
  fetchaudio?: string;
  fetchtimeout?: string;
}

/** Document-level variables every gateway document declares. */
export interface CallVars {
  callId: string;
  from?: string;
  /** The callee (the subdialog's `to` param), as the first form's `to` variable; default ''. */
  to?: string;
  turn: string; // emitted as an ECMAScript string literal
}

export interface SrgsItem {
  phrase: string; // already normalised (lower case, no punctuation)
  tag: string; // semantic value, e.g. intent name
}

/**
 * An `srgs` grammar's items written once (prepareSrgsGrammar, e.g. once per agent version): the
 * renderer writes `markup` in place of the items while the grammar's `items` are these very items
 * (the same array), and writes the items one by one otherwise. The document is the same either way.
 */
export interface PreparedSrgsItems {
  readonly items: readonly SrgsItem[];
  readonly markup: PreparedMarkup;
}

/** Entities whose inline SRGS grammar the renderer knows (builtin-grammars.ts / entity-srgs.ts). */
export type InlineEntity = 'number' | 'date' | 'digits' | 'boolean';

/** What buildIntentGrammar left out, by reason (for logs; the renderer ignores it). */
export interface OmittedPhrases {
  ambiguous: number; // claimed by two or more intents
  tooLong: number; // longer than the phrase cap after normalisation
  overCap: number; // beyond the item cap (per-intent fair share)
  empty: number; // nothing left after normalisation
}

/**
 * A field grammar. The renderer serializes it afresh for every document and keeps nothing, so an
 * `srgs` item array can be built once (e.g. buildIntentGrammar per agent version) and shared by every
 * document that uses it. A `builtin` the dialect does not list is rendered as the
 * equivalent `inline-entity` grammar where there is one (number, date, digits, boolean).
 */
export type FieldGrammar =
  | { kind: 'builtin'; mode: 'voice' | 'dtmf'; src: string } // builtin:dtmf/digits?minlength=4
  | { kind: 'uri'; mode: 'voice' | 'dtmf'; src: string }
  | {
      kind: 'srgs';
      mode: 'voice' | 'dtmf';
      root: string;
      items: SrgsItem[];
      lang?: string;
      omitted?: OmittedPhrases;
      prepared?: PreparedSrgsItems;
    }
  | { kind: 'transcription'; src: string } // e.g. builtin:speech/transcribe
  /**
   * An entity grammar written inline as SRGS by the renderer, for browsers without the builtin
   * (see dialects.ts). digits: minLength/maxLength bound the count (default 1..unbounded).
   * Results: number → a number; date → 'yyyymmdd' ('????' for a missing year); digits → the digit
   * string; boolean → true/false (DTMF 1 = yes, 2 = no, as the VoiceXML builtin).
   */
  | {
      kind: 'inline-entity';
      mode: 'voice' | 'dtmf';
      entity: InlineEntity;
      minLength?: number;
      maxLength?: number;
      lang?: string;
    };

/**
 * The field's input. With no grammar the dialect can use (free text without transcription, or only
 * grammars the browser lacks), the document records the caller instead: a `<record>` named like the
 * field whose `<filled>` submits `event=recording` with the recording's duration in ms as
 * `recording` (the audio stays in the browser: the gateway keeps no audio). A grammar-based browser
 * raises error.semantic on a field without a grammar, so no such field is ever written.
 */
export interface AskDocument {
  kind: 'ask';
  lang?: string; // xml:lang, default en-US
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  /** Field name: the data extraction key with spaces removed (e.g. "userinput"). */
  fieldName: string;
  grammars: FieldGrammar[];
  /** Where the gateway serves its entity grammars; without it they are written inline. */
  grammarBase?: string;
  /** Document-level properties (timeout, bargein, confidencelevel, fetchtimeout, call control…). */
  documentProperties: Record<string, string>;
  /** Field-level properties (node overrides). */
  fieldProperties: Record<string, string>;
  noInputPrompt: PromptPart[];
  noMatchPrompt: PromptPart[];
  /** Allowed retries (1..10): failures counted together; after `retries` reprompts → event=maxretries. */
  retries: number;
  /** Adds the document-level hangup catch that submits event=hangup. */
  hangupCatch: boolean;
  /** Played when a submit still fails after its resends (fetch-retry.ts), before the document returns. */
  apology?: PromptPart[];
}

export interface SayDocument {
  kind: 'say';
  lang?: string;
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  apology?: PromptPart[];
}

export interface EndDocument {
  kind: 'end';
  lang?: string;
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  callId: string;
  /** The caller's number and the callee, for the first form's subdialog variables. */
  from?: string;
  to?: string;
  prompt: PromptPart[];
  behaviour: 'return' | 'disconnect';
  /** Extra variables returned beside endOfConversation (name → string value). */
  returnVars?: Record<string, string>;
}

export interface TransferDocument {
  kind: 'transfer';
  lang?: string;
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  destination: string;
  aai?: string;
  connecttimeout?: string;
  apology?: PromptPart[];
}

export interface WaitDocument {
  kind: 'wait';
  lang?: string;
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  /**
   * Resubmit these values instead of `event=poll` (the retry document while the store is down:
   * the same request again, with `retry` counted up).
   */
  resubmit?: Record<string, string>;
  apology?: PromptPart[];
}

export interface ErrorDocument {
  kind: 'error';
  lang?: string;
  /** The voice its prompts are spoken in (SSML `<voice>`); absent: the browser's voice for `lang`. */
  voice?: PromptVoice;
  /** The call, when known, for the first form's subdialog variables. */
  callId?: string;
  from?: string;
  to?: string;
  prompt: PromptPart[];
  error: string; // error name returned to the caller's root, e.g. "store_unavailable"
}

export interface BootstrapDocument {
  kind: 'bootstrap';
  submit: SubmitTarget;
  apology?: PromptPart[];
}

/* ---- Test sandbox documents. They are top-level documents, not subdialogs. ---- */

/** A DTMF length rule: min === max for a fixed length. */
export interface DigitLength {
  min: number;
  max: number;
}

/**
 * Sandbox entry: collects the PIN, then the secret, by DTMF digit grammars, and POSTs `pin`, `secret`
 * and `attempt` to `submit.url`. No-input and no-match count together; past `retries` failures the
 * goodbye prompt plays and the call ends.
 */
export interface SandboxLoginDocument {
  kind: 'sandbox-login';
  lang?: string;
  submit: SubmitTarget;
  /** Opaque id of this login attempt, submitted back as `attempt`. */
  attemptId: string;
  /** Played first, e.g. after a wrong entry ("That PIN or secret did not match."). */
  errorPrompt?: PromptPart[];
  pinPrompt: PromptPart[];
  secretPrompt: PromptPart[];
  pinLength: DigitLength;
  secretLength: DigitLength;
  noInputPrompt?: PromptPart[];
  noMatchPrompt?: PromptPart[];
  /** Allowed failures before hanging up (default 3). */
  retries?: number;
  goodbyePrompt?: PromptPart[];
  /**
   * Played before hanging up when the submit fails (error.badfetch). Not resent: a login attempt is
   * single-use, so a resend would count as a wrong entry.
   */
  apology?: PromptPart[];
  /** Field properties (interdigittimeout, termchar, timeout…). */
  properties?: Record<string, string>;
}

/**
 * Sandbox connection after a good login: runs the app's webhook as a `<subdialog>` (src = webhook URL
 * with a token the service minted) with `<param>`s callId, message (empty), from and to. When the
 * subdialog returns it says goodbye and disconnects; if the webhook cannot be fetched
 * (error.badfetch) it apologises and disconnects; a hang-up that reaches it is reported to the
 * webhook (`<data>` with callId and event=hangup) before it exits.
 */
export interface SandboxConnectDocument {
  kind: 'sandbox-connect';
  lang?: string;
  webhookUrl: string;
  callId: string;
  from?: string;
  to?: string;
  goodbyePrompt: PromptPart[];
  errorPrompt: PromptPart[];
}

/** A prompt, then `<disconnect/>` (e.g. "All lines are busy, please call again later."). */
export interface AnnounceDisconnectDocument {
  kind: 'announce-disconnect';
  lang?: string;
  prompt: PromptPart[];
}

export type VxmlDocument =
  | AskDocument
  | SayDocument
  | EndDocument
  | TransferDocument
  | WaitDocument
  | ErrorDocument
  | BootstrapDocument
  | SandboxLoginDocument
  | SandboxConnectDocument
  | AnnounceDisconnectDocument;

export type VxmlDocumentKind = VxmlDocument['kind'];
