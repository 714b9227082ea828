/**
 * What a call keeps between turns: only what the next turn needs. One JSON value per call
 * (`{c:<streamId>:<callId>}` slot) plus a transient lock, so a live call costs well under 2 KB in Redis.
 */
import type { AwaitSpec, DialogState, IvrOverrides, PromptPart, TurnInput } from '../agent/index.js';

/** The stored outcome of a turn; the document is rendered from it on every (re)delivery. */
export interface AnswerSpec {
  action: 'ask' | 'continue' | 'end' | 'transfer' | 'error';
  prompt: PromptPart[];
  await?: AwaitSpec;
  overrides?: IvrOverrides;
  transfer?: { destination: string; skillGroupId?: string; skillGroupName?: string };
  error?: string;
  /** The last node the agent ran for this answer (`<dialog>.<node>`), for the turn's log line. */
  node?: string;
  /** The call's language for this answer (xml:lang, grammars, history); absent = the app's. */
  language?: string;
}

export interface CallSession {
  v: 1;
  streamId: string;
  callId: string;
  userId: string;
  sessionId: string;
  from?: string;
  to?: string;
  createdOn: number;
  /** When the call was last heard from (its latest committed turn), ms since epoch: idle expiry counts from here. */
  activeAt?: number;
  /** Turn number of the latest document issued to the browser. */
  turn: number;
  state: DialogState | null;
  /** The answer to the latest submitted turn (the document that issued `turn`). */
  last?: { turn: number; event: string; answer: AnswerSpec };
  /**
   * A submitted turn being worked on (so another instance can finish it if this one dies), with the
   * effects it made so far (model answers, by the node's step), so that a run of the same turn
   * reuses them instead of making them again (turn-effects.ts).
   */
  pending?: {
    turn: number;
    event: string;
    input: TurnInput;
    startedAt: number;
    effects?: Record<string, unknown>;
  };
  ended?: boolean;
}
