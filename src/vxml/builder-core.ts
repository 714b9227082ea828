/**
 * Shared machinery of the typed builders (vxml-builder.ts, ssml-builder.ts, srgs-builder.ts): a
 * streaming XML writer, the node wrapper that runs every attribute and text through the one escaping
 * function pair (xmlAttr / xmlText in xml-values.ts), and the per-document state (IDs in use).
 *
 * Streaming: the document is written in document order while the builder is used, with no DOM in
 * between (building an xmlbuilder2 DOM and serializing it was several times slower per document).
 * Each typed node owns one open element; adding a child to a node first closes whatever was opened
 * inside it since. A node whose element was closed (a later sibling or ancestor content was written)
 * can take no more content: that is a bug in the calling code and throws. Element and attribute
 * names come only from this code; attribute values and text only pass through xmlAttr and xmlText.
 * Indented output for people is the compact output re-serialized by xmlbuilder2 (prettyXml).
 */
import { create } from 'xmlbuilder2';
import { xmlAttr, xmlText } from './xml-values.js';

export const VXML_NS = 'http://www.w3.org/2001/vxml';
export const SRGS_NS = 'http://www.w3.org/2001/06/grammar';

/** The voice a document's prompts are spoken in (SSML `<voice>`): a name list, a gender, its language. */
export interface PromptVoice {
  name?: string;
  gender?: 'male' | 'female' | 'neutral';
  lang?: string;
}

/** Per-document state shared by every node of one document. */
export class DocState {
  readonly ids = new Set<string>();
  /** The document's language (its xml:lang): how say-as content is written for it. */
  lang: string | undefined;
  /** The voice every prompt of the document is spoken in, when one is set. */
  voice: PromptVoice | undefined;
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

export type AttrValues = Record<string, string | undefined>;

/**
 * One document (or detached fragment) being written: the markup so far and the open elements. The
 * last start tag stays open (no `>` yet) until the element gets content or is closed, so an element
 * without content is written `<name/>`, as xmlbuilder2 writes it.
 *
 * The markup is a list of pieces joined once by `end`, so a document is a flat string (built with
 * `+=`, it was a rope of hundreds of pieces that every reply had to flatten before encoding it).
 */
export class XmlWriter {
  private readonly out: string[];
  private readonly names: string[] = [];
  private readonly ids: number[] = [];
  private tagOpen = false;
  private nextId = 1;
  private done = false;

  /** `declaration`: a document (starts with the XML declaration); else a bare fragment. */
  constructor(declaration: boolean) {
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
        if (v !== undefined) tag += ` ${k}="${xmlAttr(v)}"`;
      }
    }
    this.out.push(tag);
    this.tagOpen = true;
    const id = this.nextId++;
    this.names.push(name);
    this.ids.push(id);
    return id;
  }

  /** Markup prepared by another writer (PreparedMarkup), written inside element `parent` as it is. */
  prepared(parent: number, markup: PreparedMarkup): void {
    if (!(markup instanceof PreparedMarkup))
      throw new TypeError('XML builder: prepared markup must come from PreparedMarkup.write');
    this.enter(parent);
    this.out.push(markup.xml);
  }

  /** Character data inside element `parent`. */
  text(parent: number, value: string): void {
    const t = xmlText(value);
    if (t === '') return;
    this.enter(parent);
    this.out.push(t);
  }

  /** Closes every open element and answers the markup. */
  end(): string {
    if (!this.done) {
      this.closeDownTo(0);
      this.done = true;
    }
    return this.out.join('');
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
    if (parent !== 0 && !ids.includes(parent))
      throw new TypeError('XML builder: content added to an element that was already closed');
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

/**
 * A fragment written once by the typed builders and written again, as it is, into many documents
 * (an agent version's intent grammar items). Only `write` makes one: its markup comes from an
 * XmlWriter, so it holds only escaped text and the builders' own elements, and it is complete (every
 * element closed). It must not depend on the document it goes into (no document-unique IDs).
 */
export class PreparedMarkup {
  private constructor(readonly xml: string) {}

  /** Runs `build` on a fresh fragment (its top elements at parent 0) and keeps the markup. */
  static write(build: (top: XmlElement, state: DocState) => void): PreparedMarkup {
    const w = new XmlWriter(false);
    build({ w, id: 0 }, new DocState());
    return new PreparedMarkup(w.end());
  }
}

/** Where a typed node writes: the document's writer and the node's own element there. */
export interface XmlElement {
  readonly w: XmlWriter;
  readonly id: number;
}

/** Base of every typed node: owns one open element of the document being written. */
export class BuilderNode {
  constructor(
    protected readonly x: XmlElement,
    protected readonly state: DocState,
  ) {}

  /** Appends a child element; undefined attributes are left out, the others pass through xmlAttr. */
  protected add(name: string, attrs?: AttrValues): XmlElement {
    return { w: this.x.w, id: this.x.w.open(this.x.id, name, attrs) };
  }

  /** Appends a prepared fragment (PreparedMarkup) as the node's next content. */
  protected addPrepared(markup: PreparedMarkup): void {
    this.x.w.prepared(this.x.id, markup);
  }

  /** Appends character data (illegal XML characters removed, markup characters escaped by xmlText). */
  protected addText(value: string): void {
    this.x.w.text(this.x.id, value);
  }

  /** Ends the document (or fragment) this node belongs to: its markup, indented with `pretty`. */
  static finish(node: BuilderNode, opts: { pretty?: boolean } = {}): string {
    const xml = node.x.w.end();
    return opts.pretty ? prettyXml(xml) : xml;
  }
}

/** A new document whose root element is in `ns`, with the XML declaration. */
export function documentRoot(
  ns: string,
  name: string,
  attrs: AttrValues,
): { x: XmlElement; state: DocState } {
  const w = new XmlWriter(true);
  return { x: { w, id: w.open(0, name, attrs, ns) }, state: new DocState() };
}

/** A compact document indented for people by xmlbuilder2 (whitespace inside mixed content changes). */
export function prettyXml(xml: string): string {
  return create(xml).end({ prettyPrint: true });
}
