/**
 * Conversation history through the public getMessages API: filters (user, session, channel,
 * dates: at most seven days, the API's window), the calls found, and one call's messages as a
 * transcript with the ASR confidence and input mode of each caller turn. Filters and the open call
 * are in the URL.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import {
  CHANNELS,
  getMessages,
  type AppRecord,
  type HistoryFilters,
  type HistoryMessage,
} from '../../api/client.js';
import { Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';
import { Transcript } from './transcript.js';

interface CallSummary {
  sessionId: string;
  user: string;
  first: string;
  count: number;
}

function calls(messages: HistoryMessage[]): CallSummary[] {
  const by = new Map<string, CallSummary>();
  for (const m of messages) {
    const s = by.get(m.sessionId) ?? {
      sessionId: m.sessionId,
      user: m.channels[0]?.channelUId || m.createdBy,
      first: m.createdOn,
      count: 0,
    };
    s.count += 1;
    if (m.createdOn < s.first) s.first = m.createdOn;
    by.set(m.sessionId, s);
  }
  return [...by.values()].sort((a, b) => b.first.localeCompare(a.first));
}

function Filters({ initial, onApply }: { initial: HistoryFilters; onApply: (f: HistoryFilters) => void }) {
  const [f, setF] = useState<HistoryFilters>(initial);
  const field = (key: keyof HistoryFilters, label: string, type = 'text') => (
    <div class="field">
      <label for={`h-${key}`}>{label}</label>
      <input
        id={`h-${key}`}
        type={type}
        value={(f[key] as string | undefined) ?? ''}
        onInput={(e) => setF({ ...f, [key]: e.currentTarget.value })}
      />
    </div>
  );
  return (
    <form
      class="card filters"
      aria-label="History filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(f);
      }}
    >
      <div class="row">
        {field('userId', 'User (caller number or id)')}
        {field('sessionId', 'Session id')}
        <div class="field narrow">
          <label for="h-channel">Channel</label>
          <select
            id="h-channel"
            value={f.channelType ?? 'ivr'}
            onChange={(e) => setF({ ...f, channelType: e.currentTarget.value })}
          >
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        {field('dateFrom', 'From (UTC day)', 'date')}
        {field('dateTo', 'To (UTC day)', 'date')}
        <button type="submit" class="primary">
          Search
        </button>
      </div>
      <p class="help">Without dates the last seven days are searched; a search spans at most seven days.</p>
    </form>
  );
}

export function HistoryPage({ app }: { app: AppRecord }) {
  const { query, path, route } = useLocation();
  const filters: Record<string, string | undefined> & HistoryFilters = {
    userId: query.userId,
    sessionId: query.sessionId,
    channelType: query.channelType ?? 'ivr',
    dateFrom: query.dateFrom,
    dateTo: query.dateTo,
  };
  const open = query.call;
  const load = useLoad(
    () => getMessages(app.streamId, filters),
    [app.streamId, query.userId, query.sessionId, query.channelType, query.dateFrom, query.dateTo],
  );
  const go = (q: Record<string, string | boolean | undefined>) => {
    const clean = Object.fromEntries(
      Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
    );
    route(`${path}?${new URLSearchParams(clean)}`);
  };
  return (
    <section aria-labelledby="history-title">
      <h1 id="history-title">History</h1>
      <Filters initial={filters} onApply={(f) => go({ ...f })} />
      {open ? (
        <Transcript
          app={app}
          sessionId={open}
          channelType={filters.channelType ?? 'ivr'}
          dateFrom={filters.dateFrom}
          dateTo={filters.dateTo}
          onClose={() => go({ ...filters, call: undefined })}
        />
      ) : (
        <Loaded load={load} label="Searching the history…">
          {(data) => {
            const found = calls(data.messages);
            if (!found.length) return <p class="empty">No conversations match these filters.</p>;
            return (
              <table class="list" data-testid="history-calls">
                <caption>
                  {found.length} conversation{found.length === 1 ? '' : 's'}
                  {data.moreAvailable ? ' (more are available: narrow the dates)' : ''}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Started</th>
                    <th scope="col">Caller</th>
                    <th scope="col" class="hide-narrow">
                      Messages
                    </th>
                    <th scope="col">Session</th>
                  </tr>
                </thead>
                <tbody>
                  {found.map((c) => (
                    <tr key={c.sessionId}>
                      <td>{new Date(c.first).toLocaleString()}</td>
                      <td>{c.user}</td>
                      <td class="hide-narrow">{c.count}</td>
                      <td>
                        <a
                          href={`${path}?${new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1]))), call: c.sessionId })}`}
                        >
                          Open transcript <span class="sr-only">of session</span>{' '}
                          <code>{c.sessionId.slice(0, 18)}</code>
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          }}
        </Loaded>
      )}
    </section>
  );
}
