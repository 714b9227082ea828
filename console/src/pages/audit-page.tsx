/**
 * Audit: every change made through the operator API, newest first, with its author, the item and
 * its diff (secrets show as [redacted]); filters for author, app and item kept in the URL; older
 * pages on demand; the retention, which owners change.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { auditSettings, listAudit, setAuditSettings, type AuditEntry } from '../api/client.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { useCan } from '../ui/roles.js';

const authorText = (a: AuditEntry['author']): string =>
  a.kind === 'admin-token'
    ? 'admin token'
    : a.kind === 'token'
      ? `${a.email ?? ''} (token “${a.tokenName ?? ''}”)`
      : a.kind === 'account'
        ? (a.email ?? '')
        : 'anonymous';

const valueText = (v: unknown): string => (v === undefined ? '—' : JSON.stringify(v));

function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <span class="muted">no change</span>;
  return (
    <details>
      <summary>
        {entry.changes.length}
        {entry.truncated ? '+' : ''} change{entry.changes.length === 1 ? '' : 's'}
      </summary>
      <ul class="plain diff">
        {entry.changes.map((c) => (
          <li key={c.path}>
            <code>{c.path}</code>: <del>{valueText(c.before)}</del> → <ins>{valueText(c.after)}</ins>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Retention() {
  const owner = useCan('owner');
  const load = useLoad(() => auditSettings(), []);
  const [days, setDays] = useState('');
  const [error, setError] = useState<unknown>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await setAuditSettings(Number(days));
      setDays('');
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Loaded load={load} label="Loading the retention…">
      {(s) => (
        <form class="card row" onSubmit={(e) => void save(e)} aria-label="Retention">
          <p>Entries are kept {s.retentionDays} days.</p>
          {owner ? (
            <>
              <div class="field narrow">
                <label for="retention-days">Keep for (days)</label>
                <input
                  id="retention-days"
                  type="number"
                  min={1}
                  max={3650}
                  required
                  value={days}
                  onInput={(e) => setDays(e.currentTarget.value)}
                />
              </div>
              <button type="submit">Set the retention</button>
            </>
          ) : null}
          {error ? <ErrorBox error={error} title="The retention was not set" /> : null}
        </form>
      )}
    </Loaded>
  );
}

export function AuditPage() {
  const { query, path, route } = useLocation();
  const filters = { author: query.author ?? '', app: query.app ?? '', item: query.item ?? '' };
  const [form, setForm] = useState(filters);
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const load = useLoad(async () => {
    const page = await listAudit(filters);
    setOlder([]);
    setNext(page.nextBefore);
    return page.entries;
  }, [filters.author, filters.app, filters.item]);
  const apply = (e: Event) => {
    e.preventDefault();
    const q = new URLSearchParams(Object.entries(form).filter(([, v]) => v.trim() !== ''));
    route(q.toString() ? `${path}?${q.toString()}` : path);
  };
  const more = async () => {
    try {
      const page = await listAudit({ ...filters, ...(next ? { before: next } : {}) });
      setOlder((o) => [...o, ...page.entries]);
      setNext(page.nextBefore);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <p class="muted">Every change made through the operator API, by whom, and what it changed.</p>
      <form class="card row wrap" onSubmit={apply} aria-label="Filters">
        <div class="field">
          <label for="audit-author">Author (email, account id or admin-token)</label>
          <input
            id="audit-author"
            value={form.author}
            onInput={(e) => setForm({ ...form, author: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="audit-app">App (streamId)</label>
          <input
            id="audit-app"
            value={form.app}
            onInput={(e) => setForm({ ...form, app: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="audit-item">Item path contains</label>
          <input
            id="audit-item"
            value={form.item}
            onInput={(e) => setForm({ ...form, item: e.currentTarget.value })}
          />
        </div>
        <button type="submit" class="primary">
          Filter
        </button>
      </form>
      <Retention />
      <Loaded load={load} label="Loading the audit trail…">
        {(entries) => {
          const all = [...entries, ...older];
          return all.length === 0 ? (
            <p>No changes match.</p>
          ) : (
            <>
              <div class="table-scroll">
                <table class="list">
                  <caption class="sr-only">Changes, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Author</th>
                      <th scope="col">Change</th>
                      <th scope="col">Diff</th>
                    </tr>
                  </thead>
                  <tbody>
                    {all.map((e) => (
                      <tr key={e.id}>
                        <td>{new Date(e.at).toLocaleString()}</td>
                        <td>{authorText(e.author)}</td>
                        <td>
                          <code>{e.action}</code>
                          <br />
                          <span class="muted small">{e.item}</span>
                        </td>
                        <td>
                          <Changes entry={e} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {next ? (
                <button type="button" onClick={() => void more()}>
                  Older changes
                </button>
              ) : null}
            </>
          );
        }}
      </Loaded>
      {error ? <ErrorBox error={error} title="Older changes did not load" /> : null}
    </section>
  );
}
