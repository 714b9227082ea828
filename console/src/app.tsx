/**
 * The console's shell: the sign-in gate (the session lives in an httpOnly cookie; a 401 on any
 * operator call brings the sign-in form back), the header and navigation, and the routes. Every
 * page has its own URL under /console/.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { currentSession, onSignedOut, signOut } from './api/client.js';
import { SignIn } from './pages/sign-in.js';
import { AppsPage } from './pages/apps-page.js';
import { AppShell } from './pages/app-shell.js';
import { NotFound } from './pages/not-found.js';
import { Loading } from './ui/status.js';
import { lazyPage } from './ui/lazy-page.js';
import { PageBoundary } from './ui/page-boundary.js';

const ConnectionsPage = lazyPage(() => import('./pages/connections-page.js').then((m) => m.ConnectionsPage));
const TablesPage = lazyPage(() => import('./pages/tables-page.js').then((m) => m.TablesPage));

type Auth = 'checking' | 'signed-in' | 'signed-out';

function Header({ onSignOut }: { onSignOut: () => void }) {
  const { path } = useLocation();
  const current = (prefix: string) => (path === prefix || (prefix !== '/console/' && path.startsWith(prefix)) || (prefix === '/console/' && path.startsWith('/console/apps')) ? 'page' : undefined);
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
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </PageBoundary>
  );
}

export function App() {
  const [auth, setAuth] = useState<Auth>('checking');
  useEffect(() => {
    currentSession().then(
      () => setAuth('signed-in'),
      () => setAuth('signed-out'),
    );
    return onSignedOut(() => setAuth('signed-out'));
  }, []);
  const doSignOut = () => {
    void signOut().finally(() => setAuth('signed-out'));
  };
  if (auth === 'checking') return <Loading label="Checking your session…" />;
  if (auth === 'signed-out') return <SignIn onSignedIn={() => setAuth('signed-in')} />;
  return (
    <LocationProvider scope="/console/">
      <Header onSignOut={doSignOut} />
      <main id="main" tabIndex={-1}>
        <Routes />
      </main>
    </LocationProvider>
  );
}
