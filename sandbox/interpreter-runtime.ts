/**
 * What the form interpreter and the executable content need from the running interpreter (the
 * session): evaluation, fetching, input, the transcript and the session's state.
 */
import type { LoadedDocument } from './control-signal.js';
import type { FetchRequest } from './document-fetcher.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import type { GrammarMatcher, InterpreterMode } from './grammar-matcher.js';
import type { InputSource } from './input-source.js';
import type { ScopeChain } from './scope-chain.js';
import type { Transcript } from './transcript.js';
import type { VxmlEvent } from './vxml-event.js';
import { childElements, type XmlElement } from './xml-tree.js';
import { valueText } from './value-text.js';

/** One loaded document while it runs inside one execution context (top level or a subdialog). */
export interface DocumentContext {
  doc: LoadedDocument;
  /** The document scope (its parent is the context's application scope). */
  scope: ScopeChain;
  /** Subdialog depth: 0 = the top document. */
  depth: number;
}

export type ContextOutcome =
  | { kind: 'return'; values: Record<string, unknown>; event?: { name: string; message: string } }
  | { kind: 'exit'; values: Record<string, unknown> }
  | { kind: 'event'; event: VxmlEvent };

export interface SessionState {
  /** The line is down: prompts are not heard and no input can be collected. */
  disconnected: boolean;
  callerHungUp: boolean;
}

export interface InterpreterRuntime {
  readonly mode: InterpreterMode;
  readonly evaluator: ExpressionEvaluator;
  readonly matcher: GrammarMatcher;
  readonly transcript: Transcript;
  readonly input: InputSource;
  readonly session: SessionState;
  /** The outcome a `<transfer>` gets when the input source has none (default noanswer). */
  readonly transferOutcome: string;
  readonly defaultFetchTimeoutMs: number;
  /** Fetches a document (printing and timing it); raises error.badfetch. */
  fetchDocument(request: FetchRequest): Promise<LoadedDocument>;
  /** Fetches any XML document for `<data>` (printing and timing it); raises error.badfetch. */
  fetchData(request: FetchRequest): Promise<XmlElement>;
  /** Records a `<submit>` (the API's submits list). */
  recordSubmit(url: string, method: 'GET' | 'POST', params: Record<string, string>): void;
  /** Fetches a subdialog's document and runs it in a new execution context; params are the `<param>` values. */
  runSubdialog(
    request: FetchRequest,
    dialogId: string | undefined,
    depth: number,
    params: Record<string, unknown>,
  ): Promise<ContextOutcome>;
  /** Records an event and how it was handled. */
  recordEvent(event: VxmlEvent, depth: number, caught: boolean, handling: string): void;
  /** Names of the events raised so far. */
  eventNames(): string[];
  /** `<disconnect/>` or the caller hanging up: marks the line down and raises connection.disconnect.hangup. */
  disconnect(by: 'document' | 'caller', depth: number): never;
  /** Counts one dialog step; aborts a call that loops forever. */
  tick(): void;
}

/** Mutable flags of one run of executable content. */
export interface ExecState {
  reprompt: boolean;
}

/** Form-level operations executable content may need (`<clear>`, `<submit>` without namelist). */
export interface FormHooks {
  inputItemNames(): string[];
  clear(names: string[] | undefined): void;
}

/** The effective value of a `<property>`: the innermost of the given elements (field, form, vxml) that sets it. */
export function propertyValue(name: string, path: XmlElement[]): string | undefined {
  for (const el of path) {
    const found = childElements(el, 'property').find((p) => p.attrs.name === name);
    if (found?.attrs.value !== undefined) return found.attrs.value;
  }
  return undefined;
}

/** ECMAScript value → a submitted parameter (undefined/null as empty, objects as JSON). */
export const toParam = valueText;
