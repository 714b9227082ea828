/**
 * An app's overview: the IVR channel on or off, its webhook URL, the channel's client secret (shown
 * when the channel is created and when it is rotated, never read back), a minted webhook token, and
 * the `<subdialog>` snippet a customer pastes, carrying that token once one is minted, and the
 * app's API apps (api-apps.tsx).
 */
import { useState } from 'preact/hooks';
import {
  getChannel,
  rotateChannelSecret,
  setChannel,
  type AppRecord,
  type ChannelState,
  type MintedToken,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { SecretOnce } from '../ui/secret-once.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { ApiApps } from './api-apps.js';
import { subdialogSnippet } from './subdialog-snippet.js';
import { WebhookToken } from './webhook-token.js';

interface ShownSecret {
  secret: string;
  rotated: boolean;
}

interface ChannelProps {
  app: AppRecord;
  channel: ChannelState;
  onChange: (c: ChannelState) => void;
  /** Called when the secret is rotated: tokens minted before no longer pass. */
  onRotated: () => void;
}

function Channel({ app, channel, onChange, onRotated }: ChannelProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [confirm, ask] = useConfirm();
  const toggle = async () => {
    if (channel.enabled) {
      const ok = await ask({
        title: `Switch the IVR channel of “${app.name}” off?`,
        body: (
          <p>
            Calls through the webhook are refused until it is switched on again. Its client id and secret stay
            the same.
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
      const answer = await setChannel(app.streamId, !channel.enabled);
      // the secret is in the answer only when this switch created the channel
      if (answer.clientSecret) setSecret({ secret: answer.clientSecret, rotated: false });
      onChange({
        enabled: answer.enabled,
        webhookUrl: answer.webhookUrl,
        clientId: answer.clientId,
        allowTokensWithoutExpiry: answer.allowTokensWithoutExpiry,
      });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const rotate = async () => {
    const ok = await ask({
      title: `Rotate the client secret of “${app.name}”?`,
      body: (
        <p>
          A new secret replaces the current one at once. Calls using tokens signed with the old secret will be
          refused, tokens minted here included, until your IVR platform uses tokens signed with the new one.
        </p>
      ),
      confirmLabel: 'Rotate the secret',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await rotateChannelSecret(app.streamId);
      setSecret({ secret: answer.clientSecret, rotated: true });
      onRotated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="channel-title">
      <h2 id="channel-title">IVR channel</h2>
      <div class="switch-row">
        <span id="channel-state">
          The channel is <strong>{channel.enabled ? 'on' : 'off'}</strong>.
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={channel.enabled}
          aria-describedby="channel-state"
          disabled={busy}
          onClick={() => void toggle()}
        >
          {channel.enabled ? 'Switch the channel off' : 'Switch the channel on'}
        </button>
      </div>
      {error ? <ErrorBox error={error} /> : null}
      {secret ? (
        <SecretOnce
          title="Client secret"
          values={[
            {
              label: 'Client secret',
              value: secret.secret,
              copyLabel: 'Copy secret',
              testId: 'client-secret',
            },
          ]}
          doneLabel="I have stored it, hide it"
          onDone={() => setSecret(null)}
        >
          <strong>{secret.rotated ? 'New client secret' : 'Client secret'}</strong>, shown this once: store it
          where your IVR platform signs its tokens.
          {secret.rotated ? ' Tokens signed with the old secret are refused from now on.' : ''}
        </SecretOnce>
      ) : null}
      {channel.clientId ? (
        <dl class="facts">
          <dt>Webhook URL</dt>
          <dd>
            <code data-testid="webhook-url">{channel.webhookUrl}</code>{' '}
            {channel.webhookUrl ? <CopyButton text={channel.webhookUrl} label="Copy webhook URL" /> : null}
          </dd>
          <dt>Client id</dt>
          <dd>
            <code>{channel.clientId}</code>
          </dd>
          <dt>Client secret</dt>
          <dd>
            <p class="help">
              Shown only when it is made: the service cannot read it back. If it is lost or leaked, rotate it.
            </p>
            <button type="button" disabled={busy} onClick={() => void rotate()}>
              Rotate client secret
            </button>
          </dd>
          <dt>Tokens without expiry</dt>
          <dd>{channel.allowTokensWithoutExpiry ? 'accepted (this channel allows them)' : 'refused'}</dd>
        </dl>
      ) : null}
      {confirm}
    </section>
  );
}

interface SnippetProps {
  app: AppRecord;
  channel: ChannelState;
  minted: MintedToken | null;
  onMinted: (t: MintedToken) => void;
}

function Snippet({ app, channel, minted, onMinted }: SnippetProps) {
  if (!channel.webhookUrl || !channel.clientId) return null;
  const snippet = subdialogSnippet(
    minted?.webhookUrl ?? `${channel.webhookUrl}?token=YOUR_TOKEN`,
    app.streamId,
  );
  return (
    <section class="card" aria-labelledby="snippet-title">
      <h2 id="snippet-title">Run the agent from your VoiceXML application</h2>
      <p>
        Paste this into your IVR&apos;s root document: it calls the agent as a <code>&lt;subdialog&gt;</code>{' '}
        and hangs up when the agent says the conversation is over.
      </p>
      <WebhookToken streamId={app.streamId} minted={minted} onMinted={onMinted} />
      <pre class="code" tabIndex={0} aria-label="Subdialog snippet" data-testid="snippet">
        {snippet}
      </pre>
      <CopyButton text={snippet} label="Copy snippet" />
      <h3>The token parameter</h3>
      {minted ? (
        <p>
          The snippet carries the token minted above. It is signed with the channel&apos;s client secret and
          expires at {new Date(minted.expiresAt).toLocaleString()}: mint a new one and update the snippet
          before then. Rotating the client secret also ends it.
        </p>
      ) : (
        <p>
          Replace <code>YOUR_TOKEN</code> with a token: mint one above, and the snippet carries it.
        </p>
      )}
      <p>
        Or sign tokens on your side: a JSON Web Token signed with HS256 and the client secret, carrying the
        claims <code>appId</code> = <code>{channel.clientId}</code>, <code>sub</code> = the caller and{' '}
        <code>exp</code> = when it stops being valid.{' '}
        {channel.allowTokensWithoutExpiry
          ? 'This channel also accepts tokens without exp.'
          : 'A token without exp is refused.'}{' '}
        The secret must never reach the caller or the browser. A wrong or expired token is answered with a
        VoiceXML apology, not the agent.
      </p>
    </section>
  );
}

export function AppOverview({ app }: { app: AppRecord }) {
  const load = useLoad(() => getChannel(app.streamId), [app.streamId]);
  const [minted, setMinted] = useState<MintedToken | null>(null);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">{app.name}</h1>
      <dl class="facts">
        <dt>App id</dt>
        <dd>
          <code>{app.streamId}</code>
        </dd>
        <dt>Language</dt>
        <dd>{app.language}</dd>
        <dt>Created</dt>
        <dd>{new Date(app.createdOn).toLocaleString()}</dd>
      </dl>
      <p>
        <a class="button" href={`/console/apps/${app.streamId}/call`}>
          Call this app from the browser
        </a>
      </p>
      <Loaded load={load} label="Loading the IVR channel…">
        {(channel) => (
          <>
            <Channel
              app={app}
              channel={channel}
              onChange={(c) => load.state === 'ready' && load.set(c)}
              onRotated={() => setMinted(null)}
            />
            <Snippet app={app} channel={channel} minted={minted} onMinted={setMinted} />
          </>
        )}
      </Loaded>
      <ApiApps app={app} />
    </section>
  );
}
