/**
 * Plain-data description of every VoiceXML document the gateway answers. The renderer turns one of
 * these into a VoiceXML 2.1 string; nothing else builds VXML. Prompts are structured (PromptPart),
 * never markup, so caller and model text cannot change a document's structure.
 */
import type { PromptPart, GrammarSpec } from '../agent/turn-types.js';

export type { PromptPart, GrammarSpec };

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
  turn: string; // emitted as an ECMAScript string literal
}

export interface SrgsItem {
  phrase: string; // already normalised (lower case, no punctuation)
  tag: string; // semantic value, e.g. intent name
}

export type FieldGrammar =
  | { kind: 'builtin'; mode: 'voice' | 'dtmf'; src: string } // builtin:dtmf/digits?minlength=4
  | { kind: 'uri'; mode: 'voice' | 'dtmf'; src: string }
  | { kind: 'srgs'; mode: 'voice' | 'dtmf'; root: string; items: SrgsItem[]; lang?: string }
  | { kind: 'transcription'; src: string }; // e.g. builtin:speech/transcribe

export interface AskDocument {
  kind: 'ask';
  lang?: string; // xml:lang, default en-US
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  /** Field name: the data extraction key with spaces removed (e.g. "userinput"). */
  fieldName: string;
  grammars: FieldGrammar[];
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
}

export interface SayDocument {
  kind: 'say';
  lang?: string;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
}

export interface EndDocument {
  kind: 'end';
  lang?: string;
  callId: string;
  prompt: PromptPart[];
  behaviour: 'return' | 'disconnect';
  /** Extra variables returned beside endOfConversation (name → string value). */
  returnVars?: Record<string, string>;
}

export interface TransferDocument {
  kind: 'transfer';
  lang?: string;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
  destination: string;
  aai?: string;
  connecttimeout?: string;
}

export interface WaitDocument {
  kind: 'wait';
  lang?: string;
  vars: CallVars;
  submit: SubmitTarget;
  prompt: PromptPart[];
}

export interface ErrorDocument {
  kind: 'error';
  lang?: string;
  prompt: PromptPart[];
  error: string; // error name returned to the caller's root, e.g. "store_unavailable"
}

export interface BootstrapDocument {
  kind: 'bootstrap';
  submit: SubmitTarget;
}

export type VxmlDocument =
  | AskDocument
  | SayDocument
  | EndDocument
  | TransferDocument
  | WaitDocument
  | ErrorDocument
  | BootstrapDocument;
