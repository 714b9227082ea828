/**
 * Visits one form item: `<block>` (run once), `<field>` (prompts by count, grammars, one caller input,
 * recognition, shadow variables, `<filled>`), `<subdialog>` (fetch, run in a new context, result object
 * or propagated event), `<transfer>` (simulated: printed, outcome from the script or the default).
 */
import { ExitSignal, ScriptFailure, SessionEndSignal } from './control-signal.js';
import { selectPrompts, type ExecutableContent } from './executable-content.js';
import { describeGrammar, type CompiledGrammar } from './grammar-matcher.js';
import type { CallerInput } from './input-source.js';
import {
  propertyValue,
  toParam,
  type DocumentContext,
  type InterpreterRuntime,
} from './interpreter-runtime.js';
import type { ScopeChain } from './scope-chain.js';
import { parseTimeMs } from './document-fetcher.js';
import { badFetch, semanticError, VxmlEvent } from './vxml-event.js';
import { childElements, type XmlElement } from './xml-tree.js';

export interface FormItem {
  el: XmlElement;
  name: string;
  kind: string;
  promptCount: number;
  eventCounts: Map<string, number>;
}

/** What the item runner needs from its form. */
export interface FormAccess {
  readonly scope: ScopeChain;
  readonly form: XmlElement;
  exec(item: FormItem | undefined): ExecutableContent;
  path(item: FormItem | undefined): XmlElement[];
  inputItemNames(): string[];
}

/** A recording's duration, made up from the text that stands for it. */
const RECORDED_MS_PER_CHAR = 80;
const RECORDED_MS_MIN = 1000;

function grammarMode(g: CompiledGrammar): 'voice' | 'dtmf' {
  if (g.kind === 'builtin') return g.builtin.mode;
  if (g.kind === 'srgs') return g.grammar.mode;
  return 'voice';
}

export class FormItemRunner {
  constructor(
    private readonly rt: InterpreterRuntime,
    private readonly ctx: DocumentContext,
    private readonly form: FormAccess,
  ) {}

  async visit(item: FormItem, suppressPrompts: boolean): Promise<void> {
    switch (item.kind) {
      case 'block':
        this.form.scope.assign(item.name, true);
        await this.form.exec(item).run(item.el.children, this.form.scope.child(), { reprompt: false });
        return;
      case 'field':
        return this.field(item, suppressPrompts);
      case 'subdialog':
        return this.subdialog(item, suppressPrompts);
      case 'transfer':
        return this.transfer(item, suppressPrompts);
      case 'record':
        return this.record(item, suppressPrompts);
      case 'initial':
        this.form.scope.assign(item.name, true);
        this.rt.transcript.note('<initial> (mixed initiative) is not supported: skipped');
        return;
      default:
        throw new VxmlEvent(
          `error.unsupported.${item.kind}`,
          `<${item.kind}> is not supported by this interpreter`,
        );
    }
  }

  private playPrompts(item: FormItem): void {
    item.promptCount++;
    const exec = this.form.exec(item);
    const nodes = selectPrompts(item.el, item.promptCount, (cond) =>
      this.rt.evaluator.condition(cond, this.form.scope),
    );
    for (const n of nodes)
      exec.speak(typeof n !== 'string' && n.name === 'prompt' ? n.children : [n], this.form.scope);
  }

  private lineMustBeUp(): void {
    if (this.rt.session.disconnected) throw new SessionEndSignal('disconnect');
  }

  private async field(item: FormItem, suppressPrompts: boolean): Promise<void> {
    const grammars = await this.rt.matcher.compile(item.el, this.ctx.doc.url || undefined);
    // a grammar-based browser cannot fill a field that has no grammar (JVoiceXML: error.semantic)
    if (grammars.length === 0)
      throw semanticError(`No grammars defined for the input of form item "${item.name}"`);
    if (!suppressPrompts) this.playPrompts(item);
    this.lineMustBeUp();
    const path = this.form.path(item);
    const prompt = this.rt.transcript.spokenSinceInput;
    const modes = [...new Set(grammars.map(grammarMode))];
    const bargein = propertyValue('bargein', path) !== 'false';
    const request = {
      fieldName: item.name,
      prompt,
      modes,
      depth: this.ctx.depth,
      events: this.rt.eventNames(),
      grammars: grammars.map(describeGrammar),
      bargein,
    };
    const input: CallerInput | undefined = await this.rt.input.next(request);
    if (!input) {
      throw new ScriptFailure(
        `the caller's inputs ran out while field "${item.name}" waits for input, after hearing: "${prompt}"`,
      );
    }
    this.rt.transcript.caller(input, !this.rt.input.interactive, propertyValue('timeout', path));
    if (input.kind === 'hangup') this.rt.disconnect('caller', this.ctx.depth);
    if (input.kind === 'noinput') throw new VxmlEvent('noinput');
    let recognizerInput: { kind: 'speech'; text: string } | { kind: 'dtmf'; digits: string };
    if (input.kind === 'dtmf') {
      const termchar = propertyValue('termchar', path) ?? '#';
      let digits = input.digits;
      if (termchar !== '' && digits.length > 1 && digits.endsWith(termchar))
        digits = digits.slice(0, -termchar.length);
      recognizerInput = { kind: 'dtmf', digits };
    } else
      recognizerInput = {
        kind: 'speech',
        text: input.text,
        ...(input.confidence !== undefined ? { confidence: input.confidence } : {}),
      };
    const rec = this.rt.matcher.recognize(grammars, recognizerInput);
    if (!rec) {
      this.rt.transcript.line('   ↳ nomatch');
      throw new VxmlEvent('nomatch');
    }
    const level = Number(propertyValue('confidencelevel', path) ?? '0.5');
    if (rec.inputmode === 'voice' && rec.confidence < level) {
      this.rt.transcript.line(`   ↳ nomatch (confidence ${rec.confidence} < confidencelevel ${level})`);
      throw new VxmlEvent('nomatch');
    }
    const slot = item.el.attrs.slot ?? item.name;
    let value = rec.interpretation;
    if (value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, slot))
      value = (value as Record<string, unknown>)[slot];
    const shadow = {
      utterance: rec.utterance,
      confidence: rec.confidence,
      inputmode: rec.inputmode,
      interpretation: rec.interpretation,
    };
    this.form.scope.assign(item.name, value);
    this.form.scope.declare(`${item.name}$`, shadow);
    this.ctx.scope.named('application')?.declare('lastresult$', [shadow]);
    this.rt.transcript.recognized(item.name, value, rec.inputmode, rec.confidence, rec.grammar);
    await this.filled(item);
  }

  /**
   * `<record>`: the caller's speech stands for the recorded audio (its text is the recording's
   * value, its length makes the duration); silence or keys only (dtmfterm) record nothing: noinput.
   */
  private async record(item: FormItem, suppressPrompts: boolean): Promise<void> {
    if (!suppressPrompts) this.playPrompts(item);
    this.lineMustBeUp();
    const prompt = this.rt.transcript.spokenSinceInput;
    const input = await this.rt.input.next({
      fieldName: item.name,
      prompt,
      modes: ['voice'],
      depth: this.ctx.depth,
      events: this.rt.eventNames(),
    });
    if (!input)
      throw new ScriptFailure(
        `the caller's inputs ran out while <record> "${item.name}" waits for a message, after hearing: "${prompt}"`,
      );
    this.rt.transcript.caller(
      input,
      !this.rt.input.interactive,
      propertyValue('timeout', this.form.path(item)),
    );
    if (input.kind === 'hangup') this.rt.disconnect('caller', this.ctx.depth);
    if (input.kind !== 'speech' || input.text.trim() === '') throw new VxmlEvent('noinput');
    const maxtime = parseTimeMs(item.el.attrs.maxtime, Number.POSITIVE_INFINITY);
    const duration = Math.min(maxtime, Math.max(RECORDED_MS_MIN, input.text.length * RECORDED_MS_PER_CHAR));
    const audio = { type: item.el.attrs.type ?? 'audio/x-wav', transcript: input.text };
    this.form.scope.assign(item.name, audio);
    this.form.scope.declare(`${item.name}$`, {
      duration,
      size: Math.round(duration * 16),
      termchar: undefined,
      maxtime: duration >= maxtime,
    });
    this.rt.transcript.line(`   ↳ ${item.name} recorded (${duration} ms)`);
    await this.filled(item);
  }

  private async subdialog(item: FormItem, suppressPrompts: boolean): Promise<void> {
    if (!suppressPrompts) this.playPrompts(item);
    this.lineMustBeUp();
    const a = item.el.attrs;
    const ev = this.rt.evaluator;
    const scope = this.form.scope;
    const params: Record<string, unknown> = {};
    for (const p of childElements(item.el, 'param')) {
      if (!p.attrs.name) throw new VxmlEvent('error.semantic', '<param> without a name');
      params[p.attrs.name] = p.attrs.expr !== undefined ? ev.evaluate(p.attrs.expr, scope) : p.attrs.value;
    }
    const src = a.src ?? (a.srcexpr !== undefined ? String(ev.evaluate(a.srcexpr, scope)) : undefined);
    if (src === undefined) throw badFetch('<subdialog> without src or srcexpr');
    const exec = this.form.exec(item);
    const { url, fragment } = exec.resolve(src);
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(exec.namelist(a.namelist, scope))) query[k] = toParam(v);
    let method: 'GET' | 'POST';
    if (this.rt.mode === 'lenient') {
      method = 'GET';
      for (const [k, v] of Object.entries(params)) query[k] = toParam(v);
    } else method = (a.method ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET';
    const request = {
      kind: 'subdialog' as const,
      url,
      method,
      params: query,
      enctype: a.enctype,
      timeoutMs: exec.fetchTimeoutMs(a.fetchtimeout),
    };
    const outcome = await this.rt.runSubdialog(request, fragment, this.ctx.depth + 1, params);
    if (outcome.kind === 'exit') throw new ExitSignal(outcome.values);
    if (outcome.kind === 'event') throw outcome.event;
    if (outcome.event) throw new VxmlEvent(outcome.event.name, outcome.event.message);
    scope.assign(item.name, outcome.values);
    await this.filled(item);
  }

  private async transfer(item: FormItem, suppressPrompts: boolean): Promise<void> {
    if (!suppressPrompts) this.playPrompts(item);
    this.lineMustBeUp();
    const a = item.el.attrs;
    const ev = this.rt.evaluator;
    const scope = this.form.scope;
    const dest = a.dest ?? (a.destexpr !== undefined ? String(ev.evaluate(a.destexpr, scope)) : '');
    const aai = a.aai ?? (a.aaiexpr !== undefined ? String(ev.evaluate(a.aaiexpr, scope)) : undefined);
    const type = a.type ?? (a.bridge === 'true' ? 'bridge' : 'blind');
    this.rt.transcript.transfer(type, dest, aai);
    const request = {
      dest,
      aai,
      type,
      prompt: this.rt.transcript.spokenSinceInput,
      events: this.rt.eventNames(),
    };
    const outcome = (await this.rt.input.transferOutcome?.(request)) ?? this.rt.transferOutcome;
    this.rt.transcript.transferResult(outcome);
    if (/^(error|connection)\./.test(outcome)) throw new VxmlEvent(outcome, `transfer to ${dest}`);
    scope.assign(item.name, outcome);
    scope.declare(`${item.name}$`, { duration: 0, inputmode: undefined, utterance: undefined });
    if (type === 'blind' && outcome === 'unknown') {
      this.rt.session.disconnected = true;
      throw new VxmlEvent('connection.disconnect.transfer', `blind transfer to ${dest}`);
    }
    await this.filled(item);
  }

  /** The item's `<filled>`, then the form-level `<filled>`s its filling triggers. */
  private async filled(item: FormItem): Promise<void> {
    const exec = this.form.exec(item);
    const scope = this.form.scope;
    for (const f of childElements(item.el, 'filled'))
      await exec.run(f.children, scope.child(), { reprompt: false });
    for (const f of childElements(this.form.form, 'filled')) {
      const names = f.attrs.namelist?.split(/\s+/).filter(Boolean) ?? this.form.inputItemNames();
      if (!names.includes(item.name)) continue;
      if ((f.attrs.mode ?? 'all') === 'all' && names.some((n) => scope.vars[n] === undefined)) continue;
      await this.form.exec(undefined).run(f.children, scope.child(), { reprompt: false });
    }
  }
}
