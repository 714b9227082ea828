/**
 * The inspector's live feed (Server-Sent Events) through the browser's EventSource: same origin, so
 * the console's session cookie authorises it like any operator call. EventSource reconnects by
 * itself and sends Last-Event-ID, so the service resumes after the last turn this page saw. Closed
 * when the page goes away or `enabled` turns false.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { callFeedUrl, type FeedTurn } from '../../api/client.js';

export type FeedState = 'off' | 'connecting' | 'live' | 'reconnecting';

export function useCallFeed(
  streamId: string,
  onTurn: (turn: FeedTurn) => void,
  opts: { callId?: string; enabled?: boolean } = {},
): FeedState {
  const [state, setState] = useState<FeedState>('off');
  const handler = useRef(onTurn);
  handler.current = onTurn;
  const enabled = opts.enabled ?? true;
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      setState('off');
      return;
    }
    setState('connecting');
    const source = new EventSource(callFeedUrl(streamId, opts.callId));
    source.onopen = () => setState('live');
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'off' : 'reconnecting');
    source.addEventListener('turn', (e) => {
      try {
        handler.current(JSON.parse((e as MessageEvent<string>).data) as FeedTurn);
      } catch {
        // an event this page cannot read is skipped; the next reload shows the call as stored
      }
    });
    return () => source.close();
  }, [streamId, opts.callId, enabled]);
  return state;
}

const STATE_TEXT: Record<FeedState, string> = {
  off: 'Live updates are off',
  connecting: 'Connecting to live updates…',
  live: 'Live: new turns appear as they come',
  reconnecting: 'Live updates interrupted; reconnecting…',
};

export const feedStateText = (s: FeedState): string => STATE_TEXT[s];
