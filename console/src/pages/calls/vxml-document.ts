/**
 * A traced VoiceXML document for reading: parsed by the browser's DOMParser (which says whether it
 * is well-formed), indented by adding whitespace between the elements of element-only content (the
 * DOM, never string surgery; mixed content such as a prompt's text is left as it is), serialized
 * back, and split into highlighted tokens by the XML grammar of @lezer/xml. Validity against the
 * VoiceXML schema (vxml.xsd) is not checked here, nor by the service at run time.
 */
import { parser } from '@lezer/xml';
import { classHighlighter, highlightCode } from '@lezer/highlight';

export interface ReadableDocument {
  text: string;
  wellFormed: boolean;
  /** The parser's complaint when the document is not well-formed. */
  problem?: string;
}

const ELEMENT = 1;
const TEXT = 3;

function indent(el: Element, depth: number): void {
  const kids = [...el.childNodes];
  const mixed =
    kids.some((n) => n.nodeType === TEXT && (n.textContent ?? '').trim() !== '') ||
    kids.some((n) => n.nodeType === 4);
  if (mixed || kids.length === 0) return;
  const doc = el.ownerDocument;
  for (const n of kids) if (n.nodeType === TEXT) el.removeChild(n);
  for (const n of [...el.childNodes]) {
    el.insertBefore(doc.createTextNode(`\n${'  '.repeat(depth)}`), n);
    if (n.nodeType === ELEMENT) indent(n as Element, depth + 1);
  }
  el.appendChild(doc.createTextNode(`\n${'  '.repeat(depth - 1)}`));
}

/** The document indented for reading, and whether it is well-formed XML. */
export function readableDocument(xml: string): ReadableDocument {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error)
    return { text: xml, wellFormed: false, problem: (error.textContent ?? '').trim().split('\n')[0] ?? '' };
  indent(doc.documentElement, 1);
  // the serializer keeps the XML declaration on the root's line: a line break after it, for reading
  const body = new XMLSerializer().serializeToString(doc);
  const declaration = /^<\?xml[^>]*\?>/.exec(body)?.[0];
  return { text: declaration ? `${declaration}\n${body.slice(declaration.length)}` : body, wellFormed: true };
}

export interface Token {
  text: string;
  /** classHighlighter's classes (tok-typeName for a tag name, tok-propertyName, tok-string…); '' for plain text. */
  classes: string;
}

/** The text as lines of highlighted tokens. */
export function highlightedLines(text: string): Token[][] {
  const lines: Token[][] = [[]];
  highlightCode(
    text,
    parser.parse(text),
    classHighlighter,
    (t, classes) => lines[lines.length - 1]!.push({ text: t, classes }),
    () => lines.push([]),
  );
  return lines;
}

/** A prompt's text, a `<break>` (the pause between two messages) read as a space. */
function promptText(node: Node): string {
  let text = '';
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE)
      text += child.nodeValue ?? '';
    else if (child.nodeType === Node.ELEMENT_NODE)
      text += (child as Element).localName === 'break' ? ' ' : promptText(child);
  }
  return text;
}

/** What the caller heard: the text of the document's prompts outside its event handlers (`<catch>`). */
export function spokenText(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror')[0]) return '';
  const said: string[] = [];
  for (const p of [...doc.getElementsByTagNameNS('*', 'prompt')]) {
    if (p.closest('catch')) continue;
    const text = promptText(p).replace(/\s+/g, ' ').trim();
    if (text) said.push(text);
  }
  return said.join(' ');
}
