/**
 * Which grammars an entity node gets, per dialect (main export: entityGrammars). A builtin is used
 * when the dialect's profile lists it for that mode (`builtin:dtmf/<type>` / `builtin:grammar/<type>`,
 * VoiceXML 2.0 Appendix P); otherwise the renderer writes an inline SRGS grammar (entity-srgs.ts).
 * Lists of values are always inline SRGS. Free text (`string`) has no grammar: it needs transcription
 * (transcriptionGrammar) or the node's own grammar. With transcription on, the transcription grammar
 * takes the place of the voice grammars only: the DTMF ones stay (withTranscription).
 */
import type { AwaitSpec, FieldGrammar, InlineEntity, SrgsItem } from './document-spec.js';
import { dialectProfile, type BuiltinType, type DialectName, type DialectProfile } from './dialects.js';
import { normalisePhrase } from './srgs-grammar.js';

type Mode = 'voice' | 'dtmf';
const MODES: readonly Mode[] = ['dtmf', 'voice'];
const DEFAULT_TRANSCRIPTION = 'builtin:speech/transcribe';

function profileOf(dialect: DialectName | DialectProfile | undefined): DialectProfile {
  return typeof dialect === 'object' ? dialect : dialectProfile(dialect);
}

function length(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function builtinUri(mode: Mode, type: BuiltinType, params: string): string {
  return `builtin:${mode === 'dtmf' ? 'dtmf' : 'grammar'}/${type}${params}`;
}

/** `?length=4`, `?minlength=4;maxlength=6`, `?minlength=4` or '' (VoiceXML 2.0 Appendix P syntax). */
function digitsParams(p: DialectProfile, min: number | undefined, max: number | undefined): string {
  if (!p.digitsParameters) return '';
  if (min !== undefined && max !== undefined && min === max) return `?length=${min}`;
  const parts = [
    min !== undefined ? `minlength=${min}` : '',
    max !== undefined ? `maxlength=${max}` : '',
  ].filter(Boolean);
  return parts.length ? `?${parts.join(';')}` : '';
}

function inline(
  mode: Mode,
  entity: InlineEntity,
  lang: string | undefined,
  extra: { minLength?: number; maxLength?: number } = {},
): FieldGrammar {
  const g: FieldGrammar = { kind: 'inline-entity', mode, entity, ...extra };
  if (lang !== undefined && mode === 'voice') g.lang = lang;
  return g;
}

function listGrammars(values: readonly string[], lang: string | undefined): FieldGrammar[] {
  const voice: SrgsItem[] = [];
  const dtmf: SrgsItem[] = [];
  const seenVoice = new Set<string>();
  const seenDtmf = new Set<string>();
  for (const value of values) {
    const phrase = normalisePhrase(value);
    if (phrase !== '' && !seenVoice.has(phrase)) {
      seenVoice.add(phrase);
      voice.push({ phrase, tag: value });
    }
    const keys = String(value).trim();
    if (/^[0-9*#]+$/.test(keys) && !seenDtmf.has(keys)) {
      seenDtmf.add(keys);
      dtmf.push({ phrase: [...keys].join(' '), tag: keys });
    }
  }
  const out: FieldGrammar[] = [];
  if (dtmf.length) out.push({ kind: 'srgs', mode: 'dtmf', root: 'listd', items: dtmf });
  const v: FieldGrammar = { kind: 'srgs', mode: 'voice', root: 'listv', items: voice };
  if (lang !== undefined) v.lang = lang;
  out.push(v);
  return out;
}

function forMode(
  p: DialectProfile,
  spec: Extract<AwaitSpec, { kind: 'entity' }>,
  mode: Mode,
  lang: string | undefined,
): FieldGrammar | undefined {
  const has = (t: BuiltinType) => p.builtins[mode].includes(t);
  const builtin = (t: BuiltinType, params = ''): FieldGrammar => ({
    kind: 'builtin',
    mode,
    src: builtinUri(mode, t, params),
  });
  switch (spec.entityType) {
    case 'digits': {
      let min = length(spec.minLength);
      let max = length(spec.maxLength);
      if (min !== undefined && max !== undefined && max < min) [min, max] = [max, min];
      if (has('digits')) return builtin('digits', digitsParams(p, min, max));
      const extra: { minLength?: number; maxLength?: number } = {};
      if (min !== undefined) extra.minLength = min;
      if (max !== undefined) extra.maxLength = max;
      return inline(mode, 'digits', lang, extra);
    }
    case 'number':
      if (has('number')) return builtin('number');
      if (mode === 'dtmf' && has('digits')) return builtin('digits');
      return inline(mode, 'number', lang);
    case 'date':
      if (has('date')) return builtin('date');
      if (mode === 'dtmf' && has('digits') && p.digitsParameters) return builtin('digits', '?length=8');
      return inline(mode, 'date', lang);
    case 'yesno':
      return has('boolean') ? builtin('boolean') : inline(mode, 'boolean', lang);
    default:
      return undefined;
  }
}

/**
 * The grammars for what the next document awaits, DTMF first then voice. `intent` and `string`
 * return [] (intents: buildIntentGrammar or transcription; free text: transcription).
 */
export function entityGrammars(
  spec: AwaitSpec,
  dialect: DialectName | DialectProfile = 'w3c',
  opts: { lang?: string } = {},
): FieldGrammar[] {
  if (spec.kind !== 'entity') return [];
  if (spec.entityType === 'list') return listGrammars(spec.values ?? [], opts.lang);
  const p = profileOf(dialect);
  const out: FieldGrammar[] = [];
  for (const mode of MODES) {
    const g = forMode(p, spec, mode, opts.lang);
    if (g) out.push(g);
  }
  return out;
}

/**
 * The transcription grammar for a dialect: the IVR settings' engine source (default
 * builtin:speech/transcribe), the dialect's own URI, or null where the browser has none.
 */
export function transcriptionGrammar(
  dialect: DialectName | DialectProfile = 'w3c',
  engineSrc?: string,
): FieldGrammar | null {
  const p = profileOf(dialect);
  if (p.transcription === null) return null;
  const src = p.transcription === 'settings' ? engineSrc?.trim() || DEFAULT_TRANSCRIPTION : p.transcription;
  return { kind: 'transcription', src };
}

/**
 * The grammars of an ask with transcription on: the transcription grammar takes the place of the
 * voice grammars, and the DTMF grammars stay beside it (DTMF first, as entityGrammars orders them),
 * so a caller can still key in what a prompt asks them to "say or key in". Where the dialect has no
 * transcription grammar, the grammars are returned unchanged.
 */
export function withTranscription(
  grammars: readonly FieldGrammar[],
  dialect: DialectName | DialectProfile = 'w3c',
  engineSrc?: string,
): FieldGrammar[] {
  const transcription = transcriptionGrammar(dialect, engineSrc);
  if (!transcription) return [...grammars];
  return [...grammars.filter((g) => g.kind !== 'transcription' && g.mode === 'dtmf'), transcription];
}
