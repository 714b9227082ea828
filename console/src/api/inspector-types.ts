/** Shapes of the call inspector's answers (docs/inspector.md; src/inspector/inspector-schemas.ts). */

export const CALL_OUTCOMES = ['live', 'completed', 'transferred', 'hungup', 'error'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** A call in the app's list of traced calls. */
export interface CallListed {
  callId: string;
  from?: string;
  to?: string;
  /** ms since the epoch */
  startedAt: number;
  lastTurnAt: number;
  turns: number;
  outcome: CallOutcome;
  hasError: boolean;
  transferred: boolean;
  lastEvent: string;
  /** `<dialog>.<node>` the call is at */
  node?: string;
}

export interface CallList {
  calls: CallListed[];
  nextCursor: string | null;
}

/** The list's filters as the API (and the page's URL) take them. */
export interface CallFilters {
  from?: string;
  dateFrom?: string;
  dateTo?: string;
  outcome?: CallOutcome;
  hasError?: 'true' | 'false';
  minTurns?: string;
}

export interface ModelCallTrace {
  connectionId: string;
  step?: string;
  latencyMs: number;
  inputTokens?: number;
  outputTokens?: number;
  outcome: 'ok' | 'error' | 'reused';
  error?: string;
}

export interface TableWriteTrace {
  table: string;
  step?: string;
  latencyMs: number;
  outcome: 'ok' | 'error';
  error?: string;
}

/** What the turn loop recorded of one webhook request. */
export interface TurnTrace {
  callId: string;
  turn: number;
  receivedAt: number;
  durationMs: number;
  timing: { storeMs: number; agentMs: number; modelMs: number; renderMs: number };
  instance: string;
  /** The call's language for the turn's answer (e.g. es-US). */
  lang?: string;
  event: string;
  marks: string[];
  request: Record<string, string | number>;
  asr?: { confidence: string; Inputmode: string; interpretation: string; utterance: string; belowThreshold?: boolean };
  recognition?: { intent: string; score: number; source: string; top: Array<{ intent: string; score: number }>; rejection?: 'out_of_scope' | 'below_threshold' };
  /** What the agent made of the recognition or of the answer to its question; `why` in words. */
  decision?: { outcome: 'accept' | 'confirm' | 'choose' | 'reject'; reason: string; intent?: string; intents?: string[]; why: string };
  nomatch?: { kind: 'noinput' | 'nomatch'; reason: 'below_threshold' | 'no_match' | 'event' };
  entities?: Record<string, unknown>;
  before?: { dialog: string | null; node: string | null };
  dialog?: string | null;
  node?: string | null;
  rules?: Array<{ node: string; rule: number; goto: string }>;
  path?: string[];
  modelCalls?: ModelCallTrace[];
  tableWrites?: TableWriteTrace[];
  transferResult?: string;
  answer?: { action: string; error?: string };
  /** Its XML only when the service keeps documents (CALL_TRACE_DOCUMENTS) and never in the feed. */
  document: { kind: string; xml?: string };
  error?: string;
}

export interface CallTimeline {
  call: CallListed;
  turns: TurnTrace[];
}

/** A turn's summary update as the feed carries it (the store's shape, not the list's). */
export interface FeedSummary {
  callId: string;
  from?: string;
  to?: string;
  startedAt: number;
  lastTurnAt: number;
  turns: number;
  lastEvent: string;
  node?: string;
  ended?: 'completed' | 'hungup' | 'error';
  transferred?: boolean;
  error?: boolean;
}

/** One event of the live feed: a traced turn (without its document's XML). */
export interface FeedTurn {
  callId: string;
  trace: TurnTrace;
  summary: FeedSummary;
}
