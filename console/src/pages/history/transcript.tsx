/** One conversation as a transcript: who said what, when, and for caller turns the ASR confidence and input mode. */
import { getMessages, type AppRecord } from '../../api/client.js';
import { Loaded } from '../../ui/status.js';
import { useLoad } from '../../ui/use-load.js';

const confidenceText = (c: string | undefined): string => {
  const n = Number(c);
  return c === undefined || !Number.isFinite(n) ? '-' : `${Math.round(n * 100)}%`;
};

/** The IVR call (or calls) the conversation's messages belong to, each a link to its page in the call inspector. */
function CallLinks({ app, callIds }: { app: AppRecord; callIds: string[] }) {
  if (callIds.length === 0) return null;
  return (
    <ul class="call-links" data-testid="call-links">
      {callIds.map((id) => (
        <li key={id}>
          <a href={`/console/apps/${encodeURIComponent(app.streamId)}/calls/${encodeURIComponent(id)}`}>
            Open the call <code>{id}</code> in the inspector
          </a>
        </li>
      ))}
    </ul>
  );
}

interface TranscriptProps {
  app: AppRecord;
  sessionId: string;
  channelType: string;
  /** The days the list was searched in (else the last seven): a conversation found there is read there. */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  onClose: () => void;
}

export function Transcript({ app, sessionId, channelType, dateFrom, dateTo, onClose }: TranscriptProps) {
  const load = useLoad(
    () => getMessages(app.streamId, { sessionId, channelType, dateFrom, dateTo, forward: true }),
    [app.streamId, sessionId, channelType, dateFrom, dateTo],
  );
  return (
    <section class="card transcript" aria-labelledby="transcript-title" data-testid="transcript">
      <div class="editor-head">
        <h2 id="transcript-title">
          Transcript <code>{sessionId}</code>
        </h2>
        <button type="button" onClick={onClose}>
          Back to the list
        </button>
      </div>
      <Loaded load={load} label="Loading the transcript…">
        {(data) =>
          data.messages.length === 0 ? (
            <p class="empty">
              This conversation has no messages{' '}
              {dateFrom || dateTo ? 'in the days searched' : 'in the last seven days'}.
            </p>
          ) : (
            <>
              <CallLinks
                app={app}
                callIds={[
                  ...new Set(data.messages.map((m) => m.callId).filter((c): c is string => Boolean(c))),
                ]}
              />
              <ol class="turns">
                {[...data.messages]
                  .sort((a, b) => a.createdOn.localeCompare(b.createdOn) || (a.type === 'incoming' ? -1 : 1))
                  .map((m) => {
                    const text = m.components[0]?.data.text ?? '';
                    const asr = m.asrMetaData;
                    return (
                      <li key={m._id} class={m.type === 'incoming' ? 'turn caller' : 'turn agent'}>
                        <p class="who">
                          <strong>{m.type === 'incoming' ? 'Caller' : 'Agent'}</strong>{' '}
                          <time dateTime={m.createdOn}>{new Date(m.createdOn).toLocaleTimeString()}</time>
                        </p>
                        <p class="said">{text || <span class="muted">(no words)</span>}</p>
                        {m.type === 'incoming' && asr ? (
                          <p class="asr small" data-testid="asr">
                            ASR confidence <strong>{confidenceText(asr.confidence)}</strong> · input mode{' '}
                            <strong>{asr.Inputmode ?? '-'}</strong>
                          </p>
                        ) : null}
                      </li>
                    );
                  })}
              </ol>
            </>
          )
        }
      </Loaded>
    </section>
  );
}
