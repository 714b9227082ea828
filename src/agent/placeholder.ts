/**
 * `{{context.entities.city}}` placeholders: parsed once into paths, filled by a plain own-property
 * lookup (no template engine, nothing that can run code). Missing values become empty text.
 */

export interface Placeholder {
  readonly path: readonly string[];
  readonly source: string;
}

/** Literal text or a placeholder. */
export type TextSegment = string | Placeholder;

export const placeholderRoots: readonly string[] = ['context', 'session', 'entities'];

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Parses the inside of `{{ }}` into a path; returns a reason string when it does not parse. */
function parsePath(inner: string): string[] | string {
  const src = inner.trim();
  if (src === '') return 'empty placeholder';
  const path: string[] = [];
  const re = /\.?([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]/y;
  let pos = 0;
  while (pos < src.length) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (
      !m ||
      (pos === 0 && m[0].startsWith('.')) ||
      (pos > 0 && m[1] !== undefined && !m[0].startsWith('.'))
    ) {
      return `unexpected "${src.slice(pos)}" in placeholder {{${inner}}}`;
    }
    path.push(m[1] ?? m[2] ?? '');
    pos = re.lastIndex;
  }
  const root = path[0] ?? '';
  if (!IDENT.test(root) || !placeholderRoots.includes(root)) {
    return `placeholder {{${inner}}} must start with ${placeholderRoots.map((r) => `${r}.`).join(', ')}`;
  }
  if (path.length < 2) return `placeholder {{${inner}}} names no member`;
  return path;
}

/** Splits text into literal strings and placeholders, with the reasons of those that do not parse. */
export function splitPlaceholders(text: string): { segments: TextSegment[]; problems: string[] } {
  const segments: TextSegment[] = [];
  const problems: string[] = [];
  let literal = '';
  let pos = 0;
  while (pos < text.length) {
    const open = text.indexOf('{{', pos);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) {
      problems.push(`unclosed placeholder "${text.slice(open, open + 30)}"`);
      break;
    }
    const inner = text.slice(open + 2, close);
    const parsed = parsePath(inner);
    literal += text.slice(pos, open);
    if (typeof parsed === 'string') {
      problems.push(parsed);
      literal += text.slice(open, close + 2);
    } else {
      if (literal) segments.push(literal);
      literal = '';
      segments.push({ path: parsed, source: `{{${inner}}}` });
    }
    pos = close + 2;
  }
  literal += text.slice(pos);
  if (literal) segments.push(literal);
  return { segments, problems };
}

/** Own-property path lookup; never reaches prototypes. */
export function lookupPath(root: unknown, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Plain text of a looked-up value: primitives as text, anything else (or nothing) as empty text. */
export function valueToText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return '';
}

/** Fills the segments as plain text. */
export function fillSegments(segments: readonly TextSegment[], root: unknown): string {
  let out = '';
  for (const seg of segments) out += typeof seg === 'string' ? seg : valueToText(lookupPath(root, seg.path));
  return out;
}
