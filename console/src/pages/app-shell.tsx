/** One app's pages: its name, the tabs (each a URL) and the page of the current tab. */
import { useLocation, useRoute } from 'preact-iso';
import { getApp } from '../api/client.js';
import { lazyPage } from '../ui/lazy-page.js';
import { PageBoundary } from '../ui/page-boundary.js';
import { ApiError } from '../api/http.js';
import { ErrorBox, Loaded } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';
import { AppOverview } from './app-overview.js';
import { NotFound } from './not-found.js';

const AgentPage = lazyPage(() => import('./agent/agent-page.js').then((m) => m.AgentPage));
const SettingsPage = lazyPage(() => import('./settings/settings-page.js').then((m) => m.SettingsPage));
const SandboxPage = lazyPage(() => import('./sandbox-page.js').then((m) => m.SandboxPage));
const TestRunsPage = lazyPage(() => import('./testruns/test-runs-page.js').then((m) => m.TestRunsPage));
const HistoryPage = lazyPage(() => import('./history/history-page.js').then((m) => m.HistoryPage));
/** The web caller (its own chunk: it bundles the VoiceXML interpreter); linked from the overview and the sandbox page. */
const CallPage = lazyPage(() => import('./call/call-page.js').then((m) => m.CallPage));
const CallsPage = lazyPage(() => import('./calls/calls-page.js').then((m) => m.CallsPage));
const CallDetailPage = lazyPage(() => import('./calls/call-detail-page.js').then((m) => m.CallDetailPage));
const VersionsPage = lazyPage(() => import('./versions/versions-page.js').then((m) => m.VersionsPage));
const SkillGroupsPage = lazyPage(() => import('./skill-groups-page.js').then((m) => m.SkillGroupsPage));

const TABS = [
  { slug: '', label: 'Overview' },
  { slug: 'agent', label: 'Agent' },
  { slug: 'ivr-settings', label: 'IVR settings' },
  { slug: 'versions', label: 'Versions' },
  { slug: 'sandbox', label: 'Sandbox' },
  { slug: 'test-runs', label: 'Test runs' },
  { slug: 'calls', label: 'Calls' },
  { slug: 'history', label: 'History' },
  { slug: 'skill-groups', label: 'Skill groups' },
] as const;

export function AppShell() {
  const { params } = useRoute();
  const { path } = useLocation();
  const streamId = params.streamId ?? '';
  const tab = path.split('/')[4] ?? '';
  /** /console/apps/{streamId}/calls/{callId}: one call in the inspector */
  const callId = tab === 'calls' ? decodeURIComponent(path.split('/')[5] ?? '') : '';
  const load = useLoad(() => getApp(streamId), [streamId]);
  const base = `/console/apps/${streamId}`;
  if (load.state === 'error' && load.error instanceof ApiError && load.error.status === 404) {
    // trying again cannot help: the app was deleted, or the link is wrong
    return (
      <>
        <ErrorBox error={load.error} title="No such app" />
        <p>
          <a href="/console/">Back to the apps</a>
        </p>
      </>
    );
  }
  return (
    <Loaded load={load} label="Loading the app…">
      {(app) => (
        <div class="app-shell">
          <p class="crumbs">
            <a href="/console/">Apps</a> <span aria-hidden="true">›</span> {app.name}
          </p>
          <nav class="tabs" aria-label={`${app.name} pages`}>
            {TABS.map((t) => (
              <a
                key={t.slug}
                href={t.slug ? `${base}/${t.slug}` : base}
                aria-current={tab === t.slug ? 'page' : undefined}
              >
                {t.label}
              </a>
            ))}
          </nav>
          {/* a tab that fails (its chunk did not load) says so below the tabs, which stay usable */}
          <PageBoundary resetKey={tab}>
            <div class="tab-page">
              {tab === '' ? <AppOverview app={app} /> : null}
              {tab === 'agent' ? <AgentPage app={app} /> : null}
              {tab === 'ivr-settings' ? <SettingsPage app={app} /> : null}
              {tab === 'sandbox' ? <SandboxPage app={app} /> : null}
              {tab === 'test-runs' ? <TestRunsPage app={app} /> : null}
              {tab === 'calls' ? (
                callId ? (
                  <CallDetailPage key={callId} app={app} callId={callId} />
                ) : (
                  <CallsPage app={app} />
                )
              ) : null}
              {tab === 'history' ? <HistoryPage app={app} /> : null}
              {tab === 'skill-groups' ? <SkillGroupsPage app={app} /> : null}
              {tab === 'versions' ? <VersionsPage app={app} /> : null}
              {tab === 'call' ? <CallPage app={app} /> : null}
              {!TABS.some((t) => t.slug === tab) && tab !== 'call' ? <NotFound /> : null}
            </div>
          </PageBoundary>
        </div>
      )}
    </Loaded>
  );
}
