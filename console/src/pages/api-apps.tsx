/**
 * An app's API apps (the JWT clients of its public APIs), on the app's overview: name, client id,
 * scopes and when each was made, and deletion after a confirmation naming what stops working.
 * The console's own ("Operator console") is marked as such: deleting it is allowed, and the
 * console makes a new one the next time a page needs the public APIs.
 */
import { useState } from 'preact/hooks';
import { deleteApiApp, listApiApps, type ApiAppListed, type AppRecord } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

const CONSOLE_NAME = 'Operator console';

export function ApiApps({ app }: { app: AppRecord }) {
  const load = useLoad(() => listApiApps(app.streamId), [app.streamId]);
  const [confirm, ask] = useConfirm();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const remove = async (apiApp: ApiAppListed) => {
    const own = apiApp.name === CONSOLE_NAME;
    const ok = await ask({
      title: `Delete the API app “${apiApp.name}”?`,
      body: (
        <p>
          Tokens signed with the secret of <code>{apiApp.clientId}</code> are refused at once
          {own ? '. This is the console’s own: it makes a new one the next time a page calls the public APIs.' : ': whoever uses it loses access to this app’s public APIs.'}
        </p>
      ),
      confirmLabel: `Delete ${apiApp.name}`,
      danger: true,
    });
    if (!ok) return;
    setError(null);
    try {
      await deleteApiApp(app.streamId, apiApp.clientId);
      setNotice(`Deleted the API app ${apiApp.name} (${apiApp.clientId}).`);
      load.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section class="card" aria-labelledby="api-apps-title" data-testid="api-apps">
      <h2 id="api-apps-title">API apps</h2>
      <p class="help">
        Clients of this app&apos;s public APIs (history, test runs, skill groups, tables) sign their tokens with an API app&apos;s secret. The console
        uses one of its own, named “{CONSOLE_NAME}”.
      </p>
      <p role="status" class="notice">
        {notice}
      </p>
      {error ? <ErrorBox error={error} title="The API app was not deleted" /> : null}
      <Loaded load={load} label="Loading the API apps…">
        {(data) =>
          data.apiApps.length === 0 ? (
            <p class="empty">No API apps yet.</p>
          ) : (
            <table class="list">
              <caption class="sr-only">API apps</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client id</th>
                  <th scope="col" class="hide-narrow">Scopes</th>
                  <th scope="col" class="hide-narrow">Created</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.apiApps.map((a) => (
                  <tr key={a.clientId}>
                    <td>
                      {a.name}
                      {a.name === CONSOLE_NAME ? <span class="muted small"> (this console)</span> : null}
                    </td>
                    <td>
                      <code>{a.clientId}</code>
                    </td>
                    <td class="hide-narrow">{a.scopes.join(', ')}</td>
                    <td class="hide-narrow">{new Date(a.createdOn).toLocaleString()}</td>
                    <td class="actions-cell">
                      <button type="button" class="danger subtle" onClick={() => void remove(a)} aria-label={`Delete the API app ${a.name} (${a.clientId})`}>
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
