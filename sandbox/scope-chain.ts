/**
 * VoiceXML variable scopes: session → application → document → dialog → anonymous (blocks, filled,
 * catch handlers). Names may be scope-qualified (`document.turn`, `dialog.userinput`).
 */
import { semanticError } from './vxml-event.js';

export type ScopeName = 'session' | 'application' | 'document' | 'dialog' | 'anonymous';

const QUALIFIERS: readonly ScopeName[] = ['session', 'application', 'document', 'dialog'];

export class ScopeChain {
  readonly vars: Record<string, unknown> = Object.create(null) as Record<string, unknown>;

  constructor(
    readonly scopeName: ScopeName,
    readonly parent?: ScopeChain,
  ) {}

  /** A new anonymous scope under this one. */
  child(): ScopeChain {
    return new ScopeChain('anonymous', this);
  }

  /** The nearest enclosing scope (or this one) with the given name. */
  named(name: ScopeName): ScopeChain | undefined {
    for (let s: ScopeChain | undefined = this; s; s = s.parent) if (s.scopeName === name) return s;
    return undefined;
  }

  /** The scope that holds a plain (unqualified) name. */
  holder(name: string): ScopeChain | undefined {
    for (let s: ScopeChain | undefined = this; s; s = s.parent)
      if (Object.prototype.hasOwnProperty.call(s.vars, name)) return s;
    return undefined;
  }

  isDeclared(name: string): boolean {
    return (
      this.holder(name) !== undefined ||
      ((QUALIFIERS as readonly string[]).includes(name) && this.named(name as ScopeName) !== undefined)
    );
  }

  /** `<var name>`: declares in this scope, or in the named scope for `document.x`. */
  declare(name: string, value: unknown): void {
    const { scope, local } = this.split(name);
    if (local.includes('.')) throw semanticError(`cannot declare "${name}"`);
    scope.vars[local] = value;
  }

  /** `<assign name>`: the variable must already be declared (error.semantic otherwise). */
  assign(name: string, value: unknown): void {
    const { scope, local, qualified } = this.split(name);
    const [head, ...path] = local.split('.');
    if (!head) throw semanticError(`bad variable name "${name}"`);
    const holder = qualified
      ? Object.prototype.hasOwnProperty.call(scope.vars, head)
        ? scope
        : undefined
      : this.holder(head);
    if (!holder) throw semanticError(`${name} is not declared`);
    if (path.length === 0) {
      holder.vars[head] = value;
      return;
    }
    let target: unknown = holder.vars[head];
    for (const key of path.slice(0, -1)) {
      if (target === null || typeof target !== 'object') throw semanticError(`cannot assign ${name}`);
      target = (target as Record<string, unknown>)[key];
    }
    if (target === null || typeof target !== 'object') throw semanticError(`cannot assign ${name}`);
    (target as Record<string, unknown>)[path[path.length - 1] as string] = value;
  }

  /** Every visible variable, inner names hiding outer ones, plus the scope objects themselves. */
  flatten(): Record<string, unknown> {
    const chain: ScopeChain[] = [];
    for (let s: ScopeChain | undefined = this; s; s = s.parent) chain.unshift(s);
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const s of chain) {
      if (s.scopeName !== 'anonymous') out[s.scopeName] = s.vars;
    }
    for (const s of chain) Object.assign(out, s.vars);
    return out;
  }

  private split(name: string): { scope: ScopeChain; local: string; qualified: boolean } {
    const dot = name.indexOf('.');
    if (dot > 0) {
      const head = name.slice(0, dot) as ScopeName;
      if (QUALIFIERS.includes(head) && !this.holder(head)) {
        const scope = this.named(head);
        if (!scope) throw semanticError(`no ${head} scope for "${name}"`);
        return { scope, local: name.slice(dot + 1), qualified: true };
      }
    }
    return { scope: this, local: name, qualified: false };
  }
}
