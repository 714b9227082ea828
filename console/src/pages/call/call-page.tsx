/**
 * The web caller: the same VoiceXML interpreter as the terminal caller (sandbox/), run in the page
 * against this origin. Dial the app's sandbox number (PIN and secret on the keypad, or filled in) or
 * its webhook directly (a minted token, a generated callId, a `from` and a language of your choice), in lenient or
 * strict-w3c mode, as a browser of the chosen dialect (only the builtin grammars and transcription
 * that dialect's profile lists exist: GET /api/admin/ivr/dialects); hear the prompts (speech synthesis) and answer by typing, keys, the microphone or
 * silence; see the transcript, the documents, the listening field and its grammars, the events and
 * how the call ended.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  getAgent,
  listDialects,
  mintWebhookToken,
  sandboxStatus,
  type AppRecord,
  type DialectProfile,
  type SandboxStatus,
} from '../../api/client.js';
import {
  runCall,
  type CallerInput,
  type InputRequest,
  type CallResult,
  type RunCallOptions,
} from '../../../../sandbox/browser.js';
import { ErrorBox } from '../../ui/status.js';
import { CallEnded, EventsView, TranscriptView, WaitingField } from './call-view.js';
import { agentLanguages, newCallId, SetupForm, type Setup } from './call-setup.js';
import { Keypad } from './keypad.js';
import { recognizerClass, Speaker, type Recognizer } from './speech.js';
import { WebInput } from './web-input.js';
import { WebTranscript, type TranscriptEntry } from './web-transcript.js';
import './call-page.css';

/** The same URL on this origin (the page may only connect to itself: CSP connect-src 'self'). */
const sameOrigin = (url: string): string => {
  const u = new URL(url, location.origin);
  return `${location.origin}${u.pathname}${u.search}`;
};

function Answers({
  waiting,
  onAnswer,
  onKey,
  lang,
}: {
  waiting: InputRequest | null;
  onAnswer: (i: CallerInput) => void;
  onKey: () => void;
  lang: string;
}) {
  const [text, setText] = useState('');
  const [confidence, setConfidence] = useState(0.9);
  const [listening, setListening] = useState(false);
  const [micError, setMicError] = useState('');
  const recognizer = useRef<Recognizer | null>(null);
  const Recognition = recognizerClass();
  const enabled = waiting !== null;
  const say = (e: Event) => {
    e.preventDefault();
    if (!enabled || text.trim() === '') return;
    onAnswer({ kind: 'speech', text: text.trim(), confidence });
    setText('');
  };
  const listen = () => {
    if (!Recognition) return;
    onKey();
    setMicError('');
    const r = new Recognition();
    r.lang = lang;
    r.interimResults = false;
    r.maxAlternatives = 1;
    r.onresult = (ev) => {
      const best = ev.results[0]?.[0];
      if (best)
        onAnswer({ kind: 'speech', text: best.transcript, confidence: best.confidence || confidence });
    };
    r.onerror = (ev) =>
      setMicError(ev.error === 'no-speech' ? 'Nothing was heard.' : `The microphone failed: ${ev.error}.`);
    r.onend = () => setListening(false);
    recognizer.current = r;
    setListening(true);
    r.start();
  };
  return (
    <section class="card answers" aria-labelledby="answers-title">
      <h2 id="answers-title">Answer</h2>
      <form class="row" onSubmit={say}>
        <div class="field">
          <label for="call-say">What you say</label>
          <input
            id="call-say"
            value={text}
            autoComplete="off"
            onInput={(e) => {
              setText(e.currentTarget.value);
              onKey();
            }}
          />
        </div>
        <div class="field narrow">
          <label for="call-confidence">Confidence {confidence.toFixed(2)}</label>
          <input
            id="call-confidence"
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={confidence}
            onInput={(e) => setConfidence(Number(e.currentTarget.value))}
          />
        </div>
        <button type="submit" class="primary" disabled={!enabled}>
          Say it
        </button>
        <button type="button" disabled={!enabled} onClick={() => onAnswer({ kind: 'noinput' })}>
          Silence
        </button>
      </form>
      {Recognition ? (
        <p>
          <button type="button" disabled={!enabled || listening} onClick={listen}>
            {listening ? 'Listening…' : 'Speak into the microphone'}
          </button>{' '}
          {micError ? <span class="warn">{micError}</span> : null}
        </p>
      ) : (
        <p class="note" data-testid="no-microphone">
          This browser offers no speech recognition, so the microphone cannot be used here: type what you
          would say.
        </p>
      )}
      <Keypad enabled={enabled} onKey={onKey} onSend={(digits) => onAnswer({ kind: 'dtmf', digits })} />
    </section>
  );
}

export function CallPage({ app }: { app: AppRecord }) {
  const [setup, setSetup] = useState<Setup>({
    target: 'sandbox',
    mode: 'strict-w3c',
    dialect: 'w3c',
    hangupTo: 'innermost',
    callId: newCallId(),
    from: '+15550001111',
    pin: '',
    secret: '',
    language: '',
  });
  const [entries, setEntries] = useState<TranscriptEntry[]>([]);
  const [waiting, setWaiting] = useState<InputRequest | null>(null);
  const [running, setRunning] = useState(false);
  const [dialling, setDialling] = useState(false);
  const [result, setResult] = useState<CallResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sound, setSound] = useState(false);
  const [lastPrompt, setLastPrompt] = useState('');
  const [activeCallId, setActiveCallId] = useState('');
  const [sandbox, setSandbox] = useState<SandboxStatus | null>(null);
  const [dialects, setDialects] = useState<DialectProfile[]>([]);
  const [languages, setLanguages] = useState<string[]>([]);
  /** The language the running call's prompts are heard and its answers recognised in. */
  const [callLanguage, setCallLanguage] = useState(app.language);
  const speaker = useRef(new Speaker());
  const input = useRef<WebInput | null>(null);
  const waitingRef = useRef<InputRequest | null>(null);
  waitingRef.current = waiting;
  useEffect(() => {
    sandboxStatus(app.streamId).then(setSandbox, setError);
    // without the profiles the call still runs, with the mode's builtins (the note says so)
    listDialects().then(
      (r) => setDialects(r.dialects),
      () => setDialects([]),
    );
    // without the agent's languages the call still runs; no language is offered
    getAgent(app.streamId).then(
      (def) => setLanguages(agentLanguages(def)),
      () => setLanguages([]),
    );
  }, [app.streamId]);
  useEffect(
    () => () => {
      input.current?.hangUp();
      speaker.current.stop();
    },
    [],
  );
  const change = (s: Partial<Setup>) => setSetup((prev) => ({ ...prev, ...s }));
  const toggleSound = () => {
    speaker.current.enabled = !sound;
    if (sound) speaker.current.stop();
    setSound(!sound);
  };
  /** Typing or keying while a prompt plays stops it, when the listening field allows barge-in. */
  const bargeIn = () => {
    if (waitingRef.current?.bargein === false) return;
    if (speaker.current.speaking) speaker.current.stop();
  };
  const start = async () => {
    setError(null);
    setResult(null);
    setEntries([]);
    setLastPrompt('');
    setDialling(true);
    const callId = setup.target === 'webhook' && setup.callId ? setup.callId : newCallId();
    const language = setup.target === 'webhook' && setup.language ? setup.language : undefined;
    const heardIn = language ?? app.language;
    setCallLanguage(heardIn);
    let options: RunCallOptions;
    const source = new WebInput(setWaiting);
    const transcript = new WebTranscript({
      onEntry: (entry) => setEntries((prev) => [...prev, entry]),
      onPrompt: (text) => {
        setLastPrompt(text);
        speaker.current.speak(text, heardIn);
      },
    });
    const profile = dialects.find((d) => d.name === setup.dialect);
    const builtins = profile
      ? { voice: profile.builtins.voice, dtmf: profile.builtins.dtmf, transcription: profile.transcription }
      : undefined;
    const common = {
      mode: setup.mode,
      builtins,
      hangupDelivery: setup.hangupTo,
      inputs: source,
      transcript,
      callId,
      from: setup.from || undefined,
    };
    try {
      if (setup.target === 'webhook') {
        const minted = await mintWebhookToken(app.streamId, { expiresInS: 3600 });
        // in the webhook URL's query rather than as a <param>: a strict browser refuses a param
        // the subdialog's first document declares no <var> for, and the webhook reads both alike
        const url = new URL(sameOrigin(minted.webhookUrl));
        if (language) url.searchParams.set('language', language);
        options = { ...common, webhookUrl: url.toString() };
      } else {
        const number = sandbox?.enabled ? sandbox.phoneNumber : undefined;
        if (!number)
          throw new Error('The sandbox is off or still loading: switch it on first (Sandbox page).');
        options = {
          ...common,
          to: number,
          startUrl: `${location.origin}/ivr/sandbox/${encodeURIComponent(number)}`,
          startMethod: 'POST',
          startParams: { callId, from: setup.from, to: number },
          ...(setup.pin ? { pin: setup.pin } : {}),
          ...(setup.secret ? { secret: setup.secret } : {}),
        };
      }
    } catch (err) {
      setError(err);
      setDialling(false);
      return;
    }
    input.current = source;
    setActiveCallId(callId);
    setDialling(false);
    setRunning(true);
    try {
      setResult(await runCall(options));
    } catch (err) {
      setError(err);
    } finally {
      source.close();
      input.current = null;
      setRunning(false);
    }
  };
  const answer = (i: CallerInput) => {
    bargeIn();
    input.current?.answer(i);
  };
  const hangUp = () => {
    speaker.current.stop();
    input.current?.hangUp();
  };
  const inspectorHref = `/console/apps/${encodeURIComponent(app.streamId)}/calls/${encodeURIComponent(activeCallId)}`;
  return (
    <section aria-labelledby="call-title" class="call-page">
      <h1 id="call-title">Call</h1>
      <p class="muted">
        Call this app from the browser: the same VoiceXML interpreter as the terminal caller, run in this
        page.
      </p>
      <div class="call-controls">
        <button
          type="button"
          role="switch"
          aria-checked={sound}
          onClick={toggleSound}
          disabled={!speaker.current.available}
        >
          Sound {sound ? 'on' : 'off'}
        </button>
        {!speaker.current.available ? (
          <span class="note">This browser has no speech synthesis: prompts are shown as text only.</span>
        ) : null}
        {running ? (
          <button type="button" class="danger" onClick={hangUp}>
            Hang up
          </button>
        ) : null}
        {activeCallId ? (
          <span class="small">
            Call <code data-testid="call-id">{activeCallId}</code> · <a href={inspectorHref}>inspect</a>
          </span>
        ) : null}
      </div>
      {!running ? (
        <SetupForm
          app={app}
          setup={setup}
          onChange={change}
          onStart={() => void start()}
          busy={dialling}
          status={sandbox}
          dialects={dialects}
          languages={languages}
        />
      ) : null}
      {error ? <ErrorBox error={error} /> : null}
      {result ? <CallEnded result={result} inspectorHref={inspectorHref} /> : null}
      <div class="call-grid">
        <div>
          <section class="card" aria-labelledby="heard-title">
            <h2 id="heard-title">Heard</h2>
            <p class="last-prompt" aria-live="polite" data-testid="last-prompt">
              {lastPrompt || <span class="muted">No prompt yet.</span>}
            </p>
            <WaitingField request={waiting} />
          </section>
          {running ? (
            <Answers waiting={waiting} onAnswer={answer} onKey={bargeIn} lang={callLanguage} />
          ) : null}
          <section class="card" aria-labelledby="events-title">
            <h2 id="events-title">Events</h2>
            <EventsView entries={entries} />
          </section>
        </div>
        <section class="card" aria-labelledby="transcript-title">
          <h2 id="transcript-title">Transcript</h2>
          <TranscriptView entries={entries} />
        </section>
      </div>
    </section>
  );
}
