/**
 * `runCall`: runs one call against a start URL, a root document given as text, or a webhook (acting
 * as the customer's root document), with scripted or live inputs, and returns what was spoken,
 * submitted and how the call ended. Part of the interpreter's core: it runs in Node and in browsers
 * (no Node-only module; I/O through the fetch, InputSource and Transcript ports).
 */
import { AutoCredentials } from './auto-credentials.js';
import type { CallEnd, EventRecord, FetchRecord, SubmitRecord } from './call-outcome.js';
import { customerRootDocument, streamIdOf } from './customer-root.js';
import { ArrayInputSource, type InputSource } from './input-source.js';
import { Transcript } from './transcript.js';
import { VxmlInterpreter, type BrowserGrammars, type InterpreterMode } from './vxml-interpreter.js';

export interface RunCallOptions {
  /** The first document is fetched from here (startMethod, default GET, with startParams). */
  startUrl?: string;
  startMethod?: 'GET' | 'POST';
  startParams?: Record<string, string>;
  /** Or: this document text is the top document (e.g. a customer root); relative URLs resolve against rootUrl. */
  rootDocument?: string;
  rootUrl?: string;
  /** Or: act as the customer's root document and run this webhook URL as a `<subdialog>`. */
  webhookUrl?: string;
  mode?: InterpreterMode;
  /** The builtin grammars of the browser to emulate (a dialect's, as GET /api/admin/ivr/dialects lists them); default by mode. */
  builtins?: BrowserGrammars;
  /** Input tokens (`check my booking`, `#4567`, `!noinput`, `!hangup`), one per waiting field, or a source. */
  inputs: string[] | InputSource;
  fetch?: typeof fetch;
  /** Answered automatically (DTMF) when the top document asks for the PIN / the secret. */
  pin?: string;
  secret?: string;
  /** Voice confidence (default 0.9). */
  confidence?: number;
  /** Default `<transfer>` outcome (default noanswer; an error.* name is thrown as that event). */
  transferOutcome?: string;
  /** For the webhook root: callId (default a random UUID), from (default +15550001111), to (default the streamId). */
  callId?: string;
  from?: string;
  to?: string;
  /** For the webhook root: the call's language (`es-US`), sent as the `language` param; for a dialled number, a start param. */
  language?: string;
  /** With `<subdialog method>` on the generated root. */
  subdialogMethod?: 'get' | 'post';
  /** SAY:/YOU: prefixes instead of emoji. */
  plain?: boolean;
  /** Receives each transcript line as it happens. */
  onLine?: (line: string) => void;
  /** The output port: a transcript of your own (plain and onLine are then ignored). */
  transcript?: Transcript;
  fetchTimeoutMs?: number;
  /** Where the caller's hang-up goes: the running document (default) or only the top-level one, as some browsers do. */
  hangupDelivery?: 'innermost' | 'top';
}

export interface CallResult {
  /** Each prompt as heard, in order. */
  spoken: string[];
  /** Each `<submit>`: target URL (without GET parameters), method and parameters. */
  submits: SubmitRecord[];
  ended: CallEnd;
  /** The agent's `<return>` values (endOfConversation…), or the top document's. */
  result?: Record<string, unknown>;
  /** The printable record of the call. */
  transcript: string[];
  /** The uncaught event that ended the call or the agent (name: message). */
  error?: string;
  /** Why a scripted call failed (expectation, inputs ran out, loop guard). */
  failure?: string;
  events: EventRecord[];
  fetches: FetchRecord[];
}

export const DEFAULT_FROM = '+15550001111';

export async function runCall(options: RunCallOptions): Promise<CallResult> {
  const starts = [options.startUrl, options.rootDocument, options.webhookUrl].filter((s) => s !== undefined);
  if (starts.length !== 1)
    throw new Error('runCall needs exactly one of startUrl, rootDocument or webhookUrl');
  const transcript = options.transcript ?? new Transcript({ plain: options.plain, onLine: options.onLine });
  let input: InputSource = Array.isArray(options.inputs)
    ? new ArrayInputSource(options.inputs)
    : options.inputs;
  if (options.pin !== undefined || options.secret !== undefined)
    input = new AutoCredentials(input, { pin: options.pin, secret: options.secret });
  const from = options.from ?? DEFAULT_FROM;
  const to = options.to ?? (options.webhookUrl ? streamIdOf(options.webhookUrl) : undefined);
  const interpreter = new VxmlInterpreter({
    mode: options.mode,
    ...(options.builtins ? { builtins: options.builtins } : {}),
    input,
    fetch: options.fetch,
    confidence: options.confidence,
    transferOutcome: options.transferOutcome,
    fetchTimeoutMs: options.fetchTimeoutMs,
    transcript,
    session: { from, to },
    ...(options.hangupDelivery ? { hangupDelivery: options.hangupDelivery } : {}),
  });
  let run;
  if (options.startUrl !== undefined) {
    run = await interpreter.runUrl(options.startUrl, options.startMethod ?? 'GET', options.startParams ?? {});
  } else if (options.rootDocument !== undefined) {
    run = await interpreter.runText(options.rootDocument, options.rootUrl ?? '');
  } else {
    const webhookUrl = options.webhookUrl as string;
    const root = customerRootDocument({
      webhookUrl,
      callId: options.callId ?? globalThis.crypto.randomUUID(),
      from,
      to,
      method: options.subdialogMethod,
      ...(options.language ? { language: options.language } : {}),
    });
    run = await interpreter.runText(root, webhookUrl);
  }
  const result = run.result;
  const summary = result
    ? ` · ${Object.entries(result)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ')}`
    : '';
  transcript.note(`call ended: ${run.ended}${summary}${run.error ? ` · ${run.error}` : ''}`);
  if (run.failure) transcript.line(`${options.plain ? 'FAILED:' : '✖'} ${run.failure}`);
  return {
    spoken: transcript.spoken,
    submits: run.submits,
    ended: run.ended,
    result,
    transcript: transcript.lines,
    error: run.error,
    failure: run.failure,
    events: run.events,
    fetches: run.fetches,
  };
}
