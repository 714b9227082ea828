/**
 * Sign-in: with an account's email and password, or with the admin token (the bootstrap and
 * break-glass credential); the service answers a session cookie that scripts cannot read.
 */
import { useState } from 'preact/hooks';
import { signIn, type SessionHolder } from '../api/client.js';
import { ErrorBox } from '../ui/status.js';

function useSubmit(onSignedIn: (holder?: SessionHolder) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event, credentials: Parameters<typeof signIn>[0], done: () => void) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await signIn(credentials);
      done();
      onSignedIn(answer.holder);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export function SignIn({ onSignedIn }: { onSignedIn: (holder?: SessionHolder) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const withPassword = useSubmit(onSignedIn);
  const withToken = useSubmit(onSignedIn);
  return (
    <main id="main" class="sign-in">
      <form
        onSubmit={(e) => void withPassword.run(e, { email, password }, () => setPassword(''))}
        aria-labelledby="sign-in-title"
      >
        <h1 id="sign-in-title">IVR gateway console</h1>
        <p class="muted">Sign in with your account, made from an invitation an owner sent you.</p>
        <label for="account-email">Email</label>
        <input
          id="account-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="account-password">Password</label>
        <input
          id="account-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {withPassword.error ? <ErrorBox error={withPassword.error} title="Sign-in failed" /> : null}
        <button type="submit" class="primary" disabled={withPassword.busy}>
          {withPassword.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <form
        onSubmit={(e) => void withToken.run(e, { token }, () => setToken(''))}
        aria-labelledby="token-sign-in-title"
      >
        <h2 id="token-sign-in-title">Or with the service’s own token</h2>
        <p class="muted">
          The admin token (<code>ADMIN_TOKEN</code>, or the one <code>npm start</code> printed) holds every
          role.
        </p>
        <label for="admin-token">Admin token</label>
        <input
          id="admin-token"
          name="token"
          type="password"
          autoComplete="off"
          required
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        {withToken.error ? <ErrorBox error={withToken.error} title="Sign-in failed" /> : null}
        <button type="submit" class={withToken.busy ? '' : 'primary'} disabled={withToken.busy}>
          {withToken.busy ? 'Signing in…' : 'Sign in with the token'}
        </button>
      </form>
    </main>
  );
}
