/**
 * The test sandbox: switch it on or off, its number, its PIN and secret (revealed only when asked
 * for), the line limit and the lines calls hold now. Lockouts of callers who typed wrong PINs are
 * not offered by the service's API yet; the page says so.
 */
import { useState } from 'preact/hooks';
import { sandboxStatus, setSandbox, type AppRecord, type SandboxAnswer, type SandboxStatus } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

function Credentials({ app, status }: { app: AppRecord; status: SandboxStatus }) {
  const [shown, setShown] = useState<SandboxAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reveal = async () => {
    setError(null);
    try {
      setShown(await setSandbox(app.streamId, { enabled: true, maxConcurrentCalls: status.maxConcurrentCalls }));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="credentials">
      {shown ? (
        <dl class="facts">
          <dt>PIN</dt>
          <dd>
            <code data-testid="sandbox-pin">{shown.pin}</code> <CopyButton text={shown.pin} label="Copy PIN" />
          </dd>
          <dt>Secret</dt>
          <dd>
            <code data-testid="sandbox-secret">{shown.secret}</code> <CopyButton text={shown.secret} label="Copy secret" />
          </dd>
        </dl>
      ) : null}
      <button type="button" onClick={() => (shown ? setShown(null) : void reveal())} aria-expanded={shown !== null}>
        {shown ? 'Hide the PIN and secret' : 'Show the PIN and secret'}
      </button>
      {error ? <ErrorBox error={error} /> : null}
    </div>
  );
}

function Sandbox({ app, status, onChange }: { app: AppRecord; status: SandboxStatus; onChange: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [lines, setLines] = useState(String(status.maxConcurrentCalls || 2));
  const [confirm, ask] = useConfirm();
  const set = async (enabled: boolean) => {
    if (!enabled) {
      const ok = await ask({
        title: `Switch the sandbox of “${app.name}” off?`,
        body: <p>Its number {status.phoneNumber} is released and testers can no longer call. Switching it on again may give another number.</p>,
        confirmLabel: 'Switch off',
        danger: true,
      });
      if (!ok) return;
    }
    setBusy(true);
    setError(null);
    try {
      await setSandbox(app.streamId, enabled ? { enabled, maxConcurrentCalls: Number(lines) } : { enabled });
      onChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <section class="card" aria-labelledby="sandbox-state-title">
        <h2 id="sandbox-state-title">Test line</h2>
        <div class="switch-row">
          <span id="sandbox-state">
            The sandbox is <strong>{status.enabled ? 'on' : 'off'}</strong>.
          </span>
          <div class="field narrow">
            <label for="sandbox-lines">Lines (calls at once)</label>
            <input id="sandbox-lines" type="number" min={1} max={100} value={lines} onInput={(e) => setLines(e.currentTarget.value)} />
          </div>
          <button type="button" role="switch" aria-checked={status.enabled} aria-describedby="sandbox-state" disabled={busy} onClick={() => void set(!status.enabled)}>
            {status.enabled ? 'Switch the sandbox off' : 'Switch the sandbox on'}
          </button>
          {status.enabled ? (
            <button type="button" disabled={busy} onClick={() => void set(true)}>
              Apply the line limit
            </button>
          ) : null}
        </div>
        <p class="muted small">Switching it on also switches on the IVR channel and, when the IVR settings are not enabled yet, fills in the settings the sandbox needs.</p>
        {error ? <ErrorBox error={error} /> : null}
      </section>
      {status.enabled ? (
        <section class="card" aria-labelledby="sandbox-line-title">
          <h2 id="sandbox-line-title">How testers call</h2>
          <dl class="facts">
            <dt>Number</dt>
            <dd>
              <code data-testid="sandbox-number">{status.phoneNumber}</code> <CopyButton text={status.phoneNumber} label="Copy number" />
            </dd>
            <dt>Lines in use</dt>
            <dd data-testid="sandbox-lines-in-use">
              {status.linesInUse} of {status.maxConcurrentCalls}
            </dd>
            <dt>Lockouts</dt>
            <dd class="muted">Callers are locked out for a while after five wrong entries; this service does not list lockouts yet.</dd>
          </dl>
          <Credentials app={app} status={status} />
          <p class="small">
            From a terminal: <code>npm run call -- {status.phoneNumber} --base {location.origin} --pin PIN --secret SECRET</code>
          </p>
        </section>
      ) : null}
      {confirm}
    </>
  );
}

export function SandboxPage({ app }: { app: AppRecord }) {
  const load = useLoad(() => sandboxStatus(app.streamId), [app.streamId]);
  return (
    <section aria-labelledby="sandbox-title">
      <h1 id="sandbox-title">Sandbox</h1>
      <p class="muted">A phone number testers call with a PIN and a secret to talk to this app&apos;s agent.</p>
      <Loaded load={load} label="Loading the sandbox…">
        {(status) => (
          <>
            <Sandbox app={app} status={status} onChange={load.reload} />
            <button type="button" class="subtle" onClick={load.reload}>
              Refresh
            </button>
          </>
        )}
      </Loaded>
    </section>
  );
}
