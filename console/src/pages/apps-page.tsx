/** Apps: the list, a form to create one, and deletion after a confirmation that names the app. */
import { useState } from 'preact/hooks';
import { can, useCan, useHolder } from '../ui/roles.js';
import { ApiError, createApp, deleteApp, listApps, type AppRecord } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

function CreateApp({ onCreated }: { onCreated: (app: AppRecord) => void }) {
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('en');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await createApp({ name: name.trim(), language }));
      setName('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="create-app-title">
      <h2 id="create-app-title">Create an app</h2>
      <div class="row">
        <div class="field">
          <label for="app-name">Name</label>
          <input
            id="app-name"
            required
            maxLength={120}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field narrow">
          <label for="app-language">Language</label>
          <input
            id="app-language"
            required
            pattern="[a-z]{2}(-[A-Z]{2})?"
            title="a language code like en or en-US"
            value={language}
            onInput={(e) => setLanguage(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create app'}
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The app was not created" /> : null}
    </form>
  );
}

export function AppsPage() {
  const load = useLoad(() => listApps(), []);
  const [confirm, ask] = useConfirm();
  const [problem, setProblem] = useState<{ name: string; error: unknown } | null>(null);
  const [notice, setNotice] = useState('');

  const remove = async (app: AppRecord) => {
    const ok = await ask({
      title: `Delete “${app.name}”?`,
      body: (
        <p>
          This removes the app <strong>{app.name}</strong> ({app.streamId}) with its agent, IVR channel and
          settings, sandbox, test suites and runs, and its conversation history. It cannot be undone.
        </p>
      ),
      confirmLabel: `Delete ${app.name}`,
      danger: true,
    });
    if (!ok) return;
    setProblem(null);
    try {
      await deleteApp(app.streamId);
      setNotice(`Deleted ${app.name}.`);
      load.reload();
    } catch (error) {
      setProblem({ name: app.name, error });
    }
  };

  const mayCreate = useCan('editor');
  const holder = useHolder();
  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">Apps</h1>
      {mayCreate ? (
        <CreateApp
          onCreated={(app) => {
            setNotice(`Created ${app.name}.`);
            load.reload();
          }}
        />
      ) : null}
      <p role="status" class="notice">
        {notice}
      </p>
      {problem ? (
        <ErrorBox
          error={problem.error}
          title={
            problem.error instanceof ApiError && problem.error.status === 409
              ? `${problem.name} was not deleted: one of its test runs is in progress. Wait for it to finish, then delete again.`
              : `${problem.name} was not deleted`
          }
        />
      ) : null}
      <Loaded load={load} label="Loading apps…">
        {(data) =>
          data.apps.length === 0 ? (
            <p class="empty">No apps yet. Create the first one above.</p>
          ) : (
            <table class="list">
              <caption class="sr-only">Apps</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Language</th>
                  <th scope="col" class="hide-narrow">
                    Id
                  </th>
                  <th scope="col" class="hide-narrow">
                    Created
                  </th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.apps.map((app) => (
                  <tr key={app.streamId}>
                    <td>
                      <a href={`/console/apps/${app.streamId}`}>{app.name}</a>
                    </td>
                    <td>{app.language}</td>
                    <td class="hide-narrow">
                      <code>{app.streamId}</code>
                    </td>
                    <td class="hide-narrow">{new Date(app.createdOn).toLocaleString()}</td>
                    <td class="actions-cell">
                      {can(holder.grants, 'editor', app.streamId) ? (
                        <button
                          type="button"
                          class="danger subtle"
                          onClick={() => void remove(app)}
                          aria-label={`Delete ${app.name}`}
                        >
                          Delete
                        </button>
                      ) : null}
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
