/**
 * A small typed builder for the VoiceXML 2.1 we emit (in the spirit of twilio-node's TwiML builder),
 * written as it is used by the streaming writer of builder-core.ts (no DOM): each class only offers
 * the children the schema allows where we use them, so a wrong nesting does not compile. Text goes
 * only through text nodes (escaped, illegal characters removed, by xmlText in xml-values.ts);
 * `expr`/`cond` only take EcmaExpr (see ecma-string.ts); URIs, durations, names and language tags
 * are checked against their schema datatypes.
 */
import type { EcmaExpr } from './ecma-string.js';
import { BuilderNode, VXML_NS, documentRoot, type PromptVoice } from './builder-core.js';
import { SsmlContainer } from './ssml-builder.js';
import { SrgsGrammar, grammarAttrs, type GrammarAttrs } from './srgs-builder.js';
import { count, duration, langTag, ncName, nmtoken, variableName, uriValue } from './xml-values.js';

export interface SubmitOptions {
  next: string;
  method?: 'get' | 'post';
  namelist: readonly string[];
  fetchaudio?: string;
  fetchtimeout?: string;
}

function names(list: readonly string[]): string {
  return list.map(variableName).join(' ');
}

function events(list: readonly string[]): string {
  return list
    .map((e) => {
      if (nmtoken(e) === undefined) throw new TypeError(`invalid event name: ${JSON.stringify(e)}`);
      return e;
    })
    .join(' ');
}

function validProperties(props: Readonly<Record<string, string>>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of Object.keys(props)) {
    const value = props[name];
    if (nmtoken(name) !== undefined && value !== undefined && value !== null) out.push([name, String(value)]);
  }
  return out;
}

/** Executable content: what `<block>`, `<filled>`, `<catch>`, `<noinput>`, `<nomatch>` and `<if>` hold. */
export class Executable extends BuilderNode {
  prompt(): SsmlContainer {
    return new SsmlContainer(this.add('prompt'), this.state);
  }

  var(name: string, expr?: EcmaExpr): this {
    this.add('var', { name: variableName(name), expr });
    return this;
  }

  assign(name: string, expr: EcmaExpr): this {
    this.add('assign', { name: variableName(name), expr });
    return this;
  }

  submit(o: SubmitOptions): this {
    this.add('submit', {
      next: uriValue(o.next),
      fetchaudio: o.fetchaudio !== undefined ? uriValue(o.fetchaudio) : undefined,
      fetchtimeout: duration(o.fetchtimeout),
      method: o.method ?? 'post',
      namelist: names(o.namelist),
    });
    return this;
  }

  /** `<data>` (VoiceXML 2.1): fetches without leaving the document, e.g. to report an event. */
  data(o: {
    src: string;
    method?: 'get' | 'post';
    namelist: readonly string[];
    fetchtimeout?: string;
  }): this {
    this.add('data', {
      src: uriValue(o.src),
      fetchtimeout: duration(o.fetchtimeout),
      method: o.method ?? 'post',
      namelist: names(o.namelist),
    });
    return this;
  }

  return(namelist: readonly string[]): this {
    this.add('return', { namelist: names(namelist) });
    return this;
  }

  disconnect(): this {
    this.add('disconnect');
    return this;
  }

  exit(): this {
    this.add('exit');
    return this;
  }

  reprompt(): this {
    this.add('reprompt');
    return this;
  }

  log(expr: EcmaExpr): this {
    this.add('log', { expr });
    return this;
  }

  if(cond: EcmaExpr): If {
    return new If(this.add('if', { cond }), this.state);
  }
}

/** `<if>`: executable content, split by `<elseif/>` and `<else/>` markers. */
export class If extends Executable {
  elseif(cond: EcmaExpr): this {
    this.add('elseif', { cond });
    return this;
  }

  else(): this {
    this.add('else');
    return this;
  }
}

/** Event handlers allowed in a form item (and at document/form level). */
class HandlerHost extends BuilderNode {
  catch(eventNames: readonly string[], n?: number, cond?: EcmaExpr): Executable {
    return new Executable(
      this.add('catch', { event: events(eventNames), count: count(n), cond }),
      this.state,
    );
  }
}

/** What `<field>` and `<record>` share: prompts, properties, handlers and `<filled>`. */
abstract class InputItem extends HandlerHost {
  property(name: string, value: string): this {
    const n = nmtoken(name);
    if (n !== undefined) this.add('property', { name: n, value });
    return this;
  }

  /** `<property>` per entry, in order; names that are not NMTOKENs are left out. */
  properties(props: Readonly<Record<string, string>>): this {
    for (const [name, value] of validProperties(props)) this.add('property', { name, value });
    return this;
  }

  prompt(): SsmlContainer {
    return new SsmlContainer(this.add('prompt'), this.state);
  }

  filled(): Executable {
    return new Executable(this.add('filled'), this.state);
  }
}

/** `<field>`: prompts, grammars, properties, handlers and `<filled>`. */
export class Field extends InputItem {
  /** A grammar by reference: builtin:… or a URL. Without mode (transcription), none is written. */
  grammar(src: string, mode?: 'voice' | 'dtmf'): this {
    this.add('grammar', { mode, src: uriValue(src) });
    return this;
  }

  /** An inline SRGS grammar. `family` reserves `<root>_…` for the grammar's own rule IDs. */
  inlineGrammar(a: GrammarAttrs & { family?: boolean }, build: (g: SrgsGrammar, root: string) => void): this {
    const root = this.state.uniqueId(ncName(a.root), a.family ?? false);
    build(new SrgsGrammar(this.add('grammar', grammarAttrs({ ...a, root }, true)), this.state), root);
    return this;
  }

  noinput(n?: number): Executable {
    return new Executable(this.add('noinput', { count: count(n) }), this.state);
  }

  nomatch(n?: number): Executable {
    return new Executable(this.add('nomatch', { count: count(n) }), this.state);
  }
}

export interface RecordOptions {
  name: string;
  beep?: boolean;
  maxtime?: string;
  finalsilence?: string;
  /** A key press ends the recording (the VoiceXML default). */
  dtmfterm?: boolean;
}

/** `<record>`: prompts, properties, handlers and `<filled>` (no grammar: it takes audio, not words). */
export class Recording extends InputItem {}

export interface TransferOptions {
  name: string;
  dest: string;
  /** `type="bridge"` (VoiceXML 2.1) or the legacy `bridge="true"`; never both (see dialects.ts). */
  style: 'type' | 'bridge';
  connecttimeout?: string;
  aai?: string;
}

/** `<transfer>`: prompts, `<filled>` and handlers. */
export class Transfer extends HandlerHost {
  prompt(): SsmlContainer {
    return new SsmlContainer(this.add('prompt'), this.state);
  }

  filled(): Executable {
    return new Executable(this.add('filled'), this.state);
  }
}

/** `<subdialog>`: `<param>`s, `<filled>` and handlers. */
export class Subdialog extends HandlerHost {
  param(name: string, expr: EcmaExpr): this {
    this.add('param', { name: variableName(name), expr });
    return this;
  }

  filled(): Executable {
    return new Executable(this.add('filled'), this.state);
  }
}

/** `<form>`: variables, blocks, fields, transfers, subdialogs, handlers and a form-level `<filled>`. */
export class Form extends HandlerHost {
  var(name: string, expr?: EcmaExpr): this {
    this.add('var', { name: variableName(name), expr });
    return this;
  }

  block(): Executable {
    return new Executable(this.add('block'), this.state);
  }

  field(name: string): Field {
    return new Field(this.add('field', { name: variableName(name) }), this.state);
  }

  record(o: RecordOptions): Recording {
    return new Recording(
      this.add('record', {
        name: variableName(o.name),
        beep: o.beep === undefined ? undefined : String(o.beep),
        maxtime: duration(o.maxtime),
        finalsilence: duration(o.finalsilence),
        dtmfterm: o.dtmfterm === undefined ? undefined : String(o.dtmfterm),
      }),
      this.state,
    );
  }

  transfer(o: TransferOptions): Transfer {
    return new Transfer(
      this.add('transfer', {
        name: variableName(o.name),
        dest: uriValue(o.dest),
        type: o.style === 'type' ? 'bridge' : undefined,
        bridge: o.style === 'bridge' ? 'true' : undefined,
        connecttimeout: duration(o.connecttimeout),
        aai: o.aai,
      }),
      this.state,
    );
  }

  subdialog(name: string, src: string): Subdialog {
    return new Subdialog(this.add('subdialog', { name: variableName(name), src: uriValue(src) }), this.state);
  }

  filled(opts: { mode?: 'all' | 'any'; namelist?: readonly string[] } = {}): Executable {
    const namelist = opts.namelist ? names(opts.namelist) : undefined;
    return new Executable(this.add('filled', { mode: opts.mode, namelist }), this.state);
  }
}

/** The `<vxml>` document: document variables, properties, handlers and forms. */
export class VxmlBuilder extends HandlerHost {
  /** A new document (written as it is built; `toXml` ends it). */
  static document(lang?: string, voice?: PromptVoice): VxmlBuilder {
    const { x, state } = documentRoot(VXML_NS, 'vxml', { version: '2.1', 'xml:lang': langTag(lang) });
    state.lang = langTag(lang);
    state.voice = voice;
    return new VxmlBuilder(x, state);
  }

  var(name: string, expr?: EcmaExpr): this {
    this.add('var', { name: variableName(name), expr });
    return this;
  }

  property(name: string, value: string): this {
    const n = nmtoken(name);
    if (n !== undefined) this.add('property', { name: n, value });
    return this;
  }

  /** `<property>` per entry, in order; names that are not NMTOKENs are left out. */
  properties(props: Readonly<Record<string, string>>): this {
    for (const [name, value] of validProperties(props)) this.add('property', { name, value });
    return this;
  }

  form(id: string): Form {
    return new Form(this.add('form', { id: this.state.uniqueId(ncName(id)) }), this.state);
  }

  toXml(opts: { pretty?: boolean } = {}): string {
    return BuilderNode.finish(this, opts);
  }
}
