/**
 * The console's shell: the sign-in gate (the session lives in an httpOnly cookie; a 401 on any
 * operator call brings the sign-in form back), the header and navigation, and the routes. Every
 * page has its own URL under /console/.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { currentSession, onSignedOut, signOut, type SessionHolder } from './api/client.js';
import { HolderContext, useCan } from './ui/roles.js';
import { InvitationPage } from './pages/invitation-page.js';
import { SignIn } from './pages/sign-in.js';
import { AppsPage } from './pages/apps-page.js';
import { AppShell } from './pages/app-shell.js';
import { NotFound } from './pages/not-found.js';
import { Loading } from './ui/status.js';
import { lazyPage } from './ui/lazy-page.js';
import { PageBoundary } from './ui/page-boundary.js';

const ConnectionsPage = lazyPage(() => import('./pages/connections-page.js').then((m) => m.ConnectionsPage));
const TablesPage = lazyPage(() => import('./pages/tables-page.js').then((m) => m.TablesPage));
const AccountsPage = lazyPage(() => import('./pages/accounts-page.js').then((m) => m.AccountsPage));
const AuditPage = lazyPage(() => import('./pages/audit-page.js').then((m) => m.AuditPage));
const MyAccountPage = lazyPage(() => import('./pages/my-account-page.js').then((m) => m.MyAccountPage));

type Auth = 'checking' | 'signed-in' | 'signed-out';

function Header({ onSignOut }: { onSignOut: () => void }) {
  const { path } = useLocation();
  const owner = useCan('owner');
  const current = (prefix: string) =>
    path === prefix ||
    (prefix !== '/console/' && path.startsWith(prefix)) ||
    (prefix === '/console/' && path.startsWith('/console/apps'))
      ? 'page'
      : undefined;
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <a class="brand" href="/console/">
        IVR gateway <span>console</span>
      </a>
      <nav aria-label="Main">
        <a href="/console/" aria-current={current('/console/')}>
          Apps
        </a>
        <a href="/console/connections" aria-current={current('/console/connections')}>
          Connections
        </a>
        <a href="/console/tables" aria-current={current('/console/tables')}>
          Data tables
        </a>
        <a href="/console/audit" aria-current={current('/console/audit')}>
          Audit
        </a>
        {owner ? (
          <a href="/console/accounts" aria-current={current('/console/accounts')}>
            Accounts
          </a>
        ) : null}
        <a
          href="/console/account"
          aria-current={current('/console/account') && path === '/console/account' ? 'page' : undefined}
        >
          Your account
        </a>
        <a href="/docs/" target="_blank" rel="noopener">
          API reference
        </a>
      </nav>
      <button type="button" class="sign-out" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}

function Routes() {
  const { path } = useLocation();
  // a page that fails to render (or whose chunk did not load) shows an error box, not a blank page
  return (
    <PageBoundary resetKey={path}>
      <ErrorBoundary>
        <Router>
          <Route path="/console/" component={AppsPage} />
          <Route path="/console/apps/:streamId/*" component={AppShell} />
          <Route path="/console/apps/:streamId" component={AppShell} />
          <Route path="/console/connections" component={ConnectionsPage} />
          <Route path="/console/connections/:connectionId" component={ConnectionsPage} />
          <Route path="/console/tables" component={TablesPage} />
          <Route path="/console/tables/:tableName" component={TablesPage} />
          <Route path="/console/audit" component={AuditPage} />
          <Route path="/console/accounts" component={AccountsPage} />
          <Route path="/console/account" component={MyAccountPage} />
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </PageBoundary>
  );
}

const ADMIN: SessionHolder = { kind: 'admin', grants: [{ role: 'owner' }] };

export function App() {
  const [auth, setAuth] = useState<Auth>(
    location.pathname === '/console/invitation' ? 'signed-out' : 'checking',
  );
  const [holder, setHolder] = useState<SessionHolder>(ADMIN);
  const [invitation, setInvitation] = useState(location.pathname === '/console/invitation');
  useEffect(() => {
    if (invitation) return onSignedOut(() => setAuth('signed-out'));
    currentSession().then(
      (s) => {
        setHolder(s.holder ?? ADMIN);
        setAuth('signed-in');
      },
      () => setAuth('signed-out'),
    );
    return onSignedOut(() => setAuth('signed-out'));
  }, [invitation]);
  const doSignOut = () => {
    void signOut().finally(() => setAuth('signed-out'));
  };
  if (invitation) {
    return (
      <InvitationPage
        onDone={() => {
          history.replaceState(null, '', '/console/');
          setInvitation(false);
          setAuth('signed-out');
        }}
      />
    );
  }
  if (auth === 'checking') return <Loading label="Checking your session…" />;
  if (auth === 'signed-out') {
    return (
      <SignIn
        onSignedIn={(h) => {
          setHolder(h ?? ADMIN);
          setAuth('signed-in');
        }}
      />
    );
  }
  return (
    <HolderContext.Provider value={holder}>
      <LocationProvider scope="/console/">
        <Header onSignOut={doSignOut} />
        <main id="main" tabIndex={-1}>
          <Routes />
        </main>
      </LocationProvider>
    </HolderContext.Provider>
  );
}
