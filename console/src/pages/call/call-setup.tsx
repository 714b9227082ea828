/**
 * The web caller's dial form: whom to call (the sandbox number with its PIN and secret, or the
 * webhook with a callId, a from and the call's language), the dialect whose browser to emulate (its
 * profile's builtins and transcription), the interpreter mode, and where a hang-up goes.
 */
import { useEffect, useState } from 'preact/hooks';
import { dialectMode, type EmulatedDialect } from '../../../../sandbox/browser.js';
import {
  getSettings,
  rotateSandboxSecret,
  type AppRecord,
  type DialectProfile,
  type SandboxStatus,
} from '../../api/client.js';
import { useConfirm } from '../../ui/confirm-dialog.js';
import { ErrorBox } from '../../ui/status.js';

export type Target = 'sandbox' | 'webhook';
export type Mode = 'lenient' | 'strict-w3c';
type Dialect = EmulatedDialect;
const DIALECTS = Object.keys(dialectMode) as Dialect[];
/** The interpreter mode that behaves most like each dialect's browsers (grammar-based for w3c). */
const MODE_OF: Record<Dialect, Mode> = dialectMode;
const list = (xs: string[]): string => (xs.length ? xs.join(', ') : 'none');

export interface Setup {
  target: Target;
  mode: Mode;
  dialect: Dialect;
  hangupTo: 'innermost' | 'top';
  callId: string;
  from: string;
  pin: string;
  secret: string;
  /** The call's language, sent as the first request's `language` parameter (webhook calls); '' = none is sent. */
  language: string;
}

/** The languages an agent definition declares (the first is its default), as the service reads them. */
export function agentLanguages(def: unknown): string[] {
  if (def === null || typeof def !== 'object') return [];
  const { languages, language } = def as { languages?: unknown; language?: unknown };
  if (Array.isArray(languages) && languages.length > 0 && languages.every((l) => typeof l === 'string'))
    return languages;
  return typeof language === 'string' ? [language] : [];
}

export const newCallId = (): string => crypto.randomUUID();

interface ChoiceProps {
  app: AppRecord;
  setup: Setup;
  onChange: (s: Partial<Setup>) => void;
  status: SandboxStatus | null;
}

/** What the emulated browser has, from the dialect's profile (or why nothing is emulated). */
function DialectNote({
  profile,
  appDialect,
}: {
  profile: DialectProfile | undefined;
  appDialect: string | null;
}) {
  return (
    <p class="help" data-testid="dialect-note">
      {appDialect
        ? `The gateway writes this app's documents for the ${appDialect} dialect (IVR settings). `
        : ''}
      {profile
        ? `Emulated browser (${profile.title}): voice builtins ${list(profile.builtins.voice)}; DTMF builtins ${list(profile.builtins.dtmf)}; ${profile.transcription ? 'transcribes free speech' : 'no transcription'}. A document that needs another builtin fails with error.badfetch, as on that browser. `
        : 'The dialect profiles did not load: every builtin of the mode is available. '}
      The mode decides how phrases match: strict-w3c exactly (grammar-based), lenient also as a prefix.
    </p>
  );
}

function SandboxChoice({ app, setup, onChange, status }: ChoiceProps) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, ask] = useConfirm();
  const fillIn = async () => {
    const ok = await ask({
      title: 'Fill in a PIN and secret for you?',
      body: (
        <p>
          The service keeps the PIN and secret sealed and cannot read them back, so this makes new ones. The
          old ones stop working for every tester.
        </p>
      ),
      confirmLabel: 'Make new ones and fill them in',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    setError(null);
    try {
      const made = await rotateSandboxSecret(app.streamId);
      onChange({ pin: made.pin, secret: made.secret });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="dial-detail">
      {status && !status.enabled ? (
        <p class="warn">
          The sandbox is off. <a href={`/console/apps/${app.streamId}/sandbox`}>Switch it on</a> to call its
          number.
        </p>
      ) : null}
      {status?.enabled ? (
        <p>
          Number <code data-testid="call-sandbox-number">{status.phoneNumber}</code>. Type the PIN and secret
          on the keypad when asked, or give them here to have them keyed for you.
        </p>
      ) : null}
      <div class="row">
        <div class="field narrow">
          <label for="call-pin">PIN (optional)</label>
          <input
            id="call-pin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={setup.pin}
            onInput={(e) => onChange({ pin: e.currentTarget.value.trim() })}
          />
        </div>
        <div class="field narrow">
          <label for="call-secret">Secret (optional)</label>
          <input
            id="call-secret"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={setup.secret}
            onInput={(e) => onChange({ secret: e.currentTarget.value.trim() })}
          />
        </div>
        <button type="button" disabled={busy || !status?.enabled} onClick={() => void fillIn()}>
          Fill in for me
        </button>
      </div>
      {error ? <ErrorBox error={error} /> : null}
      {confirm}
    </div>
  );
}

/** The language of a webhook call: one of the agent's, or none (the number dialled or the caller's choice decides). */
function LanguageChoice({
  setup,
  onChange,
  languages,
}: {
  setup: Setup;
  onChange: (s: Partial<Setup>) => void;
  languages: string[];
}) {
  if (languages.length < 2) return null;
  return (
    <div class="field narrow">
      <label for="call-language">Language</label>
      <select
        id="call-language"
        aria-describedby="call-language-help"
        value={setup.language}
        onChange={(e) => onChange({ language: e.currentTarget.value })}
      >
        <option value="">none sent (the caller chooses)</option>
        {languages.map((l, i) => (
          <option key={l} value={l}>
            {l}
            {i === 0 ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

export function SetupForm({
  app,
  setup,
  onChange,
  onStart,
  busy,
  status,
  dialects,
  languages,
}: ChoiceProps & { onStart: () => void; busy: boolean; dialects: DialectProfile[]; languages: string[] }) {
  const [appDialect, setAppDialect] = useState<string | null>(null);
  useEffect(() => {
    getSettings(app.streamId).then(
      (s) => {
        const d = typeof s.dialect === 'string' ? s.dialect : null;
        setAppDialect(d);
        if (d && (DIALECTS as readonly string[]).includes(d))
          onChange({ dialect: d as Dialect, mode: MODE_OF[d as Dialect] });
      },
      () => setAppDialect(null),
    );
  }, [app.streamId]);
  return (
    <form
      class="card dial"
      aria-labelledby="dial-title"
      onSubmit={(e) => {
        e.preventDefault();
        onStart();
      }}
    >
      <h2 id="dial-title">Dial</h2>
      <fieldset class="choices">
        <legend>Call</legend>
        <label>
          <input
            type="radio"
            name="call-target"
            checked={setup.target === 'sandbox'}
            onChange={() => onChange({ target: 'sandbox' })}
          />{' '}
          the sandbox number
        </label>
        <label>
          <input
            type="radio"
            name="call-target"
            checked={setup.target === 'webhook'}
            onChange={() => onChange({ target: 'webhook' })}
          />{' '}
          the webhook directly
        </label>
      </fieldset>
      {setup.target === 'sandbox' ? (
        <>
          <SandboxChoice app={app} setup={setup} onChange={onChange} status={status} />
          {languages.length > 1 ? (
            <p class="small muted" data-testid="sandbox-language-note">
              The sandbox number sends no language: the caller chooses one at the welcome, or IVR settings{' '}
              <code>languages.byNumber</code> gives the number one. To call in a language, call the webhook
              directly.
            </p>
          ) : null}
        </>
      ) : (
        <div class="dial-detail">
          <p class="small muted">
            A webhook token valid for one hour is minted when the call starts; the page acts as your
            platform&apos;s root document.
          </p>
          <div class="row">
            <div class="field">
              <label for="call-id">Call id</label>
              <input
                id="call-id"
                value={setup.callId}
                onInput={(e) => onChange({ callId: e.currentTarget.value.trim() })}
              />
            </div>
            <button type="button" onClick={() => onChange({ callId: newCallId() })}>
              New call id
            </button>
            <div class="field narrow">
              <label for="call-from">From</label>
              <input
                id="call-from"
                value={setup.from}
                onInput={(e) => onChange({ from: e.currentTarget.value.trim() })}
              />
            </div>
            <LanguageChoice setup={setup} onChange={onChange} languages={languages} />
          </div>
          {languages.length > 1 ? (
            <p id="call-language-help" class="small muted">
              The language is sent as the <code>language</code> parameter of the call&apos;s first request.
            </p>
          ) : null}
        </div>
      )}
      <div class="row">
        <div class="field narrow">
          <label for="call-dialect">Dialect to emulate</label>
          <select
            id="call-dialect"
            value={setup.dialect}
            onChange={(e) =>
              onChange({
                dialect: e.currentTarget.value as Dialect,
                mode: MODE_OF[e.currentTarget.value as Dialect],
              })
            }
          >
            {DIALECTS.map((d) => (
              <option key={d} value={d}>
                {dialects.find((p) => p.name === d)?.title ?? d}
              </option>
            ))}
          </select>
        </div>
        <div class="field narrow">
          <label for="call-mode">Mode</label>
          <select
            id="call-mode"
            value={setup.mode}
            onChange={(e) => onChange({ mode: e.currentTarget.value as Mode })}
          >
            <option value="lenient">lenient</option>
            <option value="strict-w3c">strict-w3c</option>
          </select>
        </div>
        <div class="field narrow">
          <label for="call-hangup">A hang-up reaches</label>
          <select
            id="call-hangup"
            value={setup.hangupTo}
            onChange={(e) => onChange({ hangupTo: e.currentTarget.value as Setup['hangupTo'] })}
          >
            <option value="innermost">the running document</option>
            <option value="top">the top document only</option>
          </select>
        </div>
      </div>
      <DialectNote profile={dialects.find((d) => d.name === setup.dialect)} appDialect={appDialect} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Dialling…' : 'Call'}
      </button>
    </form>
  );
}
