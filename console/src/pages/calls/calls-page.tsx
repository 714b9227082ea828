/**
 * An app's traced calls, newest first: caller, start, language, turns, outcome, the node it is at and whether
 * a turn met an error. Live calls are marked, and the live feed updates the list without a reload.
 * Filters are in the URL; "Load more" follows the API's cursor.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { listCalls, type AppRecord, type CallFilters, type CallListed } from '../../api/client.js';
import { ErrorBox, Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { CallFiltersForm, FILTER_KEYS, filtersOf } from './call-filters.js';
import { apiFilters, applyFeed } from './call-list.js';
import { feedStateText, useCallFeed } from './use-call-feed.js';
import './calls.css';

const OUTCOME_TEXT: Record<CallListed['outcome'], string> = {
  live: 'live',
  completed: 'completed',
  transferred: 'transferred',
  hungup: 'hung up',
  error: 'error',
};

export function Outcome({ outcome }: { outcome: CallListed['outcome'] }) {
  return (
    <span class={`outcome ${outcome}`} data-testid="outcome">
      {outcome === 'live' ? <span class="live-dot" aria-hidden="true" /> : null}
      {OUTCOME_TEXT[outcome]}
    </span>
  );
}

export const when = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

function CallRows({ app, calls }: { app: AppRecord; calls: CallListed[] }) {
  const base = `/console/apps/${encodeURIComponent(app.streamId)}/calls`;
  return (
    <table class="list calls-list" data-testid="calls">
      <caption>
        {calls.length} call{calls.length === 1 ? '' : 's'} shown, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">From</th>
          <th scope="col" class="hide-narrow">
            Language
          </th>
          <th scope="col">Turns</th>
          <th scope="col">Outcome</th>
          <th scope="col" class="hide-narrow">
            Last node
          </th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((c) => (
          <tr key={c.callId} data-call-id={c.callId} class={c.outcome === 'live' ? 'live' : undefined}>
            <td>
              <a href={`${base}/${encodeURIComponent(c.callId)}`}>
                <time dateTime={new Date(c.startedAt).toISOString()}>{when(c.startedAt)}</time>
                <span class="sr-only"> call from {c.from ?? 'an unknown caller'}</span>
              </a>
            </td>
            <td class="from">{c.from ?? <span class="muted">unknown</span>}</td>
            <td class="hide-narrow" data-testid="lang">
              {c.lang ?? <span class="muted">–</span>}
            </td>
            <td data-testid="turns">{c.turns}</td>
            <td>
              <Outcome outcome={c.outcome} />
            </td>
            <td class="hide-narrow">{c.node ? <code>{c.node}</code> : <span class="muted">–</span>}</td>
            <td>
              {c.hasError ? (
                <span class="error-mark">⚠ error</span>
              ) : (
                <span class="muted">
                  –<span class="sr-only">none</span>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CallsPage({ app }: { app: AppRecord }) {
  const { query, path, route } = useLocation();
  const filters = filtersOf(query);
  const key = JSON.stringify(filters);
  const load = useLoad(() => listCalls(app.streamId, apiFilters(filters)), [app.streamId, key]);
  const first = load.state === 'ready' ? load.data : undefined;
  const [calls, setCalls] = useState<CallListed[]>([]);
  const [synced, setSynced] = useState<typeof first>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState<{ state: 'idle' | 'loading' } | { state: 'error'; error: unknown }>({
    state: 'idle',
  });
  useEffect(() => {
    if (!first) return;
    setCalls(first.calls);
    setSynced(first);
    setCursor(first.nextCursor);
    setMore({ state: 'idle' });
  }, [first]);
  const feed = useCallFeed(app.streamId, (e) => setCalls((prev) => applyFeed(prev, e.summary, filters)), {
    enabled: load.state === 'ready',
  });
  const loadMore = async () => {
    if (!cursor) return;
    setMore({ state: 'loading' });
    try {
      const page = await listCalls(app.streamId, apiFilters(filters), cursor);
      setCalls((prev) => [...prev, ...page.calls.filter((c) => !prev.some((p) => p.callId === c.callId))]);
      setCursor(page.nextCursor);
      setMore({ state: 'idle' });
    } catch (error) {
      setMore({ state: 'error', error });
    }
  };
  const apply = (f: CallFilters) => {
    const q = new URLSearchParams();
    for (const k of FILTER_KEYS) if (f[k]) q.set(k, f[k]);
    route(q.size ? `${path}?${q}` : path);
  };
  const filtered = Object.keys(filters).length > 0;
  // until the effect above took the new first page, show that page (no flash of the old list)
  const shown = first && synced !== first ? first.calls : calls;
  return (
    <section aria-labelledby="calls-title">
      <h1 id="calls-title">Calls</h1>
      <CallFiltersForm key={key} initial={filters} onApply={apply} />
      <p class={`feed-state ${feed}`} role="status" data-testid="feed-state">
        {feedStateText(feed)}
      </p>
      <Loaded load={load} label="Loading the calls…">
        {() =>
          shown.length === 0 ? (
            <p class="empty" data-testid="no-calls">
              {filtered
                ? 'No calls match these filters.'
                : 'No traced calls yet. Calls appear here as they come.'}
            </p>
          ) : (
            <>
              <CallRows app={app} calls={shown} />
              {more.state === 'error' ? (
                <ErrorBox
                  error={more.error}
                  title="The next calls could not be loaded"
                  onRetry={() => void loadMore()}
                />
              ) : null}
              {cursor ? (
                <button type="button" onClick={() => void loadMore()} disabled={more.state === 'loading'}>
                  {more.state === 'loading' ? 'Loading…' : 'Load more'}
                </button>
              ) : (
                <p class="muted small">
                  That is every call{filtered ? ' matching these filters' : ''} still kept.
                </p>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}
