/**
 * A VoiceXML 2.1 interpreter for the subset the IVR gateway emits, driven by text in place of speech
 * and `#digits` in place of DTMF. One instance runs one call (a session): the top document, its
 * dialogs and documents, and subdialogs in nested execution contexts. Events a subdialog does not
 * catch leave it and are thrown again at the caller's `<subdialog>` (so a failed fetch inside the
 * agent reaches the root's `<catch event="error.badfetch">`, as the gateway README observes).
 *
 * Modes: `lenient` (default; like the JVoiceXML build the gateway was tried with: the subdialog's
 * first fetch is a GET with the `<param>`s in the query, and transcription/free text is accepted) and
 * `strict-w3c` (params stay inside VoiceXML and must match the first form's `<var>`s; only the
 * digits/boolean builtins and SRGS grammars recognise). See grammar-matcher.ts for recognition.
 */
import type { CallEnd, CallOutcome, EventRecord, FetchRecord, SubmitRecord } from './call-outcome.js';
import { ScriptFailure, SessionEndSignal, TopLevelHangup, type LoadedDocument } from './control-signal.js';
import { DocumentFetcher, type FetchRequest } from './document-fetcher.js';
import { ExpressionEvaluator } from './expression-evaluator.js';
import { FormInterpreter } from './form-interpreter.js';
import { GrammarMatcher, type BrowserGrammars, type InterpreterMode } from './grammar-matcher.js';
import type { InputSource } from './input-source.js';
import type { ContextOutcome, InterpreterRuntime, SessionState } from './interpreter-runtime.js';
import { ScopeChain } from './scope-chain.js';
import { Transcript } from './transcript.js';
import { badFetch, VxmlEvent } from './vxml-event.js';
import { childElements, parseXmlTree, type XmlElement } from './xml-tree.js';

export type { BrowserGrammars, InterpreterMode };

export interface VxmlInterpreterOptions {
  mode?: InterpreterMode;
  /** The builtin grammars of the browser being emulated (a dialect); default by mode. */
  builtins?: BrowserGrammars;
  input: InputSource;
  fetch?: typeof fetch;
  /** Confidence reported for voice input (default 0.9; DTMF is always 1). */
  confidence?: number;
  /** Outcome of a `<transfer>` the input source does not decide (default noanswer; error.* names are thrown). */
  transferOutcome?: string;
  /** Fetch timeout when no fetchtimeout property or attribute says otherwise (default 30 s). */
  fetchTimeoutMs?: number;
  transcript?: Transcript;
  /** session.connection.remote.uri / local.uri. */
  session?: { from?: string; to?: string };
  /** Aborts a call after this many dialog steps (default 5000) or fetches (default 500). */
  maxSteps?: number;
  maxFetches?: number;
  /**
   * Where the caller's hang-up is delivered: 'innermost' (default: the running document, as VoiceXML
   * says) or 'top' (some browsers: only the top-level document; a subdialog running then is left
   * without its hangup catch running, and the root's catch gets connection.disconnect.hangup).
   */
  hangupDelivery?: 'innermost' | 'top';
}

export interface InterpreterResult extends CallOutcome {
  /** Why a scripted call failed (expectation, inputs ran out, loop guard). */
  failure?: string;
  events: EventRecord[];
  fetches: FetchRecord[];
  submits: SubmitRecord[];
}

function endOf(event: VxmlEvent): CallEnd {
  return event.eventName.startsWith('connection.disconnect') ? 'disconnect' : 'error';
}

export class VxmlInterpreter implements InterpreterRuntime {
  readonly mode: InterpreterMode;
  readonly evaluator = new ExpressionEvaluator();
  readonly matcher: GrammarMatcher;
  readonly transcript: Transcript;
  readonly input: InputSource;
  readonly session: SessionState = { disconnected: false, callerHungUp: false };
  readonly transferOutcome: string;
  readonly defaultFetchTimeoutMs: number;
  readonly events: EventRecord[] = [];
  readonly fetches: FetchRecord[] = [];
  readonly submits: SubmitRecord[] = [];
  private readonly fetcher: DocumentFetcher;
  private readonly sessionScope = new ScopeChain('session');
  private readonly maxSteps: number;
  private readonly maxFetches: number;
  private readonly hangupDelivery: 'innermost' | 'top';
  private steps = 0;
  private agent: { ended: CallEnd; result?: Record<string, unknown>; error?: string } | undefined;

  constructor(options: VxmlInterpreterOptions) {
    this.mode = options.mode ?? 'lenient';
    this.input = options.input;
    this.transcript = options.transcript ?? new Transcript();
    this.transferOutcome = options.transferOutcome ?? 'noanswer';
    this.defaultFetchTimeoutMs = options.fetchTimeoutMs ?? 30_000;
    this.maxSteps = options.maxSteps ?? 5000;
    this.maxFetches = options.maxFetches ?? 500;
    this.hangupDelivery = options.hangupDelivery ?? 'innermost';
    // the default is called as a plain function: a browser's fetch throws "Illegal invocation" when called as a method of another object
    const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.fetcher = new DocumentFetcher(fetchImpl, (record, body) => {
      this.fetches.push(record);
      this.transcript.fetchDone(record, body);
    });
    this.matcher = new GrammarMatcher({
      mode: this.mode,
      ...(options.builtins ? { builtins: options.builtins } : {}),
      confidence: options.confidence ?? 0.9,
      fetchText: async (url) =>
        (
          await this.fetcher.fetchText({
            kind: 'grammar',
            url,
            method: 'GET',
            params: {},
            timeoutMs: this.defaultFetchTimeoutMs,
          })
        ).text,
    });
    this.sessionScope.declare('connection', {
      local: { uri: options.session?.to },
      remote: { uri: options.session?.from },
      protocol: { name: 'sandbox' },
      originator: 'remote',
      aai: undefined,
      redirect: [],
    });
  }

  /** Runs a call whose first document is fetched from a URL. */
  runUrl(
    url: string,
    method: 'GET' | 'POST' = 'GET',
    params: Record<string, string> = {},
  ): Promise<InterpreterResult> {
    let fragment: string | undefined;
    try {
      fragment = new URL(url).hash.slice(1) || undefined;
    } catch {
      fragment = undefined;
    }
    return this.runTop(
      () => this.fetchDocument({ kind: 'start', url, method, params, timeoutMs: this.defaultFetchTimeoutMs }),
      fragment,
    );
  }

  /** Runs a call whose first document is given as text (relative URLs resolve against baseUrl). */
  runText(text: string, baseUrl = ''): Promise<InterpreterResult> {
    return this.runTop(async () => {
      let root: XmlElement;
      try {
        root = parseXmlTree(text);
      } catch (err) {
        throw badFetch(`the root document: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (root.name !== 'vxml') throw badFetch(`the root document is a <${root.name}>, not <vxml>`);
      return { url: baseUrl, root };
    }, undefined);
  }

  private async runTop(
    load: () => Promise<LoadedDocument>,
    fragment: string | undefined,
  ): Promise<InterpreterResult> {
    let sessionEnd: CallEnd = 'exit';
    let topResult: Record<string, unknown> | undefined;
    let error: string | undefined;
    let failure: string | undefined;
    try {
      const doc = await load();
      const outcome = await this.runContext(doc, fragment, 0);
      if (outcome.kind === 'return') {
        sessionEnd = 'return';
        topResult = outcome.values;
      } else if (outcome.kind === 'event') {
        sessionEnd = endOf(outcome.event);
        if (sessionEnd === 'error') error = outcome.event.message;
      }
    } catch (err) {
      if (err instanceof VxmlEvent) {
        this.recordEvent(err, 0, false, 'not caught: it ends the call');
        sessionEnd = endOf(err);
        if (sessionEnd === 'error') error = err.message;
      } else if (err instanceof SessionEndSignal) sessionEnd = 'disconnect';
      else if (err instanceof ScriptFailure) failure = err.message;
      else
        failure = `interpreter failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    }
    let ended: CallEnd;
    if (failure !== undefined || sessionEnd === 'error') ended = 'error';
    else if (this.session.callerHungUp) ended = 'disconnect';
    else ended = this.agent?.ended ?? sessionEnd;
    error ??= this.agent?.error;
    const result = this.agent?.result ?? topResult;
    try {
      if (failure === undefined)
        await this.input.finish?.({
          ended,
          result,
          prompt: this.transcript.spokenSinceInput,
          events: this.eventNames(),
        });
    } catch (err) {
      if (!(err instanceof ScriptFailure)) throw err;
      failure = err.message;
    } finally {
      this.input.close?.();
    }
    return {
      ended,
      result,
      error,
      failure,
      events: this.events,
      fetches: this.fetches,
      submits: this.submits,
    };
  }

  async runSubdialog(
    request: FetchRequest,
    dialogId: string | undefined,
    depth: number,
    params: Record<string, unknown>,
  ): Promise<ContextOutcome> {
    let doc: LoadedDocument;
    try {
      doc = await this.fetchDocument(request);
    } catch (err) {
      if (depth === 1 && err instanceof VxmlEvent) this.agent = { ended: 'error', error: err.message };
      throw err;
    }
    try {
      return await this.runContext(doc, dialogId, depth, params);
    } catch (err) {
      // a hang-up delivered to the top level only: it surfaces at the root's <subdialog>
      if (err instanceof TopLevelHangup && depth === 1) {
        this.agent = { ended: 'disconnect' };
        throw new VxmlEvent(
          'connection.disconnect.hangup',
          'the caller hung up (delivered to the top-level document only)',
        );
      }
      throw err;
    }
  }

  private async runContext(
    doc: LoadedDocument,
    dialogId: string | undefined,
    depth: number,
    params?: Record<string, unknown>,
  ): Promise<ContextOutcome> {
    try {
      const outcome = await this.runDocuments(doc, dialogId, depth, params);
      if (depth === 1) {
        if (outcome.kind === 'return') this.agent = { ended: 'return', result: outcome.values };
        else if (outcome.kind === 'exit') this.agent = { ended: 'exit' };
        else
          this.agent = {
            ended: endOf(outcome.event),
            error: endOf(outcome.event) === 'error' ? outcome.event.message : undefined,
          };
      }
      return outcome;
    } catch (err) {
      if (depth === 1 && err instanceof SessionEndSignal) this.agent = { ended: 'disconnect' };
      throw err;
    }
  }

  private async runDocuments(
    doc: LoadedDocument,
    dialogId: string | undefined,
    depth: number,
    params?: Record<string, unknown>,
  ): Promise<ContextOutcome> {
    const application = new ScopeChain('application', this.sessionScope);
    let current = doc;
    let wanted = dialogId;
    let pendingParams = params;
    let fresh = true;
    let documentScope = new ScopeChain('document', application);
    for (;;) {
      const form = this.findDialog(current.root, wanted);
      if (form instanceof VxmlEvent) {
        this.recordEvent(form, depth, false, 'the dialog cannot start');
        return { kind: 'event', event: form };
      }
      const run = new FormInterpreter(this, { doc: current, scope: documentScope, depth }, form, {
        params: pendingParams,
        initDocument: fresh,
      });
      const outcome = await run.run();
      pendingParams = undefined;
      fresh = false;
      if (outcome.kind === 'transition') {
        if (outcome.document) {
          current = outcome.document;
          documentScope = new ScopeChain('document', application);
          fresh = true;
        }
        wanted = outcome.dialogId;
        continue;
      }
      if (outcome.kind === 'end') return { kind: 'exit', values: {} };
      return outcome;
    }
  }

  private findDialog(root: XmlElement, id: string | undefined): XmlElement | VxmlEvent {
    const dialogs = childElements(root, 'form', 'menu');
    const dialog = id === undefined ? dialogs[0] : dialogs.find((d) => d.attrs.id === id);
    if (!dialog)
      return badFetch(id === undefined ? 'the document has no <form>' : `no dialog with id "${id}"`);
    if (dialog.name === 'menu')
      return new VxmlEvent('error.unsupported.menu', '<menu> is not supported by this interpreter');
    return dialog;
  }

  async fetchDocument(request: FetchRequest): Promise<LoadedDocument> {
    this.fetchStarted(request);
    return this.fetcher.fetchDocument(request);
  }

  async fetchData(request: FetchRequest): Promise<XmlElement> {
    this.fetchStarted(request);
    return this.fetcher.fetchXml(request);
  }

  private fetchStarted(request: FetchRequest): void {
    if (this.fetches.length >= this.maxFetches)
      throw new ScriptFailure(`loop guard: more than ${this.maxFetches} fetches in one call`);
    this.transcript.fetchStarted(request.kind, request.method, request.url, request.params);
  }

  recordSubmit(url: string, method: 'GET' | 'POST', params: Record<string, string>): void {
    this.submits.push({ url, method, params });
  }

  recordEvent(event: VxmlEvent, depth: number, caught: boolean, handling: string): void {
    const record: EventRecord = { name: event.eventName, message: event.eventMessage, caught, depth };
    this.events.push(record);
    this.transcript.event(record, handling);
  }

  eventNames(): string[] {
    return this.events.map((e) => e.name);
  }

  disconnect(by: 'document' | 'caller', depth: number): never {
    if (this.session.disconnected) throw new SessionEndSignal('disconnect');
    this.session.disconnected = true;
    if (by === 'caller') this.session.callerHungUp = true;
    this.transcript.note(
      by === 'caller' ? 'the caller hangs up' : `<disconnect/> at depth ${depth}: the line is down`,
    );
    if (by === 'caller' && depth > 0 && this.hangupDelivery === 'top') {
      this.transcript.note(
        'this browser delivers the hang-up to the top-level document only: the subdialog ends without its catch',
      );
      throw new TopLevelHangup();
    }
    throw new VxmlEvent(
      'connection.disconnect.hangup',
      by === 'caller' ? 'the caller hung up' : '<disconnect/>',
    );
  }

  tick(): void {
    if (++this.steps > this.maxSteps)
      throw new ScriptFailure(`loop guard: more than ${this.maxSteps} dialog steps in one call`);
  }
}
