/**
 * Executable content: what runs inside `<block>`, `<filled>` and catch handlers — `<var>`,
 * `<assign>`, `<if>/<elseif>/<else>`, `<prompt>` (and bare text/`<audio>`/`<value>`), `<log>`,
 * `<reprompt>`, `<submit>`, `<goto>`, `<return>`, `<exit>`, `<disconnect>`, `<throw>`, `<clear>`.
 * Transitions are thrown as control signals, events as VxmlEvent.
 */
import { ExitSignal, ReturnSignal, TransitionSignal } from './control-signal.js';
import { parseTimeMs } from './document-fetcher.js';
import {
  propertyValue,
  toParam,
  type DocumentContext,
  type ExecState,
  type FormHooks,
  type InterpreterRuntime,
} from './interpreter-runtime.js';
import type { ScopeChain } from './scope-chain.js';
import { spokenValue, ssmlText } from './ssml-text.js';
import { badFetch, semanticError, VxmlEvent } from './vxml-event.js';
import type { XmlElement, XmlNode } from './xml-tree.js';

export class ExecutableContent {
  constructor(
    private readonly rt: InterpreterRuntime,
    private readonly ctx: DocumentContext,
    /** Innermost first: the form item (if any), the form, the `<vxml>` root; for properties. */
    private readonly path: XmlElement[],
    private readonly form: FormHooks | undefined,
  ) {}

  async run(nodes: XmlNode[], scope: ScopeChain, state: ExecState): Promise<void> {
    for (const node of nodes) await this.step(node, scope, state);
  }

  /** Speaks prompt content now (silently noted when the line is down). */
  speak(nodes: XmlNode[], scope: ScopeChain): void {
    const text = ssmlText(nodes, (expr) => this.rt.evaluator.evaluate(expr, scope));
    this.rt.transcript.say(text, !this.rt.session.disconnected);
  }

  private async step(node: XmlNode, scope: ScopeChain, state: ExecState): Promise<void> {
    if (typeof node === 'string') {
      if (node.trim() !== '') this.speak([node], scope);
      return;
    }
    const a = node.attrs;
    const ev = this.rt.evaluator;
    switch (node.name) {
      case 'prompt':
        if (ev.condition(a.cond, scope)) this.speak(node.children, scope);
        return;
      case 'audio':
      case 'value':
      case 'enumerate':
        this.speak([node], scope);
        return;
      case 'var':
        if (!a.name) throw semanticError('<var> without a name');
        scope.declare(a.name, a.expr === undefined ? undefined : ev.evaluate(a.expr, scope));
        return;
      case 'assign':
        if (!a.name || a.expr === undefined) throw semanticError('<assign> needs name and expr');
        scope.assign(a.name, ev.evaluate(a.expr, scope));
        return;
      case 'if':
        await this.runIf(node, scope, state);
        return;
      case 'log': {
        const text =
          a.expr !== undefined
            ? spokenValue(ev.evaluate(a.expr, scope))
            : ssmlText(node.children, (e) => ev.evaluate(e, scope));
        this.rt.transcript.log(a.label ? `[${a.label}] ${text}` : text);
        return;
      }
      case 'reprompt':
        state.reprompt = true;
        return;
      case 'submit':
        return this.submit(node, scope);
      case 'data':
        return this.data(node, scope);
      case 'goto':
        return this.goto(node, scope);
      case 'return': {
        const name =
          a.event ?? (a.eventexpr !== undefined ? String(ev.evaluate(a.eventexpr, scope)) : undefined);
        const message =
          a.message ?? (a.messageexpr !== undefined ? String(ev.evaluate(a.messageexpr, scope)) : '');
        throw new ReturnSignal(
          this.namelist(a.namelist, scope),
          name === undefined ? undefined : { name, message },
        );
      }
      case 'exit': {
        const values = this.namelist(a.namelist, scope);
        if (a.expr !== undefined) values.expr = ev.evaluate(a.expr, scope);
        throw new ExitSignal(values);
      }
      case 'disconnect':
        this.rt.disconnect('document', this.ctx.depth);
        return;
      case 'throw': {
        const name =
          a.event ?? (a.eventexpr !== undefined ? String(ev.evaluate(a.eventexpr, scope)) : undefined);
        if (!name) throw semanticError('<throw> without an event');
        const message =
          a.message ?? (a.messageexpr !== undefined ? String(ev.evaluate(a.messageexpr, scope)) : '');
        throw new VxmlEvent(name, message);
      }
      case 'clear':
        this.form?.clear(a.namelist?.split(/\s+/).filter(Boolean));
        return;
      case 'elseif':
      case 'else':
        throw semanticError(`<${node.name}> outside <if>`);
      default:
        throw new VxmlEvent(
          `error.unsupported.${node.name}`,
          `<${node.name}> is not supported by this interpreter`,
        );
    }
  }

  private async runIf(node: XmlElement, scope: ScopeChain, state: ExecState): Promise<void> {
    const branches: Array<{ cond: string | undefined; body: XmlNode[] }> = [
      { cond: node.attrs.cond ?? 'false', body: [] },
    ];
    for (const child of node.children) {
      if (typeof child !== 'string' && child.name === 'elseif')
        branches.push({ cond: child.attrs.cond ?? 'false', body: [] });
      else if (typeof child !== 'string' && child.name === 'else')
        branches.push({ cond: undefined, body: [] });
      else (branches[branches.length - 1] as { body: XmlNode[] }).body.push(child);
    }
    for (const b of branches) {
      if (this.rt.evaluator.condition(b.cond, scope)) {
        await this.run(b.body, scope, state);
        return;
      }
    }
  }

  /** The values of a namelist, by name; without a namelist, nothing. */
  namelist(list: string | undefined, scope: ScopeChain): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const name of (list ?? '').split(/\s+/).filter(Boolean))
      values[name] = this.rt.evaluator.evaluate(name, scope);
    return values;
  }

  /** Resolves a URI against the document's URL (error.badfetch when it cannot be). */
  resolve(uri: string): { url: string; fragment: string | undefined } {
    let url: URL;
    try {
      url = new URL(uri, this.ctx.doc.url);
    } catch {
      throw badFetch(`"${uri}" is not a URL (document ${this.ctx.doc.url || 'without a URL'})`);
    }
    const fragment = url.hash ? decodeURIComponent(url.hash.slice(1)) : undefined;
    url.hash = '';
    return { url: url.toString(), fragment };
  }

  fetchTimeoutMs(attr: string | undefined): number {
    return parseTimeMs(attr ?? propertyValue('fetchtimeout', this.path), this.rt.defaultFetchTimeoutMs);
  }

  private async submit(node: XmlElement, scope: ScopeChain): Promise<never> {
    const a = node.attrs;
    const next =
      a.next ?? (a.expr !== undefined ? String(this.rt.evaluator.evaluate(a.expr, scope)) : undefined);
    if (next === undefined) throw badFetch('<submit> without next or expr');
    const { url, fragment } = this.resolve(next);
    const names =
      a.namelist !== undefined
        ? a.namelist.split(/\s+/).filter(Boolean)
        : (this.form?.inputItemNames() ?? []);
    const params: Record<string, string> = {};
    for (const name of names) params[name] = toParam(this.rt.evaluator.evaluate(name, scope));
    const method = (a.method ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET';
    this.rt.recordSubmit(url, method, params);
    const doc = await this.rt.fetchDocument({
      kind: 'submit',
      url,
      method,
      params,
      enctype: a.enctype,
      timeoutMs: this.fetchTimeoutMs(a.fetchtimeout),
    });
    throw new TransitionSignal(doc, fragment);
  }

  /**
   * `<data>` (VoiceXML 2.1): fetches an XML document without leaving the dialog and assigns its
   * parsed root to `name` (when given); a failure raises error.badfetch.
   */
  private async data(node: XmlElement, scope: ScopeChain): Promise<void> {
    const a = node.attrs;
    const src =
      a.src ?? (a.srcexpr !== undefined ? String(this.rt.evaluator.evaluate(a.srcexpr, scope)) : undefined);
    if (src === undefined) throw badFetch('<data> without src or srcexpr');
    const { url } = this.resolve(src);
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.namelist(a.namelist, scope))) params[k] = toParam(v);
    const method = (a.method ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET';
    const root = await this.rt.fetchData({
      kind: 'data',
      url,
      method,
      params,
      enctype: a.enctype,
      timeoutMs: this.fetchTimeoutMs(a.fetchtimeout),
    });
    if (a.name) scope.assign(a.name, root);
  }

  private async goto(node: XmlElement, scope: ScopeChain): Promise<never> {
    const a = node.attrs;
    const item =
      a.nextitem ??
      (a.expritem !== undefined ? String(this.rt.evaluator.evaluate(a.expritem, scope)) : undefined);
    if (item !== undefined) throw new TransitionSignal(undefined, undefined, item);
    const next =
      a.next ?? (a.expr !== undefined ? String(this.rt.evaluator.evaluate(a.expr, scope)) : undefined);
    if (next === undefined) throw badFetch('<goto> without a target');
    if (next.startsWith('#')) throw new TransitionSignal(undefined, next.slice(1));
    const { url, fragment } = this.resolve(next);
    const doc = await this.rt.fetchDocument({
      kind: 'goto',
      url,
      method: 'GET',
      params: {},
      timeoutMs: this.fetchTimeoutMs(a.fetchtimeout),
    });
    throw new TransitionSignal(doc, fragment);
  }
}

/** The prompts of a form item to play at a given prompt counter (VoiceXML count selection). */
export function selectPrompts(
  item: XmlElement,
  counter: number,
  isTrue: (cond: string | undefined) => boolean,
): XmlNode[] {
  const candidates = item.children.filter((c): c is XmlElement | string =>
    typeof c === 'string'
      ? c.trim() !== ''
      : ['prompt', 'audio', 'value', 'enumerate'].includes(c.name) &&
        (c.name !== 'prompt' || isTrue(c.attrs.cond)),
  );
  const countOf = (c: XmlNode): number =>
    typeof c !== 'string' && c.name === 'prompt' && c.attrs.count ? Number(c.attrs.count) : 1;
  const eligible = candidates.filter((c) => countOf(c) <= counter);
  if (eligible.length === 0) return [];
  const chosen = Math.max(...eligible.map(countOf));
  return eligible.filter((c) => countOf(c) === chosen);
}
