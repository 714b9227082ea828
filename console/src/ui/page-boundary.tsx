/**
 * Catches what a page throws while it renders (a chunk that failed to load: lazy-page.ts, or a
 * bug) and shows the console's error box in its place instead of a blank page: for a chunk, with a
 * reload (the only way to the current chunks); otherwise with a retry. Moving to another page
 * (`resetKey`) clears it. Loading (suspending) stays preact-iso's: its Router keeps the previous
 * page until the next one is there.
 */
import { Component, type ComponentChildren } from 'preact';
import { ErrorBox } from './status.js';
import { PageLoadError } from './lazy-page.js';

interface Props {
  /** The page shown; when it changes, a caught error is forgotten. */
  resetKey: string;
  children: ComponentChildren;
}

interface State {
  error: unknown;
}

export class PageBoundary extends Component<Props, State> {
  static override getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override state: State = { error: null };

  override componentDidCatch(error: unknown): void {
    // a bug, for whoever opens the browser's console; a chunk that did not load is said on the page
    if (!(error instanceof PageLoadError)) console.error('The page failed to render:', error);
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof PageLoadError) {
      return (
        <ErrorBox
          error={error}
          title="The page did not load"
          retryLabel="Reload the page"
          onRetry={() => location.reload()}
        />
      );
    }
    return <ErrorBox error={error} title="The page failed" onRetry={() => this.setState({ error: null })} />;
  }
}
