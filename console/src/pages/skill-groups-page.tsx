/**
 * Skill groups of an app: read back what the public import stored for an account and organisation,
 * and add a group through that same public import (which adds or replaces groups by id, so the page
 * asks before it replaces one).
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { importSkillGroups, readSkillGroups, type AppRecord } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

function AddGroup({
  app,
  accountId,
  orgId,
  onAdded,
}: {
  app: AppRecord;
  accountId: string;
  orgId: string;
  onAdded: () => void;
}) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, ask] = useConfirm();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const group = {
        _id: id.trim(),
        name: name.trim(),
        status: 'ACTIVE',
        isDefault: false,
        iId: app.streamId,
        createdByAId: 'operator-console',
        skills: [],
      };
      // read again, not from the list shown: another import may have stored the id since
      const old = (await readSkillGroups(app.streamId, accountId, orgId)).skillGroups.find(
        (g) => String(g._id) === group._id,
      );
      if (old) {
        const skills = Array.isArray(old.skills) ? old.skills.length : 0;
        const ok = await ask({
          title: `Replace the skill group “${group._id}”?`,
          body: (
            <p>
              A skill group with this id exists: “{String(old.name)}”, {String(old.status)}, with {skills}{' '}
              skill{skills === 1 ? '' : 's'}. Adding replaces it with “{group.name}”, with no skills. To keep
              it, cancel and give another id.
            </p>
          ),
          confirmLabel: 'Replace the group',
          danger: true,
        });
        if (!ok) return;
      }
      await importSkillGroups(app.streamId, accountId, orgId, [group]);
      setId('');
      setName('');
      onAdded();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="add-group-title">
      <h2 id="add-group-title">Add a skill group</h2>
      <div class="row">
        <div class="field">
          <label for="sg-id">Id</label>
          <input
            id="sg-id"
            required
            maxLength={200}
            value={id}
            onInput={(e) => setId(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="sg-name">Name</label>
          <input
            id="sg-name"
            required
            maxLength={500}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Add
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The skill group was not added" /> : null}
      {confirm}
    </form>
  );
}

export function SkillGroupsPage({ app }: { app: AppRecord }) {
  const { query, path, route } = useLocation();
  const accountId = query.accountId ?? '';
  const orgId = query.orgId ?? '';
  const [form, setForm] = useState({ accountId, orgId });
  const load = useLoad(
    async () => (accountId && orgId ? readSkillGroups(app.streamId, accountId, orgId) : null),
    [app.streamId, accountId, orgId],
  );
  return (
    <section aria-labelledby="sg-title">
      <h1 id="sg-title">Skill groups</h1>
      <form
        class="card row"
        onSubmit={(e) => {
          e.preventDefault();
          route(`${path}?${new URLSearchParams(form)}`);
        }}
      >
        <div class="field">
          <label for="sg-account">Account id</label>
          <input
            id="sg-account"
            required
            value={form.accountId}
            onInput={(e) => setForm({ ...form, accountId: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="sg-org">Organisation id</label>
          <input
            id="sg-org"
            required
            value={form.orgId}
            onInput={(e) => setForm({ ...form, orgId: e.currentTarget.value })}
          />
        </div>
        <button type="submit">Show</button>
      </form>
      <Loaded load={load} label="Loading skill groups…">
        {(data) =>
          data === null ? (
            <p class="muted">Skill groups are kept per account and organisation: give both to see them.</p>
          ) : (
            <>
              {data.skillGroups.length === 0 ? (
                <p class="empty">No skill groups for this account and organisation.</p>
              ) : (
                <table class="list">
                  <caption>{data.total} skill groups</caption>
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Name</th>
                      <th scope="col">Status</th>
                      <th scope="col">Skills</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.skillGroups.map((g) => (
                      <tr key={String(g._id)}>
                        <td>
                          <code>{String(g._id)}</code>
                        </td>
                        <td>{String(g.name)}</td>
                        <td>{String(g.status)}</td>
                        <td>{Array.isArray(g.skills) ? g.skills.length : 0}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <AddGroup app={app} accountId={accountId} orgId={orgId} onAdded={load.reload} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
