/**
 * An app's API apps (the JWT clients of its public APIs), on the app's overview: name, client id,
 * scopes and when each was made, and deletion after a confirmation naming what stops working.
 * The console's own ("Operator console") is marked as such: deleting it is allowed, and the
 * console makes a new one the next time a page needs the public APIs.
 */
import { deleteApiApp, listApiApps, type ApiAppListed, type AppRecord } from '../api/client.js';
import { CONSOLE_CREDENTIAL, CredentialList } from '../ui/credential-list.js';
import { useLoad } from '../ui/use-load.js';

export function ApiApps({ app }: { app: AppRecord }) {
  const load = useLoad(() => listApiApps(app.streamId).then((r) => r.apiApps), [app.streamId]);
  return (
    <CredentialList<ApiAppListed>
      id="api-apps"
      what="API app"
      title="API apps"
      help={
        <>
          Clients of this app&apos;s public APIs (history, test runs, skill groups, tables) sign their tokens
          with an API app&apos;s secret. The console uses one of its own, named “{CONSOLE_CREDENTIAL}”.
        </>
      }
      load={load}
      columns={[
        { header: 'Client id', cell: (a) => <code>{a.clientId}</code> },
        { header: 'Scopes', narrow: true, cell: (a) => a.scopes.join(', ') },
        { header: 'Created', narrow: true, cell: (a) => new Date(a.createdOn).toLocaleString() },
      ]}
      keyOf={(a) => a.clientId}
      label={(a) => `${a.name} (${a.clientId})`}
      loss={(a, own) => (
        <>
          Tokens signed with the secret of <code>{a.clientId}</code> are refused at once
          {own
            ? '. This is the console’s own: it makes a new one the next time a page calls the public APIs.'
            : ': whoever uses it loses access to this app’s public APIs.'}
        </>
      )}
      remove={(a) => deleteApiApp(app.streamId, a.clientId)}
    />
  );
}
