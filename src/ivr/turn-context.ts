/** What one webhook request's turn works with (TurnContext) and what it answers (TurnOutcome). */
import type { CompiledAgent } from '../agent/index.js';
import type { AnswerSpec, CallSession } from './call-session.js';
import type { IvrSettings } from '../ivr-settings/index.js';
import type { WebhookRequest } from './webhook-input.js';

/** A rendered document: its kind and its XML. */
export interface RenderedDocument {
  kind: string;
  xml: string;
}

export interface TurnContext {
  streamId: string;
  req: WebhookRequest;
  settings: IvrSettings;
  agent: CompiledAgent;
  lang: string;
  deadlineAt: number;
  /** The trace id of the request's valid W3C traceparent: the caller's history message carries it. */
  traceId?: string;
  /**
   * Renders the document of an outcome. The turn renders its answer before the commit (a trace
   * keeps the document) and any other outcome when it answers, and hands it back as `rendered`.
   * Without it nothing is rendered (nor traced).
   */
  render?: (outcome: TurnOutcome) => RenderedDocument;
}

/**
 * What the request answers: a stored answer to render for `turn`, or a wait for `turn`; `rendered`
 * when the turn rendered it already.
 */
export type TurnOutcome =
  | {
      kind: 'answer';
      answer: AnswerSpec;
      session: CallSession;
      issuedTurn: number;
      rendered?: RenderedDocument;
    }
  | { kind: 'wait'; session: CallSession; turn: number; rendered?: RenderedDocument };
