/**
 * Your account: who you are signed in as and your roles, a password change (which ends your other
 * sessions, so the page signs you in again), and your personal API tokens for scripts (made and
 * shown once, listed, revoked after a confirmation). With the admin token there is no account.
 */
import { useState } from 'preact/hooks';
import {
  changePassword,
  currentSession,
  createMyToken,
  listMyTokens,
  revokeMyToken,
  type PersonalToken,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { useHolder } from '../ui/roles.js';

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next);
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <p class="muted small">Your other sessions end; you sign in again with the new password.</p>
      <div class="row wrap">
        <div class="field">
          <label for="current-password">Current password</label>
          <input
            id="current-password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="changed-password">New password (12 characters at least)</label>
          <input
            id="changed-password"
            type="password"
            autoComplete="new-password"
            minLength={12}
            maxLength={200}
            required
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change the password'}
        </button>
      </div>
      {error ? <ErrorBox error={error} title="The password was not changed" /> : null}
    </form>
  );
}

function Tokens() {
  const load = useLoad(() => listMyTokens().then((r) => r.tokens), []);
  const [name, setName] = useState('');
  const [made, setMade] = useState<(PersonalToken & { token: string }) | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [confirm, ask] = useConfirm();
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setMade(await createMyToken(name.trim()));
      setName('');
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  const revoke = async (t: PersonalToken) => {
    const ok = await ask({
      title: `Revoke “${t.name}”?`,
      body: <p>Scripts that send it are refused at once.</p>,
      confirmLabel: 'Revoke the token',
      danger: true,
    });
    if (!ok) return;
    try {
      await revokeMyToken(t.id);
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal API tokens</h2>
      <p class="muted small">
        For scripts: <code>Authorization: Bearer pat_…</code> on the operator API, with your roles.
      </p>
      <form class="row" onSubmit={(e) => void create(e)}>
        <div class="field">
          <label for="token-name">Name</label>
          <input
            id="token-name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary">
          Make a token
        </button>
      </form>
      {made ? (
        <div class="secret-once" role="status">
          <p>
            The token “{made.name}”, shown this once: <code>{made.token}</code>
          </p>
          <CopyButton text={made.token} label="Copy the token" />
        </div>
      ) : null}
      {error ? <ErrorBox error={error} title="The token was not changed" /> : null}
      <Loaded load={load} label="Loading your tokens…">
        {(tokens) =>
          tokens.length === 0 ? (
            <p>No tokens.</p>
          ) : (
            <ul class="plain">
              {tokens.map((t) => (
                <li key={t.id}>
                  {t.name} <span class="muted small">made {new Date(t.createdOn).toLocaleString()}</span>{' '}
                  <button type="button" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {confirm}
    </section>
  );
}

/** After a password change this session is over: asking for it answers 401, which brings the sign-in back. */
const signInAgain = (): void => void currentSession().catch(() => undefined);

export function MyAccountPage() {
  const holder = useHolder();
  return (
    <section aria-labelledby="me-title">
      <h1 id="me-title">Your account</h1>
      {holder.kind === 'admin' ? (
        <p>
          You signed in with the admin token: it holds every role and has no password or tokens of its own.
        </p>
      ) : (
        <>
          <p>
            Signed in as <strong>{holder.email}</strong>:{' '}
            {holder.grants
              .map((g) => (g.app ? `${g.role} of ${g.app}` : `${g.role} of everything`))
              .join('; ')}
            .
          </p>
          <PasswordForm onChanged={signInAgain} />
          <Tokens />
        </>
      )}
    </section>
  );
}
