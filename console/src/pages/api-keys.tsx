/**
 * The API keys of the model connections API, on the Connections page: name, scopes and when each
 * was made (never the key), and deletion after a confirmation naming what stops working. The
 * console's own ("Operator console") is marked: deleting it is allowed, and the console makes a new
 * one the next time the page calls the connections API.
 */
import { useState } from 'preact/hooks';
import { deleteApiKey, listApiKeys, type ApiKeyListed } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

const CONSOLE_NAME = 'Operator console';

export function ApiKeys() {
  const load = useLoad(() => listApiKeys(), []);
  const [confirm, ask] = useConfirm();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const remove = async (key: ApiKeyListed) => {
    const own = key.name === CONSOLE_NAME;
    const ok = await ask({
      title: `Delete the API key “${key.name}”?`,
      body: (
        <p>
          Requests that send it are refused at once
          {own ? '. This is the console’s own: it makes a new one the next time this page calls the connections API.' : ': whoever uses it loses access to the connections API.'}
        </p>
      ),
      confirmLabel: `Delete ${key.name}`,
      danger: true,
    });
    if (!ok) return;
    setError(null);
    try {
      await deleteApiKey(key.id);
      setNotice(`Deleted the API key ${key.name}.`);
      load.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section class="card" aria-labelledby="api-keys-title" data-testid="api-keys">
      <h2 id="api-keys-title">API keys</h2>
      <p class="help">
        Clients of the connections API send an API key (<code>x-api-key</code>); it is shown once, when it is made (<code>POST /api/admin/api-keys</code>).
        Keys made before this list existed are not in it.
      </p>
      <p role="status" class="notice">
        {notice}
      </p>
      {error ? <ErrorBox error={error} title="The API key was not deleted" /> : null}
      <Loaded load={load} label="Loading the API keys…">
        {(data) =>
          data.apiKeys.length === 0 ? (
            <p class="empty">No API keys yet.</p>
          ) : (
            <table class="list">
              <caption class="sr-only">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Scopes</th>
                  <th scope="col" class="hide-narrow">Created</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.apiKeys.map((k) => (
                  <tr key={k.id}>
                    <td>
                      {k.name}
                      {k.name === CONSOLE_NAME ? <span class="muted small"> (this console)</span> : null}
                    </td>
                    <td>{k.scopes.join(', ')}</td>
                    <td class="hide-narrow">{new Date(k.createdOn).toLocaleString()}</td>
                    <td class="actions-cell">
                      <button type="button" class="danger subtle" onClick={() => void remove(k)} aria-label={`Delete the API key ${k.name}`}>
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
