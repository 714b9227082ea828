/**
 * A page loaded on demand (its own chunk), as preact-iso's `lazy`, except that a chunk that fails
 * to load (the network, or a redeploy that renamed the chunks this page still names) does not leave
 * the page blank: the page then throws a PageLoadError when it renders, which the nearest
 * PageBoundary shows with a way to reload.
 */
import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';

/** A page's code could not be fetched; a reload gets the current console. */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super(
      'This page could not be loaded. The console may have been updated since it was opened: reload the page to get the current version.',
      { cause },
    );
    this.name = 'PageLoadError';
  }
}

export function lazyPage<P>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() =>
    load().catch((cause: unknown): ComponentType<P> => {
      // preact-iso keeps what the load answered: every later render of this page fails the same way until a reload
      const error = new PageLoadError(cause);
      return function FailedPage(): never {
        throw error;
      };
    }),
  ) as ComponentType<P>;
}
