/**
 * One call in the inspector: its summary, the transcript as bubbles, latency and ASR confidence per
 * turn, and every turn's trace in a panel that opens (with the document). While the call is live,
 * the feed's turns for it bring the timeline up to date without a reload.
 */
import { useEffect, useRef } from 'preact/hooks';
import { getCall, type AppRecord, type CallTimeline } from '../../api/client.js';
import { Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { CallBubbles } from './call-bubbles.js';
import { Outcome, when } from './calls-page.js';
import { TurnChart } from './turn-chart.js';
import { TurnPanel } from './turn-panel.js';
import { feedStateText, useCallFeed } from './use-call-feed.js';
import './calls.css';

/** The call's languages in the order its turns used them ("en-US → es-US" after a switch); empty when no turn says. */
function callLanguages(turns: readonly { lang?: string }[]): string[] {
  const out: string[] = [];
  for (const t of turns) if (t.lang && out[out.length - 1] !== t.lang) out.push(t.lang);
  return out;
}

/** Reloads the timeline when the feed says a turn came (one load at a time; a turn during a load loads again after it). */
function useRefresh(streamId: string, callId: string, set: ((t: CallTimeline) => void) | undefined) {
  const busy = useRef<'idle' | 'loading' | 'again'>('idle');
  const setRef = useRef(set);
  setRef.current = set;
  const refresh = async (): Promise<void> => {
    if (busy.current !== 'idle') {
      busy.current = 'again';
      return;
    }
    busy.current = 'loading';
    try {
      const fresh = await getCall(streamId, callId);
      setRef.current?.(fresh);
    } catch {
      // the next turn tries again; the page keeps what it shows
    } finally {
      const again = (busy.current as string) === 'again';
      busy.current = 'idle';
      if (again) void refresh();
    }
  };
  return refresh;
}

export function CallDetailPage({ app, callId }: { app: AppRecord; callId: string }) {
  const load = useLoad(() => getCall(app.streamId, callId), [app.streamId, callId]);
  const ready = load.state === 'ready' ? load : undefined;
  const live = ready?.data.call.outcome === 'live';
  const refresh = useRefresh(app.streamId, callId, ready?.set);
  const feed = useCallFeed(app.streamId, () => void refresh(), { callId, enabled: live });
  // the feed starts from when it connects: a turn between the load and then is picked up here
  useEffect(() => {
    if (feed === 'live') void refresh();
  }, [feed]);
  const list = `/console/apps/${encodeURIComponent(app.streamId)}/calls`;
  return (
    <section aria-labelledby="call-title">
      <p class="crumbs">
        <a href={list}>Calls</a> <span aria-hidden="true">›</span> this call
      </p>
      <h1 id="call-title">
        Call <code class="call-id">{callId}</code>
      </h1>
      <Loaded load={load} label="Loading the call…">
        {({ call, turns }) => (
          <>
            <dl class="facts call-facts" data-testid="call-summary">
              <dt>From</dt>
              <dd>{call.from ?? <span class="muted">unknown</span>}</dd>
              <dt>To</dt>
              <dd>{call.to ?? <span class="muted">unknown</span>}</dd>
              <dt>Started</dt>
              <dd>{when(call.startedAt)}</dd>
              <dt>Last turn</dt>
              <dd>{when(call.lastTurnAt)}</dd>
              <dt>Turns</dt>
              <dd data-testid="call-turns">{call.turns}</dd>
              <dt>Language</dt>
              <dd data-testid="call-language">
                {callLanguages(turns).join(' → ') || <span class="muted">–</span>}
              </dd>
              <dt>Outcome</dt>
              <dd>
                <Outcome outcome={call.outcome} />
                {call.transferred && call.outcome !== 'transferred' ? ' (transferred at some point)' : ''}
              </dd>
              <dt>At node</dt>
              <dd>{call.node ? <code>{call.node}</code> : <span class="muted">–</span>}</dd>
              <dt>Errors</dt>
              <dd>{call.hasError ? <span class="error-mark">⚠ a turn met an error</span> : 'none'}</dd>
            </dl>
            {live || feed !== 'off' ? (
              <p class={`feed-state ${feed}`} role="status" data-testid="feed-state">
                {feedStateText(feed)}
              </p>
            ) : null}
            {turns.length < call.turns ? (
              <p class="muted small">
                The oldest turns are no longer kept (CALL_TRACE_MAX_TURNS): {turns.length} of {call.turns}{' '}
                shown.
              </p>
            ) : null}
            <div class="call-columns">
              <section aria-labelledby="bubbles-title" class="card">
                <h2 id="bubbles-title">Transcript</h2>
                <CallBubbles turns={turns} />
              </section>
              <section aria-labelledby="chart-title" class="card">
                <h2 id="chart-title">Latency and confidence</h2>
                {turns.length ? (
                  <TurnChart turns={turns} id="turn-chart" />
                ) : (
                  <p class="empty">No turn to chart.</p>
                )}
              </section>
            </div>
            <section aria-labelledby="turns-title">
              <h2 id="turns-title">Turns</h2>
              <p class="help">
                Open a turn for its trace: timing, request, recognition, rules, model calls, table writes and
                the document answered.
              </p>
              <div class="turn-panels" data-testid="turn-panels">
                {turns.map((t, i) => (
                  <TurnPanel key={`${t.turn}-${t.receivedAt}`} t={t} index={i} />
                ))}
              </div>
            </section>
          </>
        )}
      </Loaded>
    </section>
  );
}
