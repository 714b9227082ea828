/**
 * A list of credentials with a confirmed delete (the app's API apps, the API keys): what each is,
 * never its secret, and a delete whose confirmation says what stops working. The console's own
 * credential ("Operator console") is marked: deleting it is allowed, the console makes a new one.
 */
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { useConfirm } from './confirm-dialog.js';
import { ErrorBox, Loaded } from './status.js';
import type { Load } from './use-load.js';

export const CONSOLE_CREDENTIAL = 'Operator console';

export interface CredentialColumn<T> {
  header: string;
  /** Hidden on a narrow screen. */
  narrow?: boolean;
  cell: (item: T) => ComponentChildren;
}

export interface CredentialListProps<T extends { name: string }> {
  /** data-testid and the id stem of the heading. */
  id: string;
  /** What one is called: "API app", "API key". */
  what: string;
  title: string;
  help: ComponentChildren;
  load: Load<T[]>;
  columns: Array<CredentialColumn<T>>;
  keyOf: (item: T) => string;
  /** How the item is named in the delete button's label and the notice ("Operator console (cs-…)"). */
  label: (item: T) => string;
  /** What stops working when it is deleted (the console's own or another's). */
  loss: (item: T, own: boolean) => ComponentChildren;
  remove: (item: T) => Promise<void>;
}

export function CredentialList<T extends { name: string }>(p: CredentialListProps<T>) {
  const [confirm, ask] = useConfirm();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const remove = async (item: T) => {
    const ok = await ask({
      title: `Delete the ${p.what} “${item.name}”?`,
      body: <p>{p.loss(item, item.name === CONSOLE_CREDENTIAL)}</p>,
      confirmLabel: `Delete ${item.name}`,
      danger: true,
    });
    if (!ok) return;
    setError(null);
    try {
      await p.remove(item);
      setNotice(`Deleted the ${p.what} ${p.label(item)}.`);
      p.load.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section class="card" aria-labelledby={`${p.id}-title`} data-testid={p.id}>
      <h2 id={`${p.id}-title`}>{p.title}</h2>
      <p class="help">{p.help}</p>
      <p role="status" class="notice">
        {notice}
      </p>
      {error ? <ErrorBox error={error} title={`The ${p.what} was not deleted`} /> : null}
      <Loaded load={p.load} label={`Loading the ${p.title}…`}>
        {(items) =>
          items.length === 0 ? (
            <p class="empty">No {p.title} yet.</p>
          ) : (
            <table class="list">
              <caption class="sr-only">{p.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {p.columns.map((c) => (
                    <th key={c.header} scope="col" class={c.narrow ? 'hide-narrow' : undefined}>
                      {c.header}
                    </th>
                  ))}
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={p.keyOf(item)}>
                    <td>
                      {item.name}
                      {item.name === CONSOLE_CREDENTIAL ? (
                        <span class="muted small"> (this console)</span>
                      ) : null}
                    </td>
                    {p.columns.map((c) => (
                      <td key={c.header} class={c.narrow ? 'hide-narrow' : undefined}>
                        {c.cell(item)}
                      </td>
                    ))}
                    <td class="actions-cell">
                      <button
                        type="button"
                        class="danger subtle"
                        onClick={() => void remove(item)}
                        aria-label={`Delete the ${p.what} ${p.label(item)}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      {confirm}
    </section>
  );
}
