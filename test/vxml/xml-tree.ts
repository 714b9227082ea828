/**
 * Test helpers: parse rendered XML with fast-xml-parser into a small tree, list element paths, compare
 * trees, and decode the ECMAScript string literals the renderer emits (our own decoder, never eval).
 */
import { XMLParser } from 'fast-xml-parser';

export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  /** Direct text content, concatenated. */
  text: string;
  /** Text and elements in order (text as strings). */
  content: Array<XNode | string>;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

type Raw = Record<string, unknown>;

function toNode(raw: Raw): XNode | string {
  if ('#text' in raw) return String(raw['#text']);
  const name = Object.keys(raw).find((k) => k !== ':@')!;
  const attrs = (raw[':@'] as Record<string, string> | undefined) ?? {};
  const content = (raw[name] as Raw[]).map(toNode);
  const children = content.filter((c): c is XNode => typeof c !== 'string');
  const text = content.filter((c): c is string => typeof c === 'string').join('');
  return { name, attrs, children, text, content };
}

/** The document element of an XML string. */
export function parseXml(xml: string): XNode {
  const top = (parser.parse(xml) as Raw[])
    .map(toNode)
    .filter((n): n is XNode => typeof n !== 'string' && !n.name.startsWith('?'));
  if (top.length !== 1) throw new Error(`expected one document element, got ${top.length}`);
  return top[0]!;
}

/** Every element as a path from the root, e.g. `vxml/form/field/grammar/rule/one-of/item`. */
export function elementPaths(node: XNode, prefix = ''): string[] {
  const here = prefix ? `${prefix}/${node.name}` : node.name;
  return [here, ...node.children.flatMap((c) => elementPaths(c, here))];
}

export function findAll(node: XNode, name: string): XNode[] {
  return [...(node.name === name ? [node] : []), ...node.children.flatMap((c) => findAll(c, name))];
}

export function find(node: XNode, name: string): XNode {
  const all = findAll(node, name);
  if (all.length === 0) throw new Error(`no <${name}>`);
  return all[0]!;
}

/** All text below a node, in document order. */
export function deepText(node: XNode): string {
  return node.content.map((c) => (typeof c === 'string' ? c : deepText(c))).join('');
}

/** A canonical form for comparing documents regardless of indentation. */
export function canonical(node: XNode): unknown {
  return {
    n: node.name,
    a: Object.fromEntries(Object.entries(node.attrs).sort(([a], [b]) => a.localeCompare(b))),
    c: node.content
      .map((c) => (typeof c === 'string' ? c.replace(/\s+/g, ' ').trim() : canonical(c)))
      .filter((c) => c !== ''),
  };
}

/**
 * Decodes a literal as ecmaString writes it: single-quoted, escapes `\\`, `\'`, `\xHH`, `\uHHHH`
 * only, and no raw quote, backslash, `<`, `>`, `&`, control character or line terminator inside.
 */
export function decodeEcmaString(literal: string): string {
  if (literal.length < 2 || !literal.startsWith("'") || !literal.endsWith("'"))
    throw new Error(`not a literal: ${literal}`);
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    const code = body.charCodeAt(i);
    if (ch === '\\') {
      const e = body[i + 1];
      if (e === '\\' || e === "'") {
        out += e;
        i += 1;
      } else if (e === 'x' && /^[0-9A-F]{2}$/.test(body.slice(i + 2, i + 4))) {
        out += String.fromCharCode(parseInt(body.slice(i + 2, i + 4), 16));
        i += 3;
      } else if (e === 'u' && /^[0-9A-F]{4}$/.test(body.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(body.slice(i + 2, i + 6), 16));
        i += 5;
      } else {
        throw new Error(`unexpected escape at ${i} in ${literal}`);
      }
    } else if (/['"<>&\u2028\u2029]/.test(ch) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      throw new Error(`raw ${JSON.stringify(ch)} at ${i} in ${literal}`);
    } else {
      out += ch;
    }
  }
  return out;
}

/** What a string becomes once lone surrogates are replaced by U+FFFD (what ecmaString promises). */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** What XML text keeps of a string (the characters XML 1.0 allows). */
export function xmlKept(s: string): string {
  return s.replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '');
}
