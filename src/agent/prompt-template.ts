/**
 * Authored prompt text → parsed once into a template of PromptParts plus placeholders.
 * Allowed SSML: <break time strength/>, <emphasis level>, <say-as interpret-as format>,
 * <prosody rate pitch volume>, <audio src>. Anything else (unknown tag, malformed markup) is kept as
 * literal text. Filled placeholder values are always plain text parts: they are never parsed, so
 * caller or model text cannot inject structure.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  fillSegments,
  lookupPath,
  splitPlaceholders,
  type Placeholder,
  type TextSegment,
} from './placeholder.js';
import type { PromptPart } from './turn-types.js';

type Strength = NonNullable<Extract<PromptPart, { type: 'break' }>['strength']>;
type Level = NonNullable<Extract<PromptPart, { type: 'emphasis' }>['level']>;

export type TemplatePart =
  | { type: 'text'; text: string }
  | { type: 'placeholder'; placeholder: Placeholder }
  | { type: 'break'; time?: string; strength?: Strength }
  | { type: 'emphasis'; level?: Level; parts: TemplatePart[] }
  | { type: 'say-as'; interpretAs: string; format?: string; text: TextSegment[] }
  | { type: 'prosody'; rate?: string; pitch?: string; volume?: string; parts: TemplatePart[] }
  | { type: 'audio'; src: string; parts: TemplatePart[] };

export interface PromptTemplate {
  readonly source: string;
  readonly parts: readonly TemplatePart[];
  /** The rendered prompt when the template has no placeholder (rendered once). */
  readonly fixed?: PromptPart[];
}

/** Placeholders only (llm prompts, table records): no markup. */
export interface TextTemplate {
  readonly source: string;
  readonly segments: readonly TextSegment[];
}

const STRENGTHS: readonly string[] = ['none', 'x-weak', 'weak', 'medium', 'strong', 'x-strong'];
const LEVELS: readonly string[] = ['strong', 'moderate', 'none', 'reduced'];
const TIME = /^\d+(\.\d+)?(ms|s)$/;
const PROSODY =
  /^([+-]?\d+(\.\d+)?(%|Hz|st|dB)?|x-slow|slow|medium|fast|x-fast|default|x-low|low|high|x-high|silent|x-soft|soft|loud|x-loud)$/;
const INTERPRET_AS = /^[A-Za-z][A-Za-z:-]{0,39}$/;
const FORMAT = /^[A-Za-z0-9 ._:/-]{1,40}$/;
const AUDIO_SRC = /^(?:(?:https?|builtin):[^\s]+|[^\s:]+)$/;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
});

type XmlNode = Record<string, unknown>;

/** Escapes stray `&` and `<` so that plain prose ("Fish & chips", "a < b") is not "malformed". */
function escapeStray(src: string): string {
  return src
    .replace(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replace(/<(?![A-Za-z/!])/g, '&lt;');
}

function textParts(text: string): TemplatePart[] {
  return splitPlaceholders(text).segments.map((seg) =>
    typeof seg === 'string' ? { type: 'text', text: seg } : { type: 'placeholder', placeholder: seg },
  );
}

const attrsOf = (node: XmlNode): Record<string, string> =>
  (node[':@'] as Record<string, string> | undefined) ?? {};
const tagOf = (node: XmlNode): string => Object.keys(node).find((k) => k !== ':@') ?? '';
/** A text node's text (attributes and text stay strings: the parser converts no values). */
const textOf = (node: XmlNode, tag: string): string => {
  const v = node[tag];
  return typeof v === 'string' ? v : '';
};
const childrenOf = (node: XmlNode, tag: string): XmlNode[] =>
  Array.isArray(node[tag]) ? (node[tag] as XmlNode[]) : [];

/** Serialises a parsed node back to literal text (for unknown elements). */
function literal(node: XmlNode): string {
  const tag = tagOf(node);
  if (tag === '#text') return textOf(node, tag);
  if (tag === '#comment') return '';
  const kids = childrenOf(node, tag);
  if (tag === '#cdata') return kids.map(literal).join('');
  const attrs = Object.entries(attrsOf(node))
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');
  return kids.length === 0 ? `<${tag}${attrs}/>` : `<${tag}${attrs}>${kids.map(literal).join('')}</${tag}>`;
}

const pick = <T extends string>(value: string | undefined, ok: (v: string) => boolean): T | undefined =>
  value !== undefined && ok(value) ? (value as T) : undefined;

function convert(nodes: XmlNode[]): TemplatePart[] {
  const out: TemplatePart[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    const attrs = attrsOf(node);
    const kids = childrenOf(node, tag);
    switch (tag) {
      case '#text':
        out.push(...textParts(textOf(node, tag)));
        break;
      case '#comment':
        break;
      case '#cdata':
        out.push(...textParts(kids.map(literal).join('')));
        break;
      case 'break': {
        const time = pick<string>(attrs.time, (v) => TIME.test(v));
        const strength = pick<Strength>(attrs.strength, (v) => STRENGTHS.includes(v));
        out.push({ type: 'break', ...(time ? { time } : {}), ...(strength ? { strength } : {}) });
        break;
      }
      case 'emphasis': {
        const level = pick<Level>(attrs.level, (v) => LEVELS.includes(v));
        out.push({ type: 'emphasis', ...(level ? { level } : {}), parts: convert(kids) });
        break;
      }
      case 'say-as': {
        const interpretAs = pick<string>(attrs['interpret-as'], (v) => INTERPRET_AS.test(v));
        const inner = kids.map(literal).join('');
        if (!interpretAs) {
          out.push(...textParts(inner));
          break;
        }
        const format = pick<string>(attrs.format, (v) => FORMAT.test(v));
        out.push({
          type: 'say-as',
          interpretAs,
          ...(format ? { format } : {}),
          text: splitPlaceholders(inner).segments,
        });
        break;
      }
      case 'prosody': {
        const p: Extract<TemplatePart, { type: 'prosody' }> = { type: 'prosody', parts: convert(kids) };
        for (const key of ['rate', 'pitch', 'volume'] as const) {
          const v = pick<string>(attrs[key], (x) => PROSODY.test(x));
          if (v) p[key] = v;
        }
        out.push(p);
        break;
      }
      case 'audio': {
        const src = pick<string>(attrs.src, (v) => AUDIO_SRC.test(v));
        if (src) out.push({ type: 'audio', src, parts: convert(kids) });
        else out.push(...convert(kids));
        break;
      }
      default:
        out.push(...textParts(literal(node)));
    }
  }
  return out;
}

function appendText(parts: readonly PromptPart[], out: { text: string }): void {
  for (const p of parts) {
    if (p.type === 'text' || p.type === 'say-as') out.text += p.text;
    else if (p.type === 'break') out.text += ' ';
    else appendText(p.parts, out);
  }
}

/** Whitespace that `\s+ → ' '` and trim would change: a run, a character other than a space, an end. */
const UNTIDY_SPACE = /\s\s|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^\s|\s$/;

/** Plain text, with surrounding whitespace collapsed (for history, logs, the llm and table ports). */
export function promptToText(parts: readonly PromptPart[]): string {
  const out = { text: '' };
  appendText(parts, out);
  // Most prompts are already tidy: then the text is answered as it is, without a new string.
  return UNTIDY_SPACE.test(out.text) ? out.text.replace(/\s+/g, ' ').trim() : out.text;
}

function renderParts(parts: readonly TemplatePart[], root: unknown): PromptPart[] {
  const out: PromptPart[] = [];
  const pushText = (text: string): void => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last?.type === 'text') last.text += text;
    else out.push({ type: 'text', text });
  };
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        pushText(part.text);
        break;
      case 'placeholder':
        pushText(fillSegments([part.placeholder], root));
        break;
      case 'break':
        out.push({ ...part });
        break;
      case 'say-as':
        out.push({
          type: 'say-as',
          interpretAs: part.interpretAs,
          ...(part.format ? { format: part.format } : {}),
          text: fillSegments(part.text, root),
        });
        break;
      default:
        out.push({ ...part, parts: renderParts(part.parts, root) });
    }
  }
  return out;
}

const hasPlaceholder = (parts: readonly TemplatePart[]): boolean =>
  parts.some((p) =>
    p.type === 'placeholder'
      ? true
      : p.type === 'say-as'
        ? p.text.some((s) => typeof s !== 'string')
        : 'parts' in p && hasPlaceholder(p.parts),
  );

/** Parses authored prompt text once. Never throws: what is not allowed markup stays literal text. */
export function parsePromptTemplate(source: string): PromptTemplate {
  const wrapped = `<speak>${escapeStray(source)}</speak>`;
  let parts: TemplatePart[];
  if (XMLValidator.validate(wrapped) === true) {
    const doc = parser.parse(wrapped) as XmlNode[];
    const root = doc.find((n) => tagOf(n) === 'speak');
    parts = root ? convert(childrenOf(root, 'speak')) : textParts(source);
  } else {
    parts = textParts(source);
  }
  return hasPlaceholder(parts) ? { source, parts } : { source, parts, fixed: renderParts(parts, {}) };
}

/** A copy of parts that shares no object with them (their fields are strings or nested parts). */
const copyParts = (parts: readonly PromptPart[]): PromptPart[] =>
  parts.map((p) => ('parts' in p ? { ...p, parts: copyParts(p.parts) } : { ...p }));

/** Renders a template over the evaluation context; each call returns fresh parts. */
export function renderPrompt(template: PromptTemplate, root: unknown): PromptPart[] {
  return template.fixed ? copyParts(template.fixed) : renderParts(template.parts, root);
}

export function parseTextTemplate(source: string): TextTemplate {
  return { source, segments: splitPlaceholders(source).segments };
}

export function renderText(template: TextTemplate, root: unknown): string {
  return fillSegments(template.segments, root);
}

/** A template that is exactly one placeholder gives the value itself (a number stays a number). */
export function renderValue(template: TextTemplate, root: unknown): unknown {
  const [only, ...rest] = template.segments;
  if (rest.length === 0 && only !== undefined && typeof only !== 'string') {
    const v = lookupPath(root, only.path);
    if (typeof v === 'number' || typeof v === 'boolean') return v;
  }
  return renderText(template, root);
}

/** Placeholder problems of authored text (for validation). */
export function placeholderProblems(source: string): string[] {
  return splitPlaceholders(source).problems;
}
