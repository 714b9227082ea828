/**
 * Minting a webhook token: the service signs it with the channel's client secret and gives it an
 * expiry; the page shows the webhook URL carrying it, when it expires, and a copy button. The
 * overview's snippet then carries the same URL.
 */
import { useState } from 'preact/hooks';
import { mintWebhookToken, type MintedToken } from '../api/client.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorBox } from '../ui/status.js';

const DAY_S = 86_400;
/** The lifetimes offered (the service accepts one minute to 366 days). */
const LIFETIMES: Array<{ seconds: number; label: string }> = [
  { seconds: 3600, label: '1 hour' },
  { seconds: DAY_S, label: '1 day' },
  { seconds: 7 * DAY_S, label: '7 days' },
  { seconds: 30 * DAY_S, label: '30 days' },
  { seconds: 365 * DAY_S, label: '365 days' },
];

export function WebhookToken({
  streamId,
  minted,
  onMinted,
}: {
  streamId: string;
  minted: MintedToken | null;
  onMinted: (t: MintedToken) => void;
}) {
  const [lifetime, setLifetime] = useState(String(DAY_S));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mint = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onMinted(await mintWebhookToken(streamId, { expiresInS: Number(lifetime) }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="mint">
      <h3 id="mint-title">A token for your IVR platform</h3>
      <form class="row" onSubmit={(e) => void mint(e)}>
        <div class="field narrow">
          <label for="token-lifetime">Valid for</label>
          <select id="token-lifetime" value={lifetime} onChange={(e) => setLifetime(e.currentTarget.value)}>
            {LIFETIMES.map((l) => (
              <option key={l.seconds} value={String(l.seconds)}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Minting…' : 'Mint a token'}
        </button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      {minted ? (
        <dl class="facts" data-testid="minted-token">
          <dt>Webhook URL with the token</dt>
          <dd>
            <code data-testid="minted-webhook-url">{minted.webhookUrl}</code>{' '}
            <CopyButton text={minted.webhookUrl} label="Copy the URL with the token" />
          </dd>
          <dt>Expires</dt>
          <dd>
            <time dateTime={minted.expiresAt} data-testid="token-expires">
              {new Date(minted.expiresAt).toLocaleString()}
            </time>{' '}
            <span class="muted">(mint a new one before then, or calls are refused)</span>
          </dd>
        </dl>
      ) : null}
    </div>
  );
}
