/**
 * An app's overview: the IVR channel on or off, its webhook URL, the `<subdialog>` snippet a
 * customer pastes (with what the token is), and the channel's client secret, shown once.
 */
import { useState } from 'preact/hooks';
import { getChannel, rotateChannelSecret, setChannel, type AppRecord, type ChannelState } from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { subdialogSnippet } from './subdialog-snippet.js';

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div class="secret-once" role="region" aria-label="Client secret">
      <p>
        <strong>Client secret</strong>, shown this once: store it where your IVR platform signs its tokens.
      </p>
      <p>
        <code class="secret" data-testid="client-secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
      </p>
      <button type="button" onClick={onDone}>
        I have stored it, hide it
      </button>
    </div>
  );
}

function Channel({ app, channel, onChange }: { app: AppRecord; channel: ChannelState; onChange: (c: ChannelState) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, ask] = useConfirm();
  const toggle = async () => {
    if (channel.enabled) {
      const ok = await ask({
        title: `Switch the IVR channel of “${app.name}” off?`,
        body: <p>Calls through the webhook are refused until it is switched on again. Its client id and secret stay the same.</p>,
        confirmLabel: 'Switch off',
        danger: true,
      });
      if (!ok) return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await setChannel(app.streamId, !channel.enabled);
      if (answer.enabled && !channel.clientId) setSecret(answer.clientSecret);
      onChange({ enabled: answer.enabled, webhookUrl: answer.webhookUrl, clientId: answer.clientId });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const rotate = rotateChannelSecret;
  return (
    <section class="card" aria-labelledby="channel-title">
      <h2 id="channel-title">IVR channel</h2>
      <div class="switch-row">
        <span id="channel-state">
          The channel is <strong>{channel.enabled ? 'on' : 'off'}</strong>.
        </span>
        <button type="button" role="switch" aria-checked={channel.enabled} aria-describedby="channel-state" disabled={busy} onClick={() => void toggle()}>
          {channel.enabled ? 'Switch the channel off' : 'Switch the channel on'}
        </button>
      </div>
      {error ? <ErrorBox error={error} /> : null}
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      {channel.clientId ? (
        <dl class="facts">
          <dt>Webhook URL</dt>
          <dd>
            <code data-testid="webhook-url">{channel.webhookUrl}</code> {channel.webhookUrl ? <CopyButton text={channel.webhookUrl} label="Copy webhook URL" /> : null}
          </dd>
          <dt>Client id</dt>
          <dd>
            <code>{channel.clientId}</code>
          </dd>
          <dt>Client secret</dt>
          <dd>
            {rotate ? (
              <button type="button" onClick={() => void rotate(app.streamId).then((r) => setSecret(r.clientSecret), setError)}>
                Rotate the secret
              </button>
            ) : (
              <span class="muted">Shown once, when the channel is first switched on. This service offers no rotation of it yet.</span>
            )}
          </dd>
        </dl>
      ) : null}
      {confirm}
    </section>
  );
}

function Snippet({ app, channel }: { app: AppRecord; channel: ChannelState }) {
  if (!channel.webhookUrl) return null;
  const snippet = subdialogSnippet(channel.webhookUrl, app.streamId);
  return (
    <section class="card" aria-labelledby="snippet-title">
      <h2 id="snippet-title">Run the agent from your VoiceXML application</h2>
      <p>
        Paste this into your IVR&apos;s root document: it calls the agent as a <code>&lt;subdialog&gt;</code> and hangs up when the agent says the
        conversation is over.
      </p>
      <pre class="code" tabIndex={0} aria-label="Subdialog snippet" data-testid="snippet">
        {snippet}
      </pre>
      <CopyButton text={snippet} label="Copy snippet" />
      <h3>The token parameter</h3>
      <p>
        Replace <code>YOUR_TOKEN</code> with a JSON Web Token signed with HS256 and the client secret, carrying the claim <code>appId</code> ={' '}
        <code>{channel.clientId}</code> (and, if you like, <code>sub</code> = the caller and <code>exp</code> = when it stops being valid). Sign it on your
        side: the secret must never reach the caller or the browser. A wrong or expired token is answered with a VoiceXML apology, not the agent.
      </p>
    </section>
  );
}

export function AppOverview({ app }: { app: AppRecord }) {
  const load = useLoad(() => getChannel(app.streamId), [app.streamId]);
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
      <Loaded load={load} label="Loading the IVR channel…">
        {(channel) => (
          <>
            <Channel app={app} channel={channel} onChange={(c) => load.state === 'ready' && load.set(c)} />
            <Snippet app={app} channel={channel} />
          </>
        )}
      </Loaded>
    </section>
  );
}
