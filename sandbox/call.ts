/**
 * The terminal caller: dials a sandbox phone number or a webhook and interprets the VoiceXML the
 * gateway answers, with typed text for speech and #digits for keys.
 *
 *   npm run call -- <phone number | webhook URL> [options]
 *
 * Exit codes: 0 the call ended normally; 1 the call ended with an error or a script failed; 2 usage.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dialectNames, dialectProfiles, type DialectName } from '../src/vxml/index.js';
import { CallScript } from './call-script.js';
import {
  DEFAULT_FROM,
  runCall,
  type BrowserGrammars,
  type InterpreterMode,
  type RunCallOptions,
} from './index.js';
import { dialectMode } from './dialect-mode.js';
import { InteractiveInput } from './interactive-input.js';
import type { InputSource } from './input-source.js';
import { maskedUrl } from './transcript.js';

/** The mode that behaves most like each dialect's browsers (every dialect must have one). */
const MODE_OF: Record<DialectName, InterpreterMode> = dialectMode;

const USAGE = `usage: npm run call -- <phone number | webhook URL> [options]

  <phone number>  (+ or digits) POSTs {base}/ivr/sandbox/<number>: the gateway's sandbox entry, which
                  asks for the PIN and the secret by DTMF and then runs the agent as a subdialog
  <webhook URL>   acts as the customer's root document: runs the URL as a <subdialog> with the params
                  callId, message (''), from and to (the streamId in /ivr/hooks/<streamId>)

options
  --base URL          gateway base URL for a phone number (default http://127.0.0.1:3000)
  --pin P --secret S  answer the sandbox's PIN and secret prompts automatically
  --script FILE       scripted caller (say: / dtmf: / noinput / hangup / expect: / expect-end: /
                      expect-event: / transfer: / # comment); without it, type the caller's side:
                      words = speech, #123 = keys, empty line = silence, !hangup or Ctrl-D = hang up
  --mode M            lenient (default: params in the subdialog's GET query, free text accepted by
                      transcription grammars) or strict-w3c (params only as form <var>s, grammar-based
                      recognition, digits/boolean builtins only)
  --dialect NAME      emulate the browser of a dialect (src/vxml/dialects.ts): only the builtins and
                      the transcription its profile lists exist, any other is error.badfetch as on
                      that browser; without --mode, the dialect's mode (strict-w3c for w3c, else
                      lenient). Dialects: ${dialectNames.join(', ')}
  --from NUMBER       the caller's number (default ${DEFAULT_FROM})
  --to ID             the callee (default: the streamId of the webhook, or the dialled number)
  --language TAG      the call's language (es-US…), for an agent of several languages (default: the
                      number's, else the agent's default; the caller can still choose at the welcome)
  --call-id ID        the callId (default a random UUID)
  --confidence C      confidence of recognised speech (default 0.9)
  --transfer OUTCOME  outcome of <transfer> (default noanswer; busy, far_end_disconnect,
                      error.noresource… an error.* outcome is thrown as that event)
  --hangup-to WHERE   innermost (default: the running document hears the hang-up) or top (only the
                      top-level document does, as some browsers behave)
  --plain             SAY:/YOU: instead of emoji
  --timeout MS        fetch timeout when the document sets none (default 30000)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        base: { type: 'string', default: 'http://127.0.0.1:3000' },
        pin: { type: 'string' },
        secret: { type: 'string' },
        script: { type: 'string' },
        mode: { type: 'string' },
        dialect: { type: 'string' },
        from: { type: 'string', default: DEFAULT_FROM },
        to: { type: 'string' },
        language: { type: 'string' },
        'call-id': { type: 'string' },
        confidence: { type: 'string', default: '0.9' },
        transfer: { type: 'string', default: 'noanswer' },
        'hangup-to': { type: 'string', default: 'innermost' },
        plain: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const target = positionals[0];
  if (!target || positionals.length > 1)
    fail(
      positionals.length > 1
        ? `one target only, got: ${positionals.join(' ')}`
        : 'missing the phone number or webhook URL',
    );
  let dialect: DialectName | undefined;
  let builtins: BrowserGrammars | undefined;
  if (values.dialect !== undefined) {
    if (!(dialectNames as string[]).includes(values.dialect))
      fail(`--dialect must be one of ${dialectNames.join(', ')}, not "${values.dialect}"`);
    dialect = values.dialect as DialectName;
    const profile = dialectProfiles[dialect];
    builtins = {
      voice: profile.builtins.voice,
      dtmf: profile.builtins.dtmf,
      transcription: profile.transcription !== null,
    };
  }
  const mode = values.mode ?? (dialect ? MODE_OF[dialect] : 'lenient');
  if (mode !== 'lenient' && mode !== 'strict-w3c')
    fail(`--mode must be lenient or strict-w3c, not "${mode}"`);
  const confidence = Number(values.confidence);
  if (!Number.isFinite(confidence) || confidence < 0 || confidence > 1)
    fail(`--confidence must be a number between 0 and 1, not "${values.confidence}"`);
  const hangupTo = values['hangup-to'];
  if (hangupTo !== 'innermost' && hangupTo !== 'top')
    fail(`--hangup-to must be innermost or top, not "${hangupTo}"`);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0)) fail(`--timeout must be a positive number of milliseconds`);

  let input: InputSource;
  if (values.script !== undefined) {
    const file = resolve(process.env.INIT_CWD ?? process.cwd(), values.script);
    try {
      input = CallScript.fromText(readFileSync(file, 'utf8'));
    } catch (err) {
      fail(`--script ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else input = new InteractiveInput();

  const callId = values['call-id'] ?? randomUUID();
  const common: Omit<RunCallOptions, 'inputs'> = {
    mode,
    builtins,
    pin: values.pin,
    secret: values.secret,
    confidence,
    transferOutcome: values.transfer,
    callId,
    from: values.from,
    to: values.to,
    ...(values.language ? { language: values.language } : {}),
    plain: values.plain,
    fetchTimeoutMs: timeout,
    hangupDelivery: hangupTo,
    onLine: (line) => process.stdout.write(`${line}\n`),
  };
  const how = `${dialect ? `dialect ${dialect}, ` : ''}mode ${mode}, callId ${callId}`;
  let options: RunCallOptions;
  if (/^https?:\/\//i.test(target)) {
    options = { ...common, inputs: input, webhookUrl: target };
    process.stdout.write(`☎ calling webhook ${maskedUrl(target)} as the customer's root (${how})\n`);
  } else if (/^\+?\d[\d\s().-]*$/.test(target)) {
    const number = target.replace(/[\s().-]/g, '');
    let startUrl: string;
    try {
      startUrl = new URL(`/ivr/sandbox/${number}`, values.base).toString();
    } catch {
      fail(`--base is not a URL: "${values.base}"`);
    }
    options = {
      ...common,
      to: values.to ?? number,
      inputs: input,
      startUrl,
      startMethod: 'POST',
      startParams: {
        callId,
        from: values.from,
        to: values.to ?? number,
        ...(values.language ? { language: values.language } : {}),
      },
    };
    process.stdout.write(`☎ dialling ${number} via ${startUrl} (${how})\n`);
  } else fail(`"${target}" is neither a phone number (+ or digits) nor an http(s) URL`);

  const result = await runCall(options);
  if (result.failure) {
    process.stderr.write(`\nFAILED: ${result.failure}\n`);
    return 1;
  }
  if (result.ended === 'error') {
    process.stderr.write(`\nFAILED: the call ended with an error: ${result.error ?? 'unknown error'}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`call failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
