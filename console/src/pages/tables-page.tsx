/**
 * Data tables. The operator API reads and defines one table by name and has no list, so the page
 * opens a table by name (and remembers the names opened in this browser) and defines new ones
 * with a column editor. Encrypted columns are shown as such; rows are not read here. Defining a
 * table that exists replaces its columns, so the page asks first; the form has no access editor,
 * so it sends the table's per-app access rules back (a definition without them has none).
 */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import {
  ApiError,
  defineTable,
  getTable,
  listApps,
  type TableColumn,
  type TableDefinition,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

const KNOWN = 'ivr-console:tables';
const known = (): string[] => JSON.parse(localStorage.getItem(KNOWN) ?? '[]') as string[];
const remember = (name: string) =>
  localStorage.setItem(KNOWN, JSON.stringify([name, ...known().filter((n) => n !== name)].slice(0, 20)));

type Draft = Pick<TableColumn, 'name' | 'type' | 'required' | 'unique' | 'encrypted'>;
type Access = TableDefinition['access'];

/** A column in words: its name, type and rules. */
const columnText = (c: Draft): string =>
  `${c.name} (${[c.type, c.required && 'required', c.unique && 'unique', c.encrypted && 'encrypted'].filter(Boolean).join(', ')})`;

/** What a column has that the form cannot set, in words, or '' when nothing. */
function lost(c: TableColumn): string {
  const what = [
    c.maxLength !== undefined && `at most ${c.maxLength}`,
    c.default !== undefined && `default ${String(c.default)}`,
    c.reference && `reference ${c.reference}`,
  ];
  return what.filter(Boolean).join(', ');
}

/** The definition of the table named so, or null when there is none. */
async function existingTable(name: string): Promise<TableDefinition | null> {
  try {
    return await getTable(name);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** The access rules of a table split into those of apps that exist (named) and those of deleted apps, which the service refuses. */
async function splitAccess(
  access: Access,
): Promise<{ kept: Access; names: Map<string, string>; gone: string[] }> {
  if (!Object.keys(access).length) return { kept: {}, names: new Map(), gone: [] };
  const names = new Map((await listApps()).apps.map((a) => [a.streamId, a.name]));
  const kept: Access = {};
  const gone: string[] = [];
  for (const [id, rule] of Object.entries(access)) {
    if (names.has(id)) kept[id] = rule;
    else gone.push(id);
  }
  return { kept, names, gone };
}

function DefineTable({ onDefined }: { onDefined: (name: string) => void }) {
  const [name, setName] = useState('');
  const [cols, setCols] = useState<Draft[]>([
    { name: '', type: 'string', required: false, unique: false, encrypted: false },
  ]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, ask] = useConfirm();
  const set = (i: number, patch: Partial<Draft>) =>
    setCols(cols.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  /** For a table that exists: the operator's go-ahead and the access rules to send back (null: cancelled). */
  const redefine = async (table: TableDefinition): Promise<Access | null> => {
    const { kept, names, gone } = await splitAccess(table.access);
    const dropped = table.columns.filter((c) => lost(c));
    const ok = await ask({
      title: `Redefine the table “${table.tableName}”?`,
      body: (
        <>
          <p>
            “{table.tableName}” exists: defining it again replaces its columns with the ones in the form. Its
            rows are kept.
          </p>
          <p>
            Its columns now: {table.columns.map(columnText).join('; ')}. After:{' '}
            {cols.map(columnText).join('; ')}.
          </p>
          {dropped.length ? (
            <p>
              Rules the form cannot set are dropped: {dropped.map((c) => `${c.name} (${lost(c)})`).join('; ')}
              .
            </p>
          ) : null}
          {Object.keys(kept).length ? (
            <p>
              Its access rules are kept:{' '}
              {Object.entries(kept)
                .map(
                  ([id, a]) =>
                    `${names.get(id) ?? id} (${[a.read && 'read', a.write && 'write'].filter(Boolean).join(' and ') || 'no access'})`,
                )
                .join('; ')}
              .
            </p>
          ) : (
            <p>It has no per-app access rules.</p>
          )}
          {gone.length ? <p>Access rules of deleted apps are dropped: {gone.join(', ')}.</p> : null}
        </>
      ),
      confirmLabel: 'Redefine the table',
      danger: true,
    });
    return ok ? kept : null;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    const tableName = name.trim();
    try {
      const table = await existingTable(tableName);
      const access = table ? await redefine(table) : {};
      if (access === null) return;
      // a new table is defined as before, without access; a redefined one keeps its rules
      await defineTable(tableName, table ? { columns: cols, access } : { columns: cols });
      onDefined(tableName);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="define-title">
      <h2 id="define-title">Define a table</h2>
      <div class="field">
        <label for="t-name">Table name</label>
        <input
          id="t-name"
          required
          pattern="[A-Za-z][A-Za-z0-9_]{0,63}"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      {cols.map((c, i) => (
        <fieldset class="array-row" key={i}>
          <legend>Column {i + 1}</legend>
          <div class="field">
            <label for={`col-${i}-name`}>Name</label>
            <input
              id={`col-${i}-name`}
              required
              pattern="[A-Za-z][A-Za-z0-9_]{0,63}"
              value={c.name}
              onInput={(e) => set(i, { name: e.currentTarget.value })}
            />
          </div>
          <div class="field narrow">
            <label for={`col-${i}-type`}>Type</label>
            <select
              id={`col-${i}-type`}
              value={c.type}
              onChange={(e) => set(i, { type: e.currentTarget.value as Draft['type'] })}
            >
              <option value="string">string</option>
              <option value="number">number</option>
              <option value="date">date</option>
            </select>
          </div>
          {(['required', 'unique', 'encrypted'] as const).map((flag) => (
            <div class="field check" key={flag}>
              <input
                id={`col-${i}-${flag}`}
                type="checkbox"
                checked={c[flag]}
                onChange={(e) => set(i, { [flag]: e.currentTarget.checked })}
              />
              <label for={`col-${i}-${flag}`}>{flag}</label>
            </div>
          ))}
          <button
            type="button"
            class="subtle"
            disabled={cols.length === 1}
            onClick={() => setCols(cols.filter((_, j) => j !== i))}
            aria-label={`Remove column ${i + 1}`}
          >
            Remove
          </button>
        </fieldset>
      ))}
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            setCols([...cols, { name: '', type: 'string', required: false, unique: false, encrypted: false }])
          }
        >
          Add a column
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Define the table
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The table was not defined" /> : null}
      {confirm}
    </form>
  );
}

function TableView({ name, onSeen }: { name: string; onSeen: () => void }) {
  const load = useLoad(async () => {
    const t = await getTable(name);
    remember(t.tableName);
    onSeen();
    const apps = Object.keys(t.access).length ? (await listApps()).apps : [];
    return { ...t, appNames: new Map(apps.map((a) => [a.streamId, a.name])) };
  }, [name]);
  return (
    <Loaded load={load} label={`Loading table ${name}…`}>
      {(t) => (
        <section class="card" aria-labelledby="table-title">
          <h2 id="table-title">{t.tableName}</h2>
          <p class="muted small">
            Defined {new Date(t.createdOn).toLocaleString()}, changed {new Date(t.updatedOn).toLocaleString()}
            .
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
                  <td>
                    {[
                      c.required && 'required',
                      c.unique && 'unique',
                      c.encrypted && 'encrypted at rest',
                      c.maxLength && `at most ${c.maxLength}`,
                    ]
                      .filter(Boolean)
                      .join(', ') || '-'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Access by app</h3>
          {Object.keys(t.access).length ? (
            <ul>
              {Object.entries(t.access).map(([who, a]) => (
                <li key={who}>
                  {t.appNames.get(who) ?? <em>a deleted app</em>} <code>{who}</code>:{' '}
                  {[a.read && 'read', a.write && 'write'].filter(Boolean).join(' and ') || 'none'}
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
  // counts definitions made here, so the table shown is read again after it is redefined
  const [defined, setDefined] = useState(0);
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
          <input
            id="open-table"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-describedby="open-table-help"
          />
        </div>
        <button type="submit">Open</button>
        <p id="open-table-help" class="help">
          The service lists no tables; tables opened or defined in this browser are remembered below.
        </p>
      </form>
      {names.length ? (
        <nav aria-label="Tables opened in this browser" class="chips">
          {names.map((n) => (
            <a
              key={n}
              href={`/console/tables/${encodeURIComponent(n)}`}
              aria-current={params.tableName === n ? 'page' : undefined}
            >
              {n}
            </a>
          ))}
        </nav>
      ) : null}
      {params.tableName ? (
        <TableView
          key={`${params.tableName} ${defined}`}
          name={params.tableName}
          onSeen={() => setNames(known())}
        />
      ) : null}
      <DefineTable
        onDefined={(n) => {
          remember(n);
          setDefined((d) => d + 1);
          route(`/console/tables/${encodeURIComponent(n)}`);
        }}
      />
    </section>
  );
}
