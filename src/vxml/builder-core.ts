/**
 * Shared machinery of the typed builders (vxml-builder.ts, ssml-builder.ts, srgs-builder.ts): a node
 * wrapper over xmlbuilder2 that runs every attribute through xmlAttr, the per-document state (IDs in
 * use, cached fragments), and the fragment cache.
 *
 * Fragment cache: subtrees that are the same turn after turn (the intents' inline grammar, entity
 * grammars, the retry and filled handlers) are built ONCE through the builder, serialized by
 * xmlbuilder2, and stored. A document that needs one gets a placeholder element
 * `<vxml-fragment>N</vxml-fragment>` at that place, which BuilderNode.finish swaps for the stored
 * serialization. Data can never produce that marker: text and attribute values are escaped by
 * xmlbuilder2 (`<` → `&lt;`) and element names come only from this code. The fragments themselves were
 * escaped by the same builder, so no data is ever concatenated into XML. (A placeholder element, not a
 * processing instruction: one PI node makes xmlbuilder2's node constructor megamorphic and every later
 * document about three times slower.)
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { xmlAttr, xmlText } from './xml-values.js';

export const VXML_NS = 'http://www.w3.org/2001/vxml';
export const SRGS_NS = 'http://www.w3.org/2001/06/grammar';

const FRAGMENT_TAG = 'vxml-fragment';
const FRAGMENT_MARK = /<vxml-fragment>(\d+)<\/vxml-fragment>/g;
const CACHE_MAX_ENTRIES = 512;
const CACHE_MAX_CHARS = 4_000_000;
const fragmentCache = new Map<string, string>();
let cachedChars = 0;

function remember(key: string, xml: string): void {
  fragmentCache.set(key, xml);
  cachedChars += xml.length + key.length;
  while (fragmentCache.size > CACHE_MAX_ENTRIES || (cachedChars > CACHE_MAX_CHARS && fragmentCache.size > 1)) {
    const [oldKey, oldXml] = fragmentCache.entries().next().value!;
    fragmentCache.delete(oldKey);
    cachedChars -= oldXml.length + oldKey.length;
  }
}

/** Per-document state shared by every node of one document. */
export class DocState {
  readonly ids = new Set<string>();
  readonly fragments: string[] = [];
  private readonly families: string[] = [];

  /** false: cacheable subtrees are built in place (pretty output, where every element is indented). */
  constructor(readonly useFragmentCache = true) {}

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

/** Base of every typed node: owns one xmlbuilder2 element. */
export class BuilderNode {
  constructor(
    protected readonly x: XMLBuilder,
    protected readonly state: DocState,
  ) {}

  /** Appends a child element; undefined attributes are left out, the others pass through xmlAttr. */
  protected add(name: string, attrs?: AttrValues): XMLBuilder {
    if (!attrs) return this.x.ele(name);
    const clean: Record<string, string> = {};
    for (const k in attrs) {
      const v = attrs[k];
      if (v !== undefined) clean[k] = xmlAttr(v);
    }
    return this.x.ele(name, clean);
  }

  /** Appends character data (illegal XML characters removed; xmlbuilder2 escapes the rest). */
  protected addText(value: string): void {
    const t = xmlText(value);
    if (t !== '') this.x.txt(t);
  }

  /**
   * Appends a subtree that is built once per `key` (by `build`, in a detached no-namespace document,
   * so it inherits the namespace of wherever it is inserted) and reused as serialized XML afterwards.
   */
  protected addCached(key: string, build: () => string): void {
    let xml = fragmentCache.get(key);
    if (xml === undefined) {
      xml = build();
      remember(key, xml);
    } else {
      fragmentCache.delete(key); // most recently used goes last
      fragmentCache.set(key, xml);
    }
    const n = this.state.fragments.push(xml) - 1;
    this.x.ele(FRAGMENT_TAG).txt(String(n));
  }

  /**
   * Appends element `name` whose whole content is a function of `data`: built by `build(node, data)`
   * once per (name, attrs, data) and reused as serialized XML. `build` must read nothing but `data`.
   */
  protected addElementOnce<T extends BuilderNode, D>(
    name: string,
    attrs: AttrValues,
    wrap: (x: XMLBuilder, state: DocState) => T,
    data: D,
    build: (node: T, data: D) => void,
  ): void {
    if (!this.state.useFragmentCache) {
      build(wrap(this.add(name, attrs), this.state), data);
      return;
    }
    this.addCached(JSON.stringify([name, attrs, data]), () => {
      const { x, state } = detachedRoot(name, attrs);
      const node = wrap(x, state);
      build(node, data);
      return BuilderNode.finish(node, { headless: true });
    });
  }

  /**
   * Appends `<property>` elements for the pairs (names must already be NMTOKENs), built once per
   * distinct list and reused: serialized inside a detached wrapper whose tags are then dropped.
   */
  protected addPropertiesOnce(props: ReadonlyArray<readonly [string, string]>): void {
    if (props.length === 0) return;
    if (!this.state.useFragmentCache) {
      for (const [name, value] of props) this.add('property', { name, value });
      return;
    }
    this.addCached(JSON.stringify(['properties', props]), () => {
      const { x, state } = detachedRoot(FRAGMENT_TAG, {});
      const group = new BuilderNode(x, state);
      for (const [name, value] of props) group.add('property', { name, value });
      const xml = BuilderNode.finish(group, { headless: true });
      const open = `<${FRAGMENT_TAG}>`;
      const close = `</${FRAGMENT_TAG}>`;
      if (!xml.startsWith(open) || !xml.endsWith(close)) throw new Error('unexpected fragment serialization');
      return xml.slice(open.length, -close.length);
    });
  }

  /** Serializes the whole document this node belongs to, with cached fragments put in place. */
  static finish(node: BuilderNode, opts: { pretty?: boolean; headless?: boolean } = {}): string {
    const out = node.x.end({ prettyPrint: opts.pretty ?? false, headless: opts.headless ?? false });
    const { fragments } = node.state;
    if (fragments.length === 0) return out;
    return out.replace(FRAGMENT_MARK, (_m, i: string) => fragments[Number(i)]!);
  }
}

/** A detached, namespace-free root element for building a cacheable fragment. */
export function detachedRoot(name: string, attrs: AttrValues): { x: XMLBuilder; state: DocState } {
  const clean: Record<string, string> = {};
  for (const k in attrs) {
    const v = attrs[k];
    if (v !== undefined) clean[k] = xmlAttr(v);
  }
  return { x: create().ele(name, clean), state: new DocState() };
}

/** A new document whose root element is in `ns`, with the XML declaration. */
export function documentRoot(ns: string, name: string, attrs: AttrValues, useFragmentCache = true): { x: XMLBuilder; state: DocState } {
  const clean: Record<string, string> = {};
  for (const k in attrs) {
    const v = attrs[k];
    if (v !== undefined) clean[k] = xmlAttr(v);
  }
  return { x: create({ version: '1.0', encoding: 'UTF-8' }).ele(ns, name, clean), state: new DocState(useFragmentCache) };
}

/** Cached fragments and their size in characters (for tests and diagnostics). */
export function fragmentCacheStats(): { entries: number; chars: number } {
  return { entries: fragmentCache.size, chars: cachedChars };
}
