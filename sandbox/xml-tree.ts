/**
 * A small, order-preserving XML element tree for the VoiceXML interpreter (fast-xml-parser underneath).
 * Namespace prefixes are dropped from element names; comments and processing instructions are skipped.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

/** A child node: an element or a run of text. */
export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  cdataPropName: '#cdata',
});

type RawNode = Record<string, unknown>;

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function convert(raw: RawNode[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of raw) {
    for (const key of Object.keys(node)) {
      if (key === ':@') continue;
      const value = node[key];
      if (key === '#text') {
        out.push(String(value));
      } else if (key === '#cdata') {
        for (const part of convert(value as RawNode[])) if (typeof part === 'string') out.push(part);
      } else if (!key.startsWith('?') && !key.startsWith('!')) {
        const attrs: Record<string, string> = {};
        const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
        for (const [name, v] of Object.entries(rawAttrs)) attrs[name] = String(v);
        out.push({ name: localName(key), attrs, children: convert((value ?? []) as RawNode[]) });
      }
    }
  }
  return out;
}

/** Parses an XML document and returns its root element; throws an Error with the reason when it is not well-formed. */
export function parseXmlTree(text: string): XmlElement {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new Error(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  const roots = convert(parser.parse(text) as RawNode[]).filter(
    (n): n is XmlElement => typeof n !== 'string',
  );
  const root = roots[0];
  if (!root || roots.length > 1) throw new Error('an XML document needs exactly one root element');
  return root;
}

/** Child elements, optionally only those with one of the given names. */
export function childElements(el: XmlElement, ...names: string[]): XmlElement[] {
  return el.children.filter(
    (c): c is XmlElement => typeof c !== 'string' && (names.length === 0 || names.includes(c.name)),
  );
}

/** All text inside an element, in document order. */
export function textContent(node: XmlNode): string {
  if (typeof node === 'string') return node;
  return node.children.map(textContent).join('');
}

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

/** An element as a short human-readable tag, e.g. `<field name="userinput">`. */
export function describeElement(el: XmlElement): string {
  const id = el.attrs.name ?? el.attrs.id;
  return id ? `<${el.name} ${el.attrs.name ? 'name' : 'id'}="${id}">` : `<${el.name}>`;
}
