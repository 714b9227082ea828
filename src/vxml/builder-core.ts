/**
 * Shared machinery of the typed builders (vxml-builder.ts, ssml-builder.ts, srgs-builder.ts): a
 * streaming XML writer, the node wrapper that runs every attribute and text through the one escaping
 * function pair (xmlAttr / xmlText in xml-values.ts), the per-document state (IDs in use), and the
 * fragment cache.
 *
 * Streaming: the document is written in document order while the builder is used, with no DOM in
 * between (a DOM and its serializer cost ~100 µs per ask document on every turn; this writer ~10 µs).
 * Each typed node owns one open element; adding a child to a node first closes whatever was opened
 * inside it since. A node whose element was closed (a later sibling or ancestor content was written)
 * can take no more content: that is a bug in the calling code and throws. Element and attribute
 * names come only from this code; attribute values and text only pass through xmlAttr and xmlText.
 * Indented output for people is the compact output re-serialized by xmlbuilder2 (prettyXml).
 *
 * Fragment cache: subtrees that are the same turn after turn (the intents' inline grammar, entity
 * grammars, the retry and filled handlers, property lists) are built ONCE through the same builder
 * into a detached writer, and the markup is stored and written again where it is needed next time.
 * No data is ever concatenated into XML: what is reused was written by the builder itself.
 *
 * Call values: a document's writer also takes a `CallValue` as an attribute value (the call's id,
 * caller number and turn, in `<var expr>`). The document then ends as a PreparedXml: the markup with
 * a gap at each call value, filled in by `fillPrepared` with the value as an ECMAScript string
 * literal (ecmaString) escaped for the attribute (xmlAttr), the same two functions any other value
 * passes through. render-document.ts keeps prepared documents, so a document that is the same for
 * every call but its call values is built once and only filled in on later turns.
 */
import { create } from 'xmlbuilder2';
import { ecmaString } from './ecma-string.js';
import { SizedCache } from './sized-cache.js';
import { xmlAttr, xmlText } from './xml-values.js';

export const VXML_NS = 'http://www.w3.org/2001/vxml';
export const SRGS_NS = 'http://www.w3.org/2001/06/grammar';

const fragmentCache = new SizedCache<string>(512, 4_000_000, (xml) => xml.length);

/** Per-document state shared by every node of one document. */
export class DocState {
  readonly ids = new Set<string>();
  private readonly families: string[] = [];

  /**
   * A document-unique xsd:ID: `base`, else `base2`, `base3`… With `family`, the ID is also the prefix
   * of the grammar's internal rule IDs (`<id>_units`), so no other ID may start with `<id>_`.
   */
  uniqueId(base: string, family = false): string {
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}${n}`;
      if (this.taken(id, family)) continue;
      this.ids.add(id);
      if (family) this.families.push(id);
      return id;
    }
  }

  private taken(id: string, family: boolean): boolean {
    if (this.ids.has(id)) return true;
    for (const f of this.families) if (id.startsWith(`${f}_`)) return true;
    if (family) for (const u of this.ids) if (u.startsWith(`${id}_`)) return true;
    return false;
  }
}

export type CallValueName = 'callId' | 'from' | 'turn';
export type CallValues = Readonly<Record<CallValueName, string>>;

/**
 * The place of one of the call's own values in a document (see "Call values" above): written as the
 * value's ECMAScript string literal when the prepared document is filled in.
 */
export class CallValue {
  static readonly callId = new CallValue('callId');
  static readonly from = new CallValue('from');
  static readonly turn = new CallValue('turn');

  private constructor(readonly name: CallValueName) {}
}

/** A document's markup with a gap before each of `parts` but the first, for the call value named in `slots`. */
export interface PreparedXml {
  readonly parts: readonly string[];
  readonly slots: readonly CallValueName[];
}

/** The document for one call: each gap gets `xmlAttr(ecmaString(value))`. */
export function fillPrepared(p: PreparedXml, values: CallValues): string {
  const { parts, slots } = p;
  if (slots.length === 0) return parts[0]!;
  const out = new Array<string>(parts.length + slots.length);
  out[0] = parts[0]!;
  for (let i = 0; i < slots.length; i++) {
    out[2 * i + 1] = xmlAttr(ecmaString(values[slots[i]!]));
    out[2 * i + 2] = parts[i + 1]!;
  }
  return out.join('');
}

/** The length of a prepared document's markup (without its call values). */
export const preparedChars = (p: PreparedXml): number => p.parts.reduce((n, part) => n + part.length, 0);

export type AttrValues = Record<string, string | CallValue | undefined>;

/**
 * One document (or detached fragment) being written: the markup so far and the open elements. The
 * last start tag stays open (no `>` yet) until the element gets content or is closed, so an element
 * without content is written `<name/>`, as xmlbuilder2 writes it.
 *
 * The markup is a list of pieces joined once by `end`, so documents and cached fragments are flat
 * strings. Built with `+=`, an ask document was a rope of hundreds of pieces that every reply had to
 * flatten before encoding it: rendering a 6.6 KB ask document and encoding it took 37–46 µs in a
 * loop, 23–30 µs with the pieces joined.
 */
export class XmlWriter {
  private readonly out: string[];
  private readonly names: string[] = [];
  private readonly ids: number[] = [];
  private tagOpen = false;
  private nextId = 1;
  private done = false;
  /** Indexes in `out` of the call values' gaps, and their names (documents only, see PreparedXml). */
  private readonly gaps: number[] = [];
  private readonly gapNames: CallValueName[] = [];

  /** `declaration`: a document (XML declaration, call values allowed); else a cacheable fragment. */
  constructor(private readonly declaration: boolean) {
    this.out = declaration ? ['<?xml version="1.0" encoding="UTF-8"?>'] : [];
  }

  /** Opens `name` inside element `parent` (0: at the top); returns the new element's id. */
  open(parent: number, name: string, attrs: AttrValues | undefined, ns?: string): number {
    this.enter(parent);
    let tag = `<${name}`;
    if (ns !== undefined) tag += ` xmlns="${xmlAttr(ns)}"`;
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === undefined) continue;
        if (!(v instanceof CallValue)) {
          tag += ` ${k}="${xmlAttr(v)}"`;
          continue;
        }
        // a fragment is cached as markup shared by every call: it can hold no call's value
        if (!this.declaration) throw new TypeError('XML builder: a call value inside a cached fragment');
        this.out.push(`${tag} ${k}="`);
        this.gaps.push(this.out.length);
        this.gapNames.push(v.name);
        this.out.push('');
        tag = '"';
      }
    }
    this.out.push(tag);
    this.tagOpen = true;
    const id = this.nextId++;
    this.names.push(name);
    this.ids.push(id);
    return id;
  }

  /** Character data inside element `parent`. */
  text(parent: number, value: string): void {
    const t = xmlText(value);
    if (t === '') return;
    this.enter(parent);
    this.out.push(t);
  }

  /** Markup this builder wrote earlier (a cached fragment), inside element `parent`. */
  markup(parent: number, xml: string): void {
    this.enter(parent);
    this.out.push(xml);
  }

  /** Closes every open element and answers the markup (of a document without call values). */
  end(): string {
    if (this.gaps.length > 0) throw new TypeError('XML builder: a document with call values is prepared, not ended');
    this.finish();
    return this.out.join('');
  }

  /** Closes every open element and answers the markup with its call values' gaps. */
  prepare(): PreparedXml {
    this.finish();
    const parts: string[] = [];
    let from = 0;
    for (const gap of this.gaps) {
      parts.push(this.out.slice(from, gap).join(''));
      from = gap + 1;
    }
    parts.push(this.out.slice(from).join(''));
    return { parts, slots: this.gapNames.slice() };
  }

  private finish(): void {
    if (!this.done) {
      this.closeDownTo(0);
      this.done = true;
    }
  }

  /** Makes `parent` the innermost open element (closing what was opened inside it) and ends its start tag. */
  private enter(parent: number): void {
    if (this.done) throw new TypeError('XML builder: the document was already finished');
    this.closeDownTo(parent);
    if (this.tagOpen) {
      this.out.push('>');
      this.tagOpen = false;
    }
  }

  private closeDownTo(parent: number): void {
    const ids = this.ids;
    if (parent !== 0 && !ids.includes(parent)) throw new TypeError('XML builder: content added to an element that was already closed');
    while (ids.length > 0 && ids[ids.length - 1] !== parent) {
      ids.pop();
      const name = this.names.pop()!;
      if (this.tagOpen) {
        this.out.push('/>');
        this.tagOpen = false;
      } else {
        this.out.push(`</${name}>`);
      }
    }
  }
}

/** Where a typed node writes: the document's writer and the node's own element there. */
export interface XmlElement {
  readonly w: XmlWriter;
  readonly id: number;
}

/** Base of every typed node: owns one open element of the document being written. */
export class BuilderNode {
  // Declared and assigned (not parameter properties, which ES2022 output defines as class fields
  // first): a document creates dozens of nodes, and defining the fields cost ~4 µs per document.
  protected declare readonly x: XmlElement;
  protected declare readonly state: DocState;

  constructor(x: XmlElement, state: DocState) {
    this.x = x;
    this.state = state;
  }

  /** Appends a child element; undefined attributes are left out, the others pass through xmlAttr. */
  protected add(name: string, attrs?: AttrValues): XmlElement {
    return { w: this.x.w, id: this.x.w.open(this.x.id, name, attrs) };
  }

  /** Appends character data (illegal XML characters removed, markup characters escaped by xmlText). */
  protected addText(value: string): void {
    this.x.w.text(this.x.id, value);
  }

  /**
   * Appends a subtree that is built once per `key` (by `build`, into a detached writer, so it takes
   * the namespace of wherever it is written) and reused as markup afterwards.
   */
  protected addCached(key: string, build: () => string): void {
    let xml = fragmentCache.get(key);
    if (xml === undefined) {
      xml = build();
      fragmentCache.set(key, xml);
    }
    this.x.w.markup(this.x.id, xml);
  }

  /**
   * Appends element `name` whose whole content is a function of `data`: built by `build(node, data)`
   * once per (name, attrs, data) and reused as markup. `build` must read nothing but `data`.
   */
  protected addElementOnce<T extends BuilderNode, D>(
    name: string,
    attrs: AttrValues,
    wrap: (x: XmlElement, state: DocState) => T,
    data: D,
    build: (node: T, data: D) => void,
  ): void {
    this.addCached(JSON.stringify([name, attrs, data]), () => {
      const { x, state } = detachedRoot(name, attrs);
      const node = wrap(x, state);
      build(node, data);
      return BuilderNode.finish(node);
    });
  }

  /**
   * Appends `<property>` elements for the pairs (names must already be NMTOKENs), built once per
   * distinct list and reused.
   */
  protected addPropertiesOnce(props: ReadonlyArray<readonly [string, string]>): void {
    if (props.length === 0) return;
    this.addCached(JSON.stringify(['properties', props]), () => {
      const w = new XmlWriter(false);
      for (const [name, value] of props) w.open(0, 'property', { name, value });
      return w.end();
    });
  }

  /** Ends the document (or fragment) this node belongs to: its markup, indented with `pretty`. */
  static finish(node: BuilderNode, opts: { pretty?: boolean } = {}): string {
    const xml = node.x.w.end();
    return opts.pretty ? prettyXml(xml) : xml;
  }

  /** Ends the document this node belongs to, with gaps for its call values. */
  static prepare(node: BuilderNode): PreparedXml {
    return node.x.w.prepare();
  }
}

/** A detached, namespace-free root element for building a cacheable fragment. */
export function detachedRoot(name: string, attrs: AttrValues): { x: XmlElement; state: DocState } {
  const w = new XmlWriter(false);
  return { x: { w, id: w.open(0, name, attrs) }, state: new DocState() };
}

/** A new document whose root element is in `ns`, with the XML declaration. */
export function documentRoot(ns: string, name: string, attrs: AttrValues): { x: XmlElement; state: DocState } {
  const w = new XmlWriter(true);
  return { x: { w, id: w.open(0, name, attrs, ns) }, state: new DocState() };
}

/** A compact document indented for people by xmlbuilder2 (whitespace inside mixed content changes). */
export function prettyXml(xml: string): string {
  return create(xml).end({ prettyPrint: true });
}

/** Cached fragments and their size in characters (for tests and diagnostics). */
export function fragmentCacheStats(): { entries: number; chars: number } {
  return fragmentCache.stats();
}
