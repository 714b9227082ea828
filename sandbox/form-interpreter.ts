/**
 * The Form Interpretation Algorithm for one `<form>`: initialise the form's `<var>`s and item
 * variables (the subdialog's `<param>`s land in same-named `<var>`s), then repeatedly select the first
 * form item whose variable is undefined and whose cond holds, visit it (block, field, subdialog,
 * transfer), and handle the events it throws with the VoiceXML catch selection: candidates from the
 * item, the form and the document, filtered by name and cond, then the highest count ≤ the event's
 * counter (kept per item and per event name), first in document order.
 */
import {
  ExitSignal,
  ReturnSignal,
  ScriptFailure,
  TransitionSignal,
  type LoadedDocument,
} from './control-signal.js';
import { ExecutableContent } from './executable-content.js';
import { FormItemRunner, type FormItem } from './form-item-runner.js';
import type { DocumentContext, FormHooks, InterpreterRuntime } from './interpreter-runtime.js';
import { ScopeChain } from './scope-chain.js';
import { eventMatches, semanticError, badFetch, VxmlEvent } from './vxml-event.js';
import { childElements, describeElement, type XmlElement } from './xml-tree.js';

export type FormOutcome =
  | { kind: 'transition'; document: LoadedDocument | undefined; dialogId: string | undefined }
  | { kind: 'return'; values: Record<string, unknown>; event?: { name: string; message: string } }
  | { kind: 'exit'; values: Record<string, unknown> }
  | { kind: 'event'; event: VxmlEvent }
  /** No form item left to select: the form is done. */
  | { kind: 'end' };

type StepResult =
  | { kind: 'ok' }
  | { kind: 'handled'; reprompt: boolean }
  | { kind: 'next-item'; name: string }
  | { kind: 'done'; outcome: FormOutcome };

const ITEM_KINDS = ['field', 'block', 'subdialog', 'transfer', 'initial', 'record', 'object'];
const INPUT_KINDS = ['field', 'subdialog', 'transfer', 'record', 'object'];
const CATCH_KINDS = ['catch', 'noinput', 'nomatch', 'help', 'error'];
const DEFAULT_REPROMPT = ['noinput', 'nomatch', 'help'];
const MAX_NESTED_EVENTS = 25;

export interface FormOptions {
  /** The `<param>` values of the subdialog call (only for the first form of its first document). */
  params?: Record<string, unknown>;
  /** Run the document-level `<var>`s first (the first dialog after a document is loaded). */
  initDocument: boolean;
}

export class FormInterpreter implements FormHooks {
  readonly scope: ScopeChain;
  private readonly items: FormItem[] = [];
  private readonly formEventCounts = new Map<string, number>();
  private readonly runner: FormItemRunner;

  constructor(
    private readonly rt: InterpreterRuntime,
    private readonly ctx: DocumentContext,
    readonly form: XmlElement,
    private readonly options: FormOptions,
  ) {
    this.scope = new ScopeChain('dialog', ctx.scope);
    this.runner = new FormItemRunner(rt, ctx, this);
  }

  async run(): Promise<FormOutcome> {
    const init = await this.guard(undefined, () => this.initialize());
    if (init.kind === 'done') return init.outcome;
    let suppressPrompts = false;
    let nextItem: string | undefined = init.kind === 'next-item' ? init.name : undefined;
    for (;;) {
      this.rt.tick();
      let item: FormItem | undefined;
      if (nextItem !== undefined) {
        const wanted = nextItem;
        item = this.items.find((i) => i.name === wanted);
        if (!item)
          return { kind: 'event', event: badFetch(`<goto nextitem="${wanted}">: no such form item`) };
        nextItem = undefined;
      } else item = this.select();
      if (!item) return { kind: 'end' };
      const visited = item;
      const step = await this.guard(visited, () => this.runner.visit(visited, suppressPrompts));
      if (step.kind === 'done') return step.outcome;
      if (step.kind === 'next-item') nextItem = step.name;
      suppressPrompts = step.kind === 'handled' && !step.reprompt;
    }
  }

  /** Executable content bound to this form (and an item, for properties). */
  exec(item: FormItem | undefined): ExecutableContent {
    return new ExecutableContent(this.rt, this.ctx, this.path(item), this);
  }

  /** Innermost first: the item, the form, the document root. */
  path(item: FormItem | undefined): XmlElement[] {
    return item ? [item.el, this.form, this.ctx.doc.root] : [this.form, this.ctx.doc.root];
  }

  inputItemNames(): string[] {
    return this.items.filter((i) => INPUT_KINDS.includes(i.kind)).map((i) => i.name);
  }

  itemNames(): string[] {
    return this.items.map((i) => i.name);
  }

  clear(names: string[] | undefined): void {
    for (const name of names ?? this.items.map((i) => i.name)) {
      this.scope.assign(name, undefined);
      const item = this.items.find((i) => i.name === name);
      if (item) {
        item.promptCount = 0;
        item.eventCounts.clear();
      }
    }
  }

  private initialize(): Promise<void> {
    const ev = this.rt.evaluator;
    if (this.options.initDocument) {
      for (const child of childElements(this.ctx.doc.root)) {
        if (child.name === 'var' && child.attrs.name) {
          this.ctx.scope.declare(
            child.attrs.name,
            child.attrs.expr === undefined ? undefined : ev.evaluate(child.attrs.expr, this.ctx.scope),
          );
        } else if (child.name === 'script')
          throw new VxmlEvent('error.unsupported.script', '<script> is not supported');
      }
    }
    const params = this.options.params;
    const used = new Set<string>();
    childElements(this.form).forEach((child, index) => {
      const name = child.attrs.name;
      if (child.name === 'var' && name) {
        if (params && Object.prototype.hasOwnProperty.call(params, name)) {
          this.scope.declare(name, params[name]);
          used.add(name);
        } else
          this.scope.declare(
            name,
            child.attrs.expr === undefined ? undefined : ev.evaluate(child.attrs.expr, this.scope),
          );
      } else if (child.name === 'script') {
        throw new VxmlEvent('error.unsupported.script', '<script> is not supported');
      } else if (ITEM_KINDS.includes(child.name)) {
        const itemName = name ?? `_${child.name}${index}`;
        this.scope.declare(
          itemName,
          child.attrs.expr === undefined ? undefined : ev.evaluate(child.attrs.expr, this.scope),
        );
        this.items.push({
          el: child,
          name: itemName,
          kind: child.name,
          promptCount: 0,
          eventCounts: new Map(),
        });
      }
    });
    const unmatched = Object.keys(params ?? {}).filter((p) => !used.has(p));
    if (unmatched.length > 0) {
      const list = unmatched.join(', ');
      if (this.rt.mode === 'strict-w3c') {
        throw semanticError(
          `<param> ${list} of the <subdialog> has no <var> of the same name in the first form of ${this.ctx.doc.url}`,
        );
      }
      this.rt.transcript.note(
        `params ${list} have no matching form <var> (lenient: ignored; a strict browser raises error.semantic)`,
      );
    }
    return Promise.resolve();
  }

  private select(): FormItem | undefined {
    return this.items.find((i) => {
      if (this.scope.vars[i.name] !== undefined) return false;
      try {
        return this.rt.evaluator.condition(i.el.attrs.cond, this.scope);
      } catch (err) {
        this.rt.transcript.note(
          `cond of ${describeElement(i.el)} failed (${err instanceof Error ? err.message : String(err)}): item skipped`,
        );
        return false;
      }
    });
  }

  /** Runs a step and handles the events it throws (and the events their handlers throw). */
  private async guard(item: FormItem | undefined, body: () => Promise<void>): Promise<StepResult> {
    let pending: VxmlEvent | undefined;
    try {
      await body();
      return { kind: 'ok' };
    } catch (err) {
      if (!(err instanceof VxmlEvent)) return this.signal(err);
      pending = err;
    }
    for (let n = 0; n < MAX_NESTED_EVENTS; n++) {
      const event: VxmlEvent = pending;
      try {
        const handled = await this.handleEvent(event, item);
        return handled
          ? { kind: 'handled', reprompt: handled.reprompt }
          : { kind: 'done', outcome: { kind: 'event', event } };
      } catch (err) {
        if (!(err instanceof VxmlEvent)) return this.signal(err);
        pending = err;
      }
    }
    throw new ScriptFailure(`event loop: ${pending.eventName} keeps being thrown by its own handlers`);
  }

  private signal(err: unknown): StepResult {
    if (err instanceof TransitionSignal) {
      if (!err.document && err.nextItem !== undefined) return { kind: 'next-item', name: err.nextItem };
      return {
        kind: 'done',
        outcome: { kind: 'transition', document: err.document, dialogId: err.dialogId },
      };
    }
    if (err instanceof ReturnSignal)
      return { kind: 'done', outcome: { kind: 'return', values: err.values, event: err.event } };
    if (err instanceof ExitSignal) return { kind: 'done', outcome: { kind: 'exit', values: err.values } };
    throw err;
  }

  private async handleEvent(
    event: VxmlEvent,
    item: FormItem | undefined,
  ): Promise<{ reprompt: boolean } | undefined> {
    const name = event.eventName;
    const counts = item ? item.eventCounts : this.formEventCounts;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const where: Array<[XmlElement, string]> = [
      [this.form, 'form'],
      [this.ctx.doc.root, 'document'],
    ];
    if (item) where.unshift([item.el, describeElement(item.el)]);
    const candidates: Array<{ el: XmlElement; where: string }> = [];
    for (const [el, label] of where) {
      for (const c of childElements(el, ...CATCH_KINDS)) {
        if (!eventMatches(c.name === 'catch' ? c.attrs.event : c.name, name)) continue;
        let ok = false;
        try {
          ok = this.rt.evaluator.condition(c.attrs.cond, this.scope);
        } catch {
          ok = false;
        }
        if (ok) candidates.push({ el: c, where: label });
      }
    }
    const countOf = (c: { el: XmlElement }): number => Number(c.el.attrs.count ?? '1');
    const eligible = candidates.filter((c) => countOf(c) <= count);
    const depth = this.ctx.depth;
    if (eligible.length === 0) {
      if (DEFAULT_REPROMPT.includes(name)) {
        this.rt.recordEvent(event, depth, true, `no handler: default reprompt (${name} #${count})`);
        return { reprompt: true };
      }
      const hangup = name.startsWith('connection.disconnect');
      const where =
        depth > 0
          ? 'not caught: it leaves the subdialog'
          : hangup
            ? 'default handler: the call ends'
            : 'not caught: it ends the call';
      this.rt.recordEvent(event, depth, false, where);
      return undefined;
    }
    const best = Math.max(...eligible.map(countOf));
    const handler = eligible.find((c) => countOf(c) === best) as { el: XmlElement; where: string };
    const attrs = Object.entries(handler.el.attrs)
      .map(([k, v]) => ` ${k}="${v}"`)
      .join('');
    this.rt.recordEvent(
      event,
      depth,
      true,
      `<${handler.el.name}${attrs}> of the ${handler.where} (${name} #${count})`,
    );
    const scope = this.scope.child();
    scope.declare('_event', name);
    scope.declare('_message', event.eventMessage);
    const state = { reprompt: false };
    await this.exec(item).run(handler.el.children, scope, state);
    return { reprompt: state.reprompt };
  }
}
