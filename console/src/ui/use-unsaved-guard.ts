/**
 * Keeps a page's unsaved draft from being thrown away silently. While `dirty`:
 * - closing or reloading the tab asks with the browser's own prompt (a `beforeunload` handler);
 * - a click on a link the console's router would follow to another page asks with the console's
 *   confirm dialog first. The click is held back at once (a capture listener on document, before
 *   preact-iso's LocationProvider sees it on window); on "Leave" the navigation is issued again
 *   through the router, on Cancel (or Escape) the page and its draft stay.
 * Links the router does not handle (other origins, new tabs, downloads, outside /console/) load a
 * new document, and the `beforeunload` prompt covers them. Answers the dialog to render.
 */
import { h, type ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConfirm } from './confirm-dialog.js';

/** The LocationProvider's scope (app.tsx): links whose href starts with it are routed in the page. */
const ROUTER_SCOPE = '/console/';

/** The link a click would make the router follow to another page, as preact-iso decides it; null when none. */
function routedLink(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return null;
  const link = e
    .composedPath()
    .find((el): el is HTMLAnchorElement => el instanceof HTMLAnchorElement && el.href !== '');
  if (!link) return null;
  const href = link.getAttribute('href') ?? '';
  if (
    link.origin !== location.origin ||
    href.startsWith('#') ||
    !/^(_?self)?$/i.test(link.target) ||
    link.download ||
    !href.startsWith(ROUTER_SCOPE)
  )
    return null;
  const to = new URL(link.href);
  // the same page (another query, a fragment) keeps the draft
  return to.pathname.replace(/\/+$/, '') === location.pathname.replace(/\/+$/, '') ? null : to;
}

/** `what` names the draft in the question: "Your changes to {what} are not saved." */
export function useUnsavedGuard(dirty: boolean, what: string): ComponentChildren {
  const [dialog, ask] = useConfirm();
  const { route } = useLocation();
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    const onClick = (e: MouseEvent) => {
      const to = routedLink(e);
      if (!to) return;
      e.preventDefault();
      e.stopPropagation();
      void ask({
        title: 'Leave without saving?',
        body: h('p', null, `Your changes to ${what} are not saved.`),
        confirmLabel: 'Leave without saving',
        danger: true,
      }).then((ok) => {
        if (ok) route(to.pathname + to.search + to.hash);
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, what, ask, route]);
  return dialog;
}
