/**
 * Versions: the saved versions of the app's agent and of its IVR settings, newest first, with who
 * saved each and which is published (calls use it) or the draft (the sandbox may use it); the
 * differences between any two; and publishing one (an earlier one is the rollback) after a
 * confirmation. Operators without the editor role see the list and the differences, and why they
 * cannot publish.
 */
import { useState } from 'preact/hooks';
import {
  diffVersions,
  listVersions,
  publishVersion,
  type AgentStatus,
  type AppRecord,
  type VersionDiff,
  type VersionedKind,
  type VersionList,
  type VersionListed,
} from '../../api/client.js';
import { useConfirm } from '../../ui/confirm-dialog.js';
import { needsRole, useCan } from '../../ui/roles.js';
import { ErrorBox, Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';

const TITLES: Record<VersionedKind, { title: string; what: string }> = {
  agent: { title: 'Agent versions', what: 'agent' },
  'ivr-settings': { title: 'IVR settings versions', what: 'IVR settings' },
};

const short = (version: string): string => version.slice(0, 8);
const valueText = (v: unknown): string => (v === undefined ? '—' : JSON.stringify(v));

function stateOf(v: VersionListed): string {
  if (v.published && v.draft) return 'Published, draft';
  if (v.published) return 'Published';
  if (v.draft) return 'Draft';
  return '';
}

function Differences({ streamId, kind, list }: { streamId: string; kind: VersionedKind; list: VersionList }) {
  const ids = list.versions.map((v) => v.version);
  // by default the draft (else the newest) against the published one (else the one before)
  const newest = list.draft ?? ids[0] ?? '';
  const [from, setFrom] = useState(
    list.published && list.published !== newest ? list.published : (ids.find((v) => v !== newest) ?? ''),
  );
  const [to, setTo] = useState(newest);
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (ids.length < 2) return null;
  const compare = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setDiff(await diffVersions(streamId, kind, from, to));
    } catch (err) {
      setError(err);
    }
  };
  const option = (v: VersionListed) => (
    <option key={v.version} value={v.version}>
      {short(v.version)} · {new Date(v.savedAt).toLocaleString()}
      {stateOf(v) ? ` · ${stateOf(v)}` : ''}
    </option>
  );
  return (
    <div class="card">
      <form
        class="row wrap"
        onSubmit={(e) => void compare(e)}
        aria-label={`Compare two ${TITLES[kind].what} versions`}
      >
        <div class="field">
          <label for={`${kind}-from`}>From</label>
          <select id={`${kind}-from`} value={from} onChange={(e) => setFrom(e.currentTarget.value)}>
            {list.versions.map(option)}
          </select>
        </div>
        <div class="field">
          <label for={`${kind}-to`}>To</label>
          <select id={`${kind}-to`} value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {list.versions.map(option)}
          </select>
        </div>
        <button type="submit">Show the differences</button>
      </form>
      {error ? <ErrorBox error={error} title="The differences did not load" /> : null}
      {diff ? (
        diff.changes.length === 0 ? (
          <p role="status">The two versions are the same.</p>
        ) : (
          <ul class="plain diff" aria-label={`Differences from ${short(diff.from)} to ${short(diff.to)}`}>
            {diff.changes.map((c) => (
              <li key={c.path}>
                <code>{c.path}</code>: <del>{valueText(c.before)}</del> → <ins>{valueText(c.after)}</ins>
              </li>
            ))}
            {diff.truncated ? <li class="muted">…and more (the first 200 are shown)</li> : null}
          </ul>
        )
      ) : null}
    </div>
  );
}

function History({ app, kind }: { app: AppRecord; kind: VersionedKind }) {
  const load = useLoad(() => listVersions(app.streamId, kind), [app.streamId, kind]);
  const mayPublish = useCan('editor', app.streamId);
  const [dialog, confirm] = useConfirm();
  const [done, setDone] = useState('');
  const [error, setError] = useState<unknown>(null);
  const { title, what } = TITLES[kind];
  const publish = async (v: VersionListed, list: VersionList) => {
    const rollback = !v.draft;
    const ok = await confirm({
      title: rollback
        ? `Roll the ${what} back to ${short(v.version)}?`
        : `Publish the ${what} draft ${short(v.version)}?`,
      body: (
        <p>
          Calls use version {short(v.version)} (saved by {v.savedBy}) from then on
          {list.published ? `, instead of ${short(list.published)}` : ''}.
        </p>
      ),
      confirmLabel: rollback ? 'Roll back' : 'Publish',
      danger: rollback,
    });
    if (!ok) return;
    setError(null);
    setDone('');
    try {
      const answer = await publishVersion(app.streamId, kind, v.version);
      const training = kind === 'agent' && (answer as AgentStatus).state === 'training';
      setDone(
        training
          ? `Version ${short(v.version)} is training; calls use it when it is trained.`
          : `Version ${short(v.version)} is published: calls use it now.`,
      );
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby={`${kind}-versions-title`}>
      <h2 id={`${kind}-versions-title`}>{title}</h2>
      {mayPublish ? null : (
        <p role="note" id={`${kind}-role-note`}>
          {needsRole('editor')} You can read the versions and compare them; an editor or owner publishes or
          rolls back.
        </p>
      )}
      <p class="muted small" role="status">
        {done}
      </p>
      {error ? <ErrorBox error={error} title="The version was not published" /> : null}
      <Loaded load={load} label={`Loading the ${what} versions…`}>
        {(list) =>
          list.versions.length === 0 ? (
            <p>No {what} version is saved yet.</p>
          ) : (
            <>
              <div class="table-scroll" tabIndex={0} role="group" aria-label={`${title}, scrollable`}>
                <table class="list">
                  <caption class="sr-only">{title}, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Version</th>
                      <th scope="col">Saved</th>
                      <th scope="col">By</th>
                      <th scope="col">Note</th>
                      <th scope="col">State</th>
                      {mayPublish ? <th scope="col">Action</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {list.versions.map((v) => (
                      <tr key={v.version}>
                        <td>
                          <code title={v.version}>{short(v.version)}</code>
                        </td>
                        <td>{new Date(v.savedAt).toLocaleString()}</td>
                        <td>{v.savedBy}</td>
                        <td>{v.note ?? ''}</td>
                        <td>
                          {stateOf(v)}
                          {v.lastPublished ? (
                            <span class="muted small">
                              {stateOf(v) ? <br /> : null}
                              last published {new Date(v.lastPublished.at).toLocaleString()} by{' '}
                              {v.lastPublished.by}
                              {v.lastPublished.note ? `: ${v.lastPublished.note}` : ''}
                            </span>
                          ) : null}
                        </td>
                        {mayPublish ? (
                          <td>
                            {v.published ? null : (
                              <button
                                type="button"
                                class={v.draft ? 'primary' : undefined}
                                onClick={() => void publish(v, list)}
                              >
                                {v.draft ? 'Publish' : 'Roll back to this'}
                                <span class="sr-only"> ({short(v.version)})</span>
                              </button>
                            )}
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Differences streamId={app.streamId} kind={kind} list={list} />
            </>
          )
        }
      </Loaded>
      {dialog}
    </section>
  );
}

export function VersionsPage({ app }: { app: AppRecord }) {
  return (
    <section aria-labelledby="versions-title">
      <h1 id="versions-title">Versions</h1>
      <p class="muted">
        Calls use the published version. A draft is saved without being published: the test sandbox uses it
        (the IVR setting sandboxAnswersFrom says so), and publishing makes it live.
      </p>
      <History app={app} kind="agent" />
      <History app={app} kind="ivr-settings" />
    </section>
  );
}
