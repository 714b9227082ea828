/**
 * The sandbox's lockouts: which number, client address or caller (address and `from`) is slowed or
 * locked after wrong PIN entries, with its wrong entries and until when; the operator ends one, or
 * all of them, after a confirmation (an ended lockout cannot be put back), so a tester gets in
 * again at once.
 */
import { useState } from 'preact/hooks';
import {
  clearSandboxLockouts,
  sandboxLockouts,
  type AppRecord,
  type LockoutFilter,
  type SandboxLockout,
} from '../api/client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

/** Who a lockout refuses, in words. */
function who(l: SandboxLockout): string {
  if (l.kind === 'number') return 'The number (every caller)';
  if (l.kind === 'address') return `Address ${l.address ?? '?'} (every sandbox number)`;
  return `${l.from ?? '?'} at ${l.address ?? '?'}`;
}

/** The filter that ends exactly this lockout. */
const filterOf = (l: SandboxLockout): LockoutFilter => ({
  kind: l.kind,
  ...(l.address ? { address: l.address } : {}),
  ...(l.from ? { from: l.from } : {}),
});

export function SandboxLockouts({ app }: { app: AppRecord }) {
  const load = useLoad(() => sandboxLockouts(app.streamId), [app.streamId]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const [confirm, ask] = useConfirm();

  const clear = async (filter: LockoutFilter) => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const answer = await clearSandboxLockouts(app.streamId, filter);
      setDone(`Cleared ${answer.cleared.length} lockout${answer.cleared.length === 1 ? '' : 's'}.`);
      load.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const clearOne = async (l: SandboxLockout) => {
    const ok = await ask({
      title: `Clear the lockout of ${who(l).replace(/^The /, 'the ')}?`,
      body: (
        <p>
          {l.state === 'locked' ? 'Locked' : 'Slowed'} until {new Date(l.until).toLocaleString()} after{' '}
          {l.wrongEntries} wrong entr{l.wrongEntries === 1 ? 'y' : 'ies'}. Cleared, the PIN may be tried again
          from there at once and the wrong entries count from zero; a cleared lockout cannot be put back.
        </p>
      ),
      confirmLabel: 'Clear',
      danger: true,
    });
    if (ok) await clear(filterOf(l));
  };
  const clearAll = async () => {
    const ok = await ask({
      title: `Clear every lockout of “${app.name}”'s sandbox?`,
      body: (
        <p>
          Every caller, address and the number itself may try the PIN again at once; their wrong entries count
          from zero.
        </p>
      ),
      confirmLabel: 'Clear all',
      danger: true,
    });
    if (ok) await clear({});
  };

  return (
    <section class="card" aria-labelledby="lockouts-title" data-testid="sandbox-lockouts">
      <h2 id="lockouts-title">Lockouts</h2>
      <p class="muted small">
        Wrong PIN entries slow the number down or lock a caller or an address out for a while.
      </p>
      <Loaded load={load} label="Loading the lockouts…">
        {(data) => (
          <>
            {data.lockouts.length === 0 ? (
              <p class="empty">No caller, address or number is slowed or locked out now.</p>
            ) : (
              <div class="table-scroll">
                <table class="list" aria-labelledby="lockouts-title">
                  <thead>
                    <tr>
                      <th scope="col">Who</th>
                      <th scope="col">State</th>
                      <th scope="col">Wrong entries</th>
                      <th scope="col">Until</th>
                      <th scope="col">
                        <span class="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.lockouts.map((l) => (
                      <tr key={`${l.kind} ${l.address ?? ''} ${l.from ?? ''}`}>
                        <td>{who(l)}</td>
                        <td>{l.state}</td>
                        <td>{l.wrongEntries}</td>
                        <td>
                          <time dateTime={l.until}>{new Date(l.until).toLocaleString()}</time>
                        </td>
                        <td class="actions-cell">
                          <button
                            type="button"
                            disabled={busy}
                            aria-label={`Clear ${who(l)}`}
                            onClick={() => void clearOne(l)}
                          >
                            Clear
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {data.truncated ? (
              <p class="muted small">
                There were more counters than one listing reads: some lockouts may be missing here.
              </p>
            ) : null}
            <div class="actions">
              <button type="button" class="subtle" onClick={load.reload}>
                Refresh the lockouts
              </button>
              {data.lockouts.length ? (
                <button type="button" class="danger" disabled={busy} onClick={() => void clearAll()}>
                  Clear all
                </button>
              ) : null}
            </div>
          </>
        )}
      </Loaded>
      <p class="muted small" role="status">
        {done}
      </p>
      {error ? <ErrorBox error={error} title="The lockouts were not cleared" /> : null}
      {confirm}
    </section>
  );
}
