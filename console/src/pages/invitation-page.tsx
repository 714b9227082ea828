/**
 * The page an invitation link opens (/console/invitation#<token>): the invited operator sets a
 * password, then signs in. The token rides in the fragment, which browsers never send to a server
 * or in a Referer.
 */
import { useState } from 'preact/hooks';
import { acceptInvitation, type AccountRecord } from '../api/client.js';
import { ErrorBox } from '../ui/status.js';

export function InvitationPage({ onDone }: { onDone: () => void }) {
  const token = location.hash.replace(/^#/, '');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [account, setAccount] = useState<AccountRecord | null>(null);
  const mismatch = again !== '' && again !== password;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (mismatch) return;
    setBusy(true);
    setError(null);
    try {
      setAccount(await acceptInvitation(token, password));
      setPassword('');
      setAgain('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (account) {
    return (
      <main id="main" class="sign-in">
        <div class="card" role="status">
          <h1>Your password is set</h1>
          <p>
            The account <strong>{account.email}</strong> is active. Sign in with it now.
          </p>
          <button type="button" class="primary" onClick={onDone}>
            Go to sign-in
          </button>
        </div>
      </main>
    );
  }
  return (
    <main id="main" class="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="invitation-title">
        <h1 id="invitation-title">Set your password</h1>
        {token ? (
          <p class="muted">
            You were invited to the IVR gateway console. Choose a password of at least 12 characters.
          </p>
        ) : (
          <p role="alert">This link has no invitation in it: open the whole link you were sent.</p>
        )}
        <label for="new-password">Password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          maxLength={200}
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <label for="new-password-again">The same password again</label>
        <input
          id="new-password-again"
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={mismatch}
          aria-describedby="again-error"
          value={again}
          onInput={(e) => setAgain(e.currentTarget.value)}
        />
        <p id="again-error" class="field-error" aria-live="polite">
          {mismatch ? 'The two passwords differ.' : ''}
        </p>
        {error ? <ErrorBox error={error} title="The password was not set" /> : null}
        <button type="submit" class="primary" disabled={busy || !token || mismatch}>
          {busy ? 'Setting…' : 'Set the password'}
        </button>
      </form>
    </main>
  );
}
