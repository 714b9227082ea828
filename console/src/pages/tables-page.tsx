/**
 * Data tables. The operator API reads and defines one table by name and has no list, so the page
 * opens a table by name (and remembers the names opened in this browser) and defines new ones
 * with a column editor. Encrypted columns are shown as such; rows are not read here.
 */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { defineTable, getTable, type TableColumn } from '../api/client.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

const KNOWN = 'ivr-console:tables';
const known = (): string[] => JSON.parse(localStorage.getItem(KNOWN) ?? '[]') as string[];
const remember = (name: string) => localStorage.setItem(KNOWN, JSON.stringify([name, ...known().filter((n) => n !== name)].slice(0, 20)));

type Draft = Pick<TableColumn, 'name' | 'type' | 'required' | 'unique' | 'encrypted'>;

function DefineTable({ onDefined }: { onDefined: (name: string) => void }) {
  const [name, setName] = useState('');
  const [cols, setCols] = useState<Draft[]>([{ name: '', type: 'string', required: false, unique: false, encrypted: false }]);
  const [error, setError] = useState<unknown>(null);
  const set = (i: number, patch: Partial<Draft>) => setCols(cols.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await defineTable(name.trim(), { columns: cols });
      onDefined(name.trim());
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="define-title">
      <h2 id="define-title">Define a table</h2>
      <div class="field">
        <label for="t-name">Table name</label>
        <input id="t-name" required pattern="[A-Za-z][A-Za-z0-9_]{0,63}" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      {cols.map((c, i) => (
        <fieldset class="array-row" key={i}>
          <legend>Column {i + 1}</legend>
          <div class="field">
            <label for={`col-${i}-name`}>Name</label>
            <input id={`col-${i}-name`} required pattern="[A-Za-z][A-Za-z0-9_]{0,63}" value={c.name} onInput={(e) => set(i, { name: e.currentTarget.value })} />
          </div>
          <div class="field narrow">
            <label for={`col-${i}-type`}>Type</label>
            <select id={`col-${i}-type`} value={c.type} onChange={(e) => set(i, { type: e.currentTarget.value as Draft['type'] })}>
              <option value="string">string</option>
              <option value="number">number</option>
              <option value="date">date</option>
            </select>
          </div>
          {(['required', 'unique', 'encrypted'] as const).map((flag) => (
            <div class="field check" key={flag}>
              <input id={`col-${i}-${flag}`} type="checkbox" checked={c[flag]} onChange={(e) => set(i, { [flag]: e.currentTarget.checked })} />
              <label for={`col-${i}-${flag}`}>{flag}</label>
            </div>
          ))}
          <button type="button" class="subtle" disabled={cols.length === 1} onClick={() => setCols(cols.filter((_, j) => j !== i))} aria-label={`Remove column ${i + 1}`}>
            Remove
          </button>
        </fieldset>
      ))}
      <div class="actions">
        <button type="button" onClick={() => setCols([...cols, { name: '', type: 'string', required: false, unique: false, encrypted: false }])}>
          Add a column
        </button>
        <button type="submit" class="primary">
          Define the table
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The table was not defined" /> : null}
    </form>
  );
}

function TableView({ name, onSeen }: { name: string; onSeen: () => void }) {
  const load = useLoad(async () => {
    const t = await getTable(name);
    remember(t.tableName);
    onSeen();
    return t;
  }, [name]);
  return (
    <Loaded load={load} label={`Loading table ${name}…`}>
      {(t) => (
        <section class="card" aria-labelledby="table-title">
          <h2 id="table-title">{t.tableName}</h2>
          <p class="muted small">
            Defined {new Date(t.createdOn).toLocaleString()}, changed {new Date(t.updatedOn).toLocaleString()}.
          </p>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Type</th>
                <th scope="col">Rules</th>
              </tr>
            </thead>
            <tbody>
              {t.columns.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  <td>{c.type}</td>
                  <td>{[c.required && 'required', c.unique && 'unique', c.encrypted && 'encrypted at rest', c.maxLength && `at most ${c.maxLength}`].filter(Boolean).join(', ') || '-'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Access by app</h3>
          {Object.keys(t.access).length ? (
            <ul>
              {Object.entries(t.access).map(([who, a]) => (
                <li key={who}>
                  <code>{who}</code>: {a.read ? 'read' : ''} {a.write ? 'write' : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted small">No per-app access rules.</p>
          )}
        </section>
      )}
    </Loaded>
  );
}

export function TablesPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [names, setNames] = useState(known);
  return (
    <section aria-labelledby="tables-title">
      <h1 id="tables-title">Data tables</h1>
      <form
        class="card row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) route(`/console/tables/${encodeURIComponent(name.trim())}`);
        }}
      >
        <div class="field">
          <label for="open-table">Open a table by name</label>
          <input id="open-table" value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="open-table-help" />
        </div>
        <button type="submit">Open</button>
        <p id="open-table-help" class="help">
          The service lists no tables; tables opened or defined in this browser are remembered below.
        </p>
      </form>
      {names.length ? (
        <nav aria-label="Tables opened in this browser" class="chips">
          {names.map((n) => (
            <a key={n} href={`/console/tables/${encodeURIComponent(n)}`} aria-current={params.tableName === n ? 'page' : undefined}>
              {n}
            </a>
          ))}
        </nav>
      ) : null}
      {params.tableName ? <TableView name={params.tableName} onSeen={() => setNames(known())} /> : null}
      <DefineTable
        onDefined={(n) => {
          remember(n);
          route(`/console/tables/${encodeURIComponent(n)}`);
        }}
      />
    </section>
  );
}
