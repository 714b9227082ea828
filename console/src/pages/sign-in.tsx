/** Sign-in with the admin token; the service answers a session cookie that scripts cannot read. */
import { useState } from 'preact/hooks';
import { signIn } from '../api/client.js';
import { ErrorBox } from '../ui/status.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(token);
      setToken('');
      onSignedIn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">IVR gateway console</h1>
        <p class="muted">Sign in with the admin token: <code>ADMIN_TOKEN</code>, or the one <code>npm start</code> printed.</p>
        <label for="admin-token">Admin token</label>
        <input id="admin-token" name="token" type="password" autoComplete="current-password" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        {error ? <ErrorBox error={error} title="Sign-in failed" /> : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
