/**
 * Which version of the agent answers turns, and how the training of the latest upload stands: read
 * when the page opens (GET …/agent/status), taken from the answer of a save (202), and read again
 * while the upload trains, until it is live or its training failed.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { agentStatus, ApiError, type AgentStatus } from '../../api/client.js';
import { ErrorBox } from '../../ui/status.js';

const POLL_MS = 1000;

export interface AgentStatusState {
  status: AgentStatus | null;
  /** Whether `status` is the answer of a save made on this page. */
  saved: boolean;
  error: unknown;
  /** Follow the status a save answered. */
  follow: (status: AgentStatus) => void;
  retry: () => void;
}

export function useAgentStatus(streamId: string): AgentStatusState {
  const [status, setStatus] = useState<AgentStatus | null>(null);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  // counts saves: a read started before a save does not overwrite the status the save answered
  const saves = useRef(0);

  // the status when the page opens (404: no agent yet) and again on a retry
  useEffect(() => {
    let stopped = false;
    const save = saves.current;
    setError(null);
    agentStatus(streamId).then(
      (s) => !stopped && save === saves.current && setStatus(s),
      (err: unknown) => !stopped && !(err instanceof ApiError && err.status === 404) && setError(err),
    );
    return () => {
      stopped = true;
    };
  }, [streamId, tick]);

  // while the latest upload trains, read the status again
  useEffect(() => {
    if (status?.state !== 'training') return;
    let stopped = false;
    const timer = setTimeout(() => {
      agentStatus(streamId).then(
        (s) => !stopped && setStatus(s),
        (err: unknown) => !stopped && setError(err),
      );
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [status, streamId]);

  return {
    status,
    saved,
    error,
    follow: (s) => {
      saves.current += 1;
      setError(null);
      setSaved(true);
      setStatus(s);
    },
    retry: () => setTick((t) => t + 1),
  };
}

const since = (iso: string | undefined) => (iso ? ` since ${new Date(iso).toLocaleTimeString()}` : '');

function text(status: AgentStatus, saved: boolean): string {
  const meanwhile = status.liveVersion
    ? ` Turns use version ${status.liveVersion} meanwhile.`
    : ' No version answers turns yet.';
  if (status.state === 'training')
    return `${saved ? 'Saved; training…' : `Training version ${status.latestVersion}…`}${meanwhile}`;
  const draft = status.draftVersion
    ? ` Draft: version ${status.draftVersion} (the test sandbox may use it; publish it on the Versions tab).`
    : '';
  if (status.state === 'ready' && !status.liveVersion) return `No version is published yet.${draft}`;
  if (status.state === 'ready')
    return `Live: version ${status.liveVersion}${since(status.liveSince)}.${draft}`;
  return `Version ${status.latestVersion} was saved but its training failed.${status.liveVersion ? ` Turns use version ${status.liveVersion}.` : ''}`;
}

export function AgentStatusView({ state }: { state: AgentStatusState }) {
  const { status, saved, error } = state;
  return (
    <>
      <p class="small" role="status" data-testid="agent-status">
        {status ? text(status, saved) : ''}
      </p>
      {status?.state === 'failed' ? (
        <ErrorBox error={new Error(status.error ?? 'The training failed.')} title="The training failed" />
      ) : null}
      {error ? (
        <ErrorBox error={error} title="The training status could not be read" onRetry={state.retry} />
      ) : null}
    </>
  );
}
