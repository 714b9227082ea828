/** Loading and error states, and the list of a 4xx answer's problems. */
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client.js';
import type { Load } from './use-load.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

interface ErrorBoxProps {
  error: unknown;
  onRetry?: () => void;
  /** The retry button's words (default "Try again"). */
  retryLabel?: string;
  title?: string;
}

export function ErrorBox({
  error,
  onRetry,
  retryLabel = 'Try again',
  title = 'Something went wrong',
}: ErrorBoxProps) {
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div class="error-box" role="alert">
      <strong>{title}</strong>
      {details.length > 1 ? (
        <ul>
          {details.map((d, i) => (
            <li key={i}>
              {d.path ? <code>{d.path}</code> : null} {d.msg}
            </li>
          ))}
        </ul>
      ) : (
        <p>{errorText(error)}</p>
      )}
      {error instanceof ApiError && error.requestId ? (
        <p class="muted small">Request id {error.requestId}</p>
      ) : null}
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          {retryLabel}
        </button>
      ) : null}
    </div>
  );
}

/**
 * Renders `children(data)` when ready; a loading line, or an error box otherwise: with a retry, or
 * without one when the service answered 404 (trying again cannot bring back what is not there).
 */
export function Loaded<T>({
  load,
  label,
  children,
}: {
  load: Load<T>;
  label?: string;
  children: (data: T) => ComponentChildren;
}) {
  if (load.state === 'loading') return <Loading label={label} />;
  if (load.state === 'error' && load.error instanceof ApiError && load.error.status === 404)
    return <ErrorBox error={load.error} title="Not found" />;
  if (load.state === 'error') return <ErrorBox error={load.error} onRetry={load.reload} />;
  return <>{children(load.data)}</>;
}
