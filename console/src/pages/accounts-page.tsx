/**
 * Accounts (owners): every operator account with its roles and state, an invitation form (the link
 * is shown once, with a copy button), a new link for an account (also to reset a forgotten
 * password), and disabling or enabling an account after a confirmation that says what it ends.
 */
import { useState } from 'preact/hooks';
import {
  inviteAccount,
  listAccounts,
  reinviteAccount,
  updateAccount,
  type AccountRecord,
  type Invitation,
  type RoleGrant,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { needsRole, useCan } from '../ui/roles.js';

const grantText = (g: RoleGrant): string => (g.app ? `${g.role} of ${g.app}` : `${g.role} of everything`);

function InvitationShown({ made }: { made: Invitation }) {
  return (
    <div class="card secret-once" role="status">
      <h2>Send this link to {made.account.email}</h2>
      <p>
        It is shown once and works until {new Date(made.invitation.expiresAt).toLocaleString()}; whoever opens
        it sets the account’s password.
      </p>
      <p>
        <code>{made.invitation.url}</code>
      </p>
      <CopyButton text={made.invitation.url} label="Copy the link" />
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: (made: Invitation) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleGrant['role']>('viewer');
  const [app, setApp] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onInvited(
        await inviteAccount({
          email: email.trim(),
          grants: [{ role, ...(app.trim() ? { app: app.trim() } : {}) }],
        }),
      );
      setEmail('');
      setApp('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite an operator</h2>
      <div class="row wrap">
        <div class="field">
          <label for="invite-email">Email</label>
          <input
            id="invite-email"
            type="email"
            required
            maxLength={254}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div class="field narrow">
          <label for="invite-role">Role</label>
          <select
            id="invite-role"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as RoleGrant['role'])}
          >
            <option value="viewer">Viewer: reads everything but secrets</option>
            <option value="editor">Editor: changes apps, agents, settings</option>
            <option value="owner">Owner: everything, accounts too</option>
          </select>
        </div>
        <div class="field">
          <label for="invite-app">Only on app (streamId, optional)</label>
          <input
            id="invite-app"
            maxLength={100}
            value={app}
            onInput={(e) => setApp(e.currentTarget.value)}
            aria-describedby="invite-app-help"
          />
          <span id="invite-app-help" class="help muted small">
            Empty: the role holds on the whole service.
          </span>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The operator was not invited" /> : null}
    </form>
  );
}

export function AccountsPage() {
  const owner = useCan('owner');
  const load = useLoad(
    () => (owner ? listAccounts().then((r) => r.accounts) : Promise.resolve([] as AccountRecord[])),
    [owner],
  );
  const [made, setMade] = useState<Invitation | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [confirm, ask] = useConfirm();
  if (!owner) {
    return (
      <section aria-labelledby="accounts-title">
        <h1 id="accounts-title">Accounts</h1>
        <p role="note">{needsRole('owner')}</p>
      </section>
    );
  }
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  const toggle = async (a: AccountRecord) => {
    const disabling = a.status !== 'disabled';
    const ok = await ask({
      title: `${disabling ? 'Disable' : 'Enable'} ${a.email}?`,
      body: (
        <p>
          {disabling
            ? 'Its console sessions and personal API tokens are refused at once, and it cannot sign in.'
            : 'It signs in again, and its personal API tokens work again.'}
        </p>
      ),
      confirmLabel: disabling ? 'Disable the account' : 'Enable the account',
      danger: disabling,
    });
    if (ok) await act(() => updateAccount(a.id, { disabled: disabling }));
  };
  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title">Accounts</h1>
      <p class="muted">
        Operators sign in with their own email and password; the admin token stays the way in when no owner
        can.
      </p>
      <InviteForm
        onInvited={(m) => {
          setMade(m);
          load.reload();
        }}
      />
      {made ? <InvitationShown made={made} /> : null}
      {error ? <ErrorBox error={error} title="The account was not changed" /> : null}
      <Loaded load={load} label="Loading the accounts…">
        {(accounts) =>
          accounts.length === 0 ? (
            <p>No accounts yet: invite the first operator above.</p>
          ) : (
            <div class="table-scroll">
              <table class="list">
                <caption class="sr-only">Operator accounts</caption>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Roles</th>
                    <th scope="col">State</th>
                    <th scope="col" class="hide-narrow">
                      Since
                    </th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {accounts.map((a) => (
                    <tr key={a.id}>
                      <td>{a.email}</td>
                      <td>{a.grants.map(grantText).join('; ')}</td>
                      <td>{a.status}</td>
                      <td class="hide-narrow">{new Date(a.createdOn).toLocaleDateString()}</td>
                      <td>
                        <button
                          type="button"
                          onClick={() => void toggle(a)}
                          aria-label={`${a.status === 'disabled' ? 'Enable' : 'Disable'} ${a.email}`}
                        >
                          {a.status === 'disabled' ? 'Enable' : 'Disable'}
                        </button>{' '}
                        {a.status !== 'disabled' ? (
                          <button
                            type="button"
                            onClick={() => void act(async () => setMade(await reinviteAccount(a.id)))}
                            aria-label={`New link for ${a.email}`}
                          >
                            New link
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {confirm}
    </section>
  );
}
