/**
 * The test sandbox: switch it on or off, its number, the line limit and the lines calls hold now,
 * and its PIN and secret. Those are shown only when they are made (the answer that first switches
 * the sandbox on, or a rotation), masked until the operator shows them: the service cannot read
 * them back, so afterwards the page offers to make new ones instead of pretending to reveal the old. Below, the lockouts of those who typed wrong PINs
 * (sandbox-lockouts.tsx).
 */
import { useState } from 'preact/hooks';
import {
  rotateSandboxSecret,
  sandboxStatus,
  setSandbox,
  type AppRecord,
  type SandboxStatus,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { SecretOnce } from '../ui/secret-once.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { SandboxLockouts } from './sandbox-lockouts.js';
import { useLoad } from '../ui/use-load.js';

/** A PIN and secret just made, and why (first switch-on, or new ones asked for). */
interface FreshCredentials {
  pin: string;
  secret: string;
  rotated: boolean;
}

interface CredentialsProps {
  app: AppRecord;
  fresh: FreshCredentials | null;
  onFresh: (c: FreshCredentials | null) => void;
}

function Credentials({ app, fresh, onFresh }: CredentialsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [confirm, ask] = useConfirm();
  const rotate = async () => {
    const ok = await ask({
      title: `Make a new PIN and secret for “${app.name}”?`,
      body: (
        <p>
          The current PIN and secret stop working at once: every tester has to log in with the new ones. Calls
          already connected go on. The new ones are shown once.
        </p>
      ),
      confirmLabel: 'Make new ones',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await rotateSandboxSecret(app.streamId);
      onFresh({ pin: answer.pin, secret: answer.secret, rotated: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="credentials">
      {fresh ? (
        <SecretOnce
          title="PIN and secret"
          values={[
            {
              label: 'PIN',
              value: fresh.pin,
              copyLabel: 'Copy PIN',
              testId: 'sandbox-pin',
              revealLabel: 'Show PIN',
            },
            {
              label: 'Secret',
              value: fresh.secret,
              copyLabel: 'Copy secret',
              testId: 'sandbox-secret',
              revealLabel: 'Show secret',
            },
          ]}
          doneLabel="I have noted them, hide them"
          onDone={() => onFresh(null)}
        >
          <strong>{fresh.rotated ? 'The new PIN and secret' : 'The PIN and secret'}</strong>, shown this once:
          give them to your testers.
          {fresh.rotated ? ' The old ones no longer log in.' : ''} They are masked: show them to read them, or
          copy them as they are. Once you hide them, the service cannot show them again.
        </SecretOnce>
      ) : (
        <>
          <p data-testid="sandbox-credentials-note">
            <strong>PIN and secret:</strong> shown only when they are made, when the sandbox is first switched
            on or when you make new ones. The service keeps them sealed and cannot show them again; if they
            are lost, make new ones.
          </p>
          <button type="button" disabled={busy} onClick={() => void rotate()}>
            Make a new PIN and secret
          </button>
        </>
      )}
      {error ? <ErrorBox error={error} /> : null}
      {confirm}
    </div>
  );
}

interface SandboxProps extends CredentialsProps {
  status: SandboxStatus;
  onChange: () => void;
}

function Sandbox({ app, status, onChange, fresh, onFresh }: SandboxProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [lines, setLines] = useState(String(status.maxConcurrentCalls || 2));
  const [confirm, ask] = useConfirm();
  const set = async (enabled: boolean) => {
    if (!enabled) {
      const ok = await ask({
        title: `Switch the sandbox of “${app.name}” off?`,
        body: (
          <p>
            Its number {status.phoneNumber} is released and testers can no longer call. Switching it on again
            may give another number.
          </p>
        ),
        confirmLabel: 'Switch off',
        danger: true,
      });
      if (!ok) return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await setSandbox(
        app.streamId,
        enabled ? { enabled, maxConcurrentCalls: Number(lines) } : { enabled },
      );
      // the PIN and secret are in the answer only when this switch created the sandbox
      if (answer.pin && answer.secret) onFresh({ pin: answer.pin, secret: answer.secret, rotated: false });
      if (!enabled) onFresh(null);
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
            <input
              id="sandbox-lines"
              type="number"
              min={1}
              max={100}
              value={lines}
              onInput={(e) => setLines(e.currentTarget.value)}
            />
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={status.enabled}
            aria-describedby="sandbox-state"
            disabled={busy}
            onClick={() => void set(!status.enabled)}
          >
            {status.enabled ? 'Switch the sandbox off' : 'Switch the sandbox on'}
          </button>
          {status.enabled ? (
            <button type="button" disabled={busy} onClick={() => void set(true)}>
              Apply the line limit
            </button>
          ) : null}
        </div>
        <p class="muted small">
          Switching it on also switches on the IVR channel and, when the IVR settings are not enabled yet,
          fills in the settings the sandbox needs.
        </p>
        {error ? <ErrorBox error={error} /> : null}
      </section>
      {status.enabled ? (
        <section class="card" aria-labelledby="sandbox-line-title">
          <h2 id="sandbox-line-title">How testers call</h2>
          <dl class="facts">
            <dt>Number</dt>
            <dd>
              <code data-testid="sandbox-number">{status.phoneNumber}</code>{' '}
              <CopyButton text={status.phoneNumber} label="Copy number" />
              <p class="muted small">A key that names this sandbox, not a number a phone can dial.</p>
            </dd>
            <dt>Entry URL</dt>
            <dd>
              <code data-testid="sandbox-entry-url">{sandboxEntryUrl(status.phoneNumber)}</code>{' '}
              <CopyButton text={sandboxEntryUrl(status.phoneNumber)} label="Copy entry URL" />
              <p class="muted small">
                What a VoiceXML browser (or your telephony platform&apos;s application for the test line)
                fetches first, with GET or POST and the parameters callId, from and to; it asks for the PIN
                and the secret, then runs the agent.
              </p>
            </dd>
            <dt>Lines in use</dt>
            <dd data-testid="sandbox-lines-in-use">
              {status.linesInUse} of {status.maxConcurrentCalls}
            </dd>
          </dl>
          <Credentials app={app} fresh={fresh} onFresh={onFresh} />
          <p class="small">
            From a terminal:{' '}
            <code>
              npm run call -- {status.phoneNumber} --base {location.origin} --pin PIN --secret SECRET
            </code>
          </p>
        </section>
      ) : null}
      {status.enabled ? <SandboxLockouts app={app} /> : null}
      {confirm}
    </>
  );
}

/** The URL a VoiceXML browser calls to enter the sandbox: the number is its key, not something to dial. */
const sandboxEntryUrl = (phoneNumber: string): string =>
  `${location.origin}/ivr/sandbox/${encodeURIComponent(phoneNumber).replace(/^%2B/, '+')}`;

export function SandboxPage({ app }: { app: AppRecord }) {
  const load = useLoad(() => sandboxStatus(app.streamId), [app.streamId]);
  // kept here: a reload of the status unmounts the parts below while it loads
  const [fresh, setFresh] = useState<FreshCredentials | null>(null);
  return (
    <section aria-labelledby="sandbox-title">
      <h1 id="sandbox-title">Sandbox</h1>
      <p class="muted">
        A phone number testers call with a PIN and a secret to talk to this app&apos;s agent.
      </p>
      <p>
        <a class="button" href={`/console/apps/${app.streamId}/call`}>
          Call the sandbox from the browser
        </a>
      </p>
      <Loaded load={load} label="Loading the sandbox…">
        {(status) => (
          <>
            <Sandbox app={app} status={status} onChange={load.reload} fresh={fresh} onFresh={setFresh} />
            <button type="button" class="subtle" onClick={load.reload}>
              Refresh the sandbox status
            </button>
          </>
        )}
      </Loaded>
    </section>
  );
}
