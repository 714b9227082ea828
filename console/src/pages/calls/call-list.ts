/** The list of calls as the live feed changes it: a turn's summary update merged into what the page shows. */
import type { CallFilters, CallListed, FeedSummary } from '../../api/client.js';

/** The feed's summary update as the list's call (the sticky flags kept from what the page had). */
export function listedOf(s: FeedSummary, prev: CallListed | undefined): CallListed {
  const transferred = Boolean(prev?.transferred || s.transferred);
  const hasError = Boolean(prev?.hasError || s.error);
  const endedBefore = prev && prev.outcome !== 'live' ? prev.outcome : undefined;
  const ended = s.ended ?? (endedBefore === 'transferred' ? 'completed' : endedBefore);
  const outcome: CallListed['outcome'] = !ended
    ? 'live'
    : ended === 'error'
      ? 'error'
      : transferred
        ? 'transferred'
        : ended;
  const out: CallListed = {
    callId: s.callId,
    startedAt: s.startedAt,
    lastTurnAt: s.lastTurnAt,
    turns: s.turns,
    outcome,
    hasError,
    transferred,
    lastEvent: s.lastEvent,
  };
  const from = s.from ?? prev?.from;
  const to = s.to ?? prev?.to;
  const node = s.node ?? prev?.node;
  const lang = s.lang ?? prev?.lang;
  if (from) out.from = from;
  if (to) out.to = to;
  if (node) out.node = node;
  if (lang) out.lang = lang;
  return out;
}

/** The API's time bounds of the filters' UTC days (a day's end is its last millisecond). */
export function apiFilters(f: CallFilters): CallFilters {
  const out: CallFilters = { ...f };
  if (f.dateFrom) out.dateFrom = `${f.dateFrom}T00:00:00.000Z`;
  if (f.dateTo) out.dateTo = `${f.dateTo}T23:59:59.999Z`;
  return out;
}

/** Whether a call belongs in the list the filters chose (as the service filters it). */
export function matches(c: CallListed, f: CallFilters): boolean {
  const bounds = apiFilters(f);
  return (
    (!f.from || c.from === f.from) &&
    (!f.outcome || c.outcome === f.outcome) &&
    (!f.hasError || c.hasError === (f.hasError === 'true')) &&
    (!f.minTurns || c.turns >= Number(f.minTurns)) &&
    (!bounds.dateFrom || c.startedAt >= Date.parse(bounds.dateFrom)) &&
    (!bounds.dateTo || c.startedAt <= Date.parse(bounds.dateTo))
  );
}

/** The list with the feed's update applied: the call updated in place, or a new matching call at the top; newest first. */
export function applyFeed(calls: CallListed[], s: FeedSummary, f: CallFilters): CallListed[] {
  const i = calls.findIndex((c) => c.callId === s.callId);
  const next = listedOf(s, i >= 0 ? calls[i] : undefined);
  if (i >= 0) {
    // a call that no longer matches (e.g. it ended while the filter is "live") stays until the next load
    const copy = [...calls];
    copy[i] = next;
    return copy;
  }
  if (!matches(next, f)) return calls;
  return [next, ...calls].sort((a, b) => b.startedAt - a.startedAt);
}
