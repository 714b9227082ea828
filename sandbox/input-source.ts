/**
 * Where the caller's side of the call comes from: for each field the interpreter asks the source for
 * one input: speech (typed text), DTMF (`#123`), no input (`!noinput`) or a hang-up (`!hangup`).
 */
import type { CallEnd } from './call-outcome.js';
import type { GrammarSummary } from './grammar-matcher.js';

export type CallerInput =
  /** confidence: the ASR confidence of this utterance (default: the call's configured one). */
  (
    | { kind: 'speech'; text: string; confidence?: number }
    | { kind: 'dtmf'; digits: string }
    | { kind: 'noinput' }
    | { kind: 'hangup' }
  ) & {
    /** Shown beside the input in the transcript (e.g. "auto PIN"). */
    note?: string;
  };

export interface InputRequest {
  fieldName: string;
  /** Everything spoken since the caller's last input. */
  prompt: string;
  /** Which input modes the field's grammars accept. */
  modes: Array<'voice' | 'dtmf'>;
  /** Subdialog depth: 0 is the top document (the root, or the sandbox entry). */
  depth: number;
  /** Names of the events raised so far. */
  events: string[];
  /** The field's active grammars, described for a person (what can be said or keyed). */
  grammars?: GrammarSummary[];
  /** Whether the caller may interrupt the prompts (the bargein property; default true). */
  bargein?: boolean;
}

export interface TransferRequest {
  dest: string;
  aai?: string;
  type: string;
  prompt: string;
  events: string[];
}

export interface CallSummary {
  ended: CallEnd;
  result?: Record<string, unknown>;
  /** Everything spoken since the caller's last input. */
  prompt: string;
  events: string[];
}

export interface InputSource {
  /** The next input for a waiting field; undefined when the source has nothing more to give. */
  next(request: InputRequest): Promise<CallerInput | undefined>;
  /** The outcome of a `<transfer>` (busy, noanswer, error.noresource…); undefined = the configured default. */
  transferOutcome?(request: TransferRequest): Promise<string | undefined>;
  /** Called once when the call is over; may throw a ScriptFailure (a failed final expectation). */
  finish?(summary: CallSummary): Promise<void> | void;
  close?(): void;
  /** True when a person types the inputs live (the transcript then does not echo them on screen). */
  readonly interactive?: boolean;
}

/** Parses one input token: `#4567` (DTMF), `!noinput`, `!hangup`, anything else is speech. */
export function parseCallerInput(token: string): CallerInput {
  const t = token.trim();
  if (t === '' || t.toLowerCase() === '!noinput') return { kind: 'noinput' };
  if (t.toLowerCase() === '!hangup') return { kind: 'hangup' };
  if (t.startsWith('#')) {
    const digits = t.slice(1).replace(/\s+/g, '');
    if (!/^[0-9*#A-Da-d]*$/.test(digits))
      throw new Error(`"${t}" is not a DTMF input (#, then keys 0-9 * # A-D)`);
    return { kind: 'dtmf', digits: digits.toUpperCase() };
  }
  return { kind: 'speech', text: t };
}

/** A fixed list of input tokens, used one per waiting field. */
export class ArrayInputSource implements InputSource {
  private index = 0;
  private readonly inputs: CallerInput[];

  constructor(tokens: string[]) {
    this.inputs = tokens.map(parseCallerInput);
  }

  async next(): Promise<CallerInput | undefined> {
    return this.inputs[this.index++];
  }
}
