/**
 * Shapes of the call inspector's answers (docs/inspector.md): aliases of the types generated from
 * the service's OpenAPI document (openapi.d.ts), where the trace is declared once
 * (src/tracing/turn-trace.ts). Only the list's filters are the console's own.
 */
import type { paths } from './openapi.js';
import type { Answer, Query } from './types.js';

type Item<A> = A extends ReadonlyArray<infer T> ? T : never;

export type CallList = Answer<'/api/admin/apps/{streamId}/calls', 'get'>;

/** A call in the app's list of traced calls. */
export type CallListed = Item<CallList['calls']>;

export type CallOutcome = CallListed['outcome'];

export const CALL_OUTCOMES = [
  'live',
  'completed',
  'transferred',
  'hungup',
  'error',
] as const satisfies readonly CallOutcome[];

type ListQuery = Query<'/api/admin/apps/{streamId}/calls', 'get'>;

/** The list's filters as the page's URL keeps them (strings, as the API's query takes them). */
export interface CallFilters {
  from?: ListQuery['from'];
  dateFrom?: string;
  dateTo?: string;
  outcome?: ListQuery['outcome'];
  hasError?: ListQuery['hasError'];
  minTurns?: string;
}

export type CallTimeline = Answer<'/api/admin/apps/{streamId}/calls/{callId}', 'get'>;

/** What the turn loop recorded of one webhook request. */
export type TurnTrace = Item<CallTimeline['turns']>;

export type ModelCallTrace = Item<NonNullable<TurnTrace['modelCalls']>>;

export type TableWriteTrace = Item<NonNullable<TurnTrace['tableWrites']>>;

/** One event of the live feed: a traced turn (without its document's XML) and the call's summary. */
export type FeedTurn =
  paths['/api/admin/apps/{streamId}/calls/feed']['get']['responses'][200]['content']['text/event-stream'];

/** A turn's summary update as the feed carries it (the store's shape, not the list's). */
export type FeedSummary = FeedTurn['summary'];
