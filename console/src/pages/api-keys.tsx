/**
 * The API keys of the model connections API, on the Connections page: name, scopes and when each
 * was made (never the key), and deletion after a confirmation naming what stops working. The
 * console's own ("Operator console") is marked: deleting it is allowed, and the console makes a new
 * one the next time the page calls the connections API.
 */
import { deleteApiKey, listApiKeys, type ApiKeyListed } from '../api/client.js';
import { CredentialList } from '../ui/credential-list.js';
import { useLoad } from '../ui/use-load.js';

export function ApiKeys() {
  const load = useLoad(() => listApiKeys().then((r) => r.apiKeys), []);
  return (
    <CredentialList<ApiKeyListed>
      id="api-keys"
      what="API key"
      title="API keys"
      help={
        <>
          Clients of the connections API send an API key (<code>x-api-key</code>); it is shown once, when it
          is made (<code>POST /api/admin/api-keys</code>). Keys made before this list existed are not in it.
        </>
      }
      load={load}
      columns={[
        { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
        { header: 'Created', narrow: true, cell: (k) => new Date(k.createdOn).toLocaleString() },
      ]}
      keyOf={(k) => k.id}
      label={(k) => k.name}
      loss={(_k, own) => (
        <>
          Requests that send it are refused at once
          {own
            ? '. This is the console’s own: it makes a new one the next time this page calls the connections API.'
            : ': whoever uses it loses access to the connections API.'}
        </>
      )}
      remove={(k) => deleteApiKey(k.id)}
    />
  );
}
