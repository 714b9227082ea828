/**
 * The rules between getMessages parameters (after each one's own validation): defaults, the date
 * window and its 7-day rule, msgId against dates, skip/offset. Every problem found is reported at
 * once, each with its path.
 */
import { AppError } from '../platform/index.js';
import type { Order, Window } from './history-repository.js';
import { LIMITS, type ChannelType, type HistoryParams, type HistoryVersion } from './history-schemas.js';

export const DAY_MS = 24 * 3600 * 1000;
export const MAX_SPAN_MS = 7 * DAY_MS;

/** A fully resolved request: what the reader needs, nothing left to default. */
export interface HistoryQuery {
  version: HistoryVersion;
  channel: ChannelType;
  userId?: string;
  callId?: string;
  sessionIds?: string[];
  tags?: Record<string, string>;
  /** Inclusive ms window; open (±Infinity) when reading around a msgId. */
  window: Window;
  /** Order of the answer: asc when forward=true (oldest first), else desc (newest first). */
  order: Order;
  limit: number;
  /** Sessions to skip. */
  skip: number;
  /** Read around a message instead of a date window: direction <0 older, 0 both sides, >0 newer. */
  anchor?: { msgId: string; direction: number };
  includeTraceId: boolean;
  includeAsrMetaData: boolean;
  includeSecureForm: boolean;
  getAgentsInfo: boolean;
}

export function resolveHistoryQuery(
  version: HistoryVersion,
  p: HistoryParams,
  where: 'query' | 'body',
  nowMs: number,
): HistoryQuery {
  const problems: Array<{ msg: string; path: string }> = [];
  const at = (name: string) => `${where}.${name}`;

  if (p.skip !== undefined && p.offset !== undefined && p.skip !== p.offset)
    problems.push({ msg: 'skip and offset are the same parameter; give one', path: at('offset') });
  const skip = p.skip ?? p.offset ?? 0;

  let window: Window = { lo: -Infinity, hi: Infinity };
  if (p.msgId !== undefined) {
    if (p.dateFrom) problems.push({ msg: 'msgId cannot be used with dateFrom', path: at('dateFrom') });
    if (p.dateTo) problems.push({ msg: 'msgId cannot be used with dateTo', path: at('dateTo') });
    if (skip > 0)
      problems.push({
        msg: 'msgId cannot be used with skip/offset',
        path: at(p.skip !== undefined ? 'skip' : 'offset'),
      });
  } else {
    // a date-only dateTo means the whole of that UTC day
    const from = p.dateFrom?.ms;
    const to = p.dateTo ? (p.dateTo.dateOnly ? p.dateTo.ms + DAY_MS - 1 : p.dateTo.ms) : undefined;
    if (from !== undefined && to !== undefined) {
      if (from > to) problems.push({ msg: 'dateFrom must not be after dateTo', path: at('dateFrom') });
      else if (to - from >= MAX_SPAN_MS)
        problems.push({
          msg: 'the span between dateFrom and dateTo must be less than 7 days',
          path: at('dateTo'),
        });
      window = { lo: from, hi: to };
    } else if (from !== undefined) window = { lo: from, hi: from + MAX_SPAN_MS - 1 };
    else if (to !== undefined) window = { lo: to - MAX_SPAN_MS + 1, hi: to };
    else window = { lo: nowMs - MAX_SPAN_MS + 1, hi: nowMs };
  }
  if (problems.length) throw AppError.validation(problems);

  const sessionIds =
    p.sessionId === undefined
      ? undefined
      : [...new Set(Array.isArray(p.sessionId) ? p.sessionId : [p.sessionId])];
  const tags = p.tags && Object.keys(p.tags).length ? p.tags : undefined;
  return {
    version,
    channel: p.channelType ?? 'rtm',
    ...(p.userId ? { userId: p.userId } : {}),
    ...(p.callId ? { callId: p.callId } : {}),
    ...(sessionIds ? { sessionIds } : {}),
    ...(tags ? { tags } : {}),
    window,
    order: p.forward ? 'asc' : 'desc',
    limit: p.limit ?? LIMITS[version].default,
    skip,
    ...(p.msgId !== undefined ? { anchor: { msgId: p.msgId, direction: p.direction ?? 1 } } : {}),
    includeTraceId: p.includeTraceId ?? false,
    includeAsrMetaData: p.includeAsrMetaData ?? false,
    includeSecureForm: p.includeSecureForm ?? false,
    getAgentsInfo: p.getAgentsInfo ?? false,
  };
}
