/**
 * The names an agent's placeholders and `next` rules may read: the entities its entity nodes fill,
 * the variables its nodes set (`saveAs`, `transferResult`…), the call's own members and the last
 * message. A name no node sets would read as nothing ("party of ?"), so it is refused with its path.
 */
import { reservedContextKeys } from './evaluation-context.js';
import { expressionPaths } from './expression.js';
import { nodeRegistry } from './node-registry.js';
import { splitPlaceholders } from './placeholder.js';

export interface KnownNames {
  readonly entities: ReadonlySet<string>;
  readonly vars: ReadonlySet<string>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every entity and variable some node of the agent sets (names are kept per call, across dialogs). */
export function knownNames(dialogs: Obj): KnownNames {
  const entities = new Set<string>();
  const vars = new Set<string>();
  for (const dialog of Object.values(dialogs)) {
    if (!isObj(dialog) || !isObj(dialog.nodes)) continue;
    for (const node of Object.values(dialog.nodes)) {
      if (!isObj(node) || typeof node.type !== 'string') continue;
      const writes = nodeRegistry.get(node.type)?.writes?.(node) ?? {};
      for (const e of writes.entities ?? []) entities.add(e);
      for (const v of writes.vars ?? []) vars.add(v);
    }
  }
  return { entities, vars };
}

const CALL_MEMBERS = reservedContextKeys.filter((k) => k !== 'entities' && k !== 'session');
const LAST_MESSAGE_MEMBERS = ['text', 'asrMetaData'];
const listed = (names: Iterable<string>): string => {
  const all = [...names].sort();
  return all.length === 0 ? 'none' : all.join(', ');
};

function entityProblem(name: string | undefined, shown: string, known: KnownNames): string | undefined {
  if (name === undefined || known.entities.has(name)) return undefined;
  return `${shown} names entity "${name}", which no entity node of this agent fills (entities: ${listed(known.entities)})`;
}

function sessionProblem(path: readonly string[], shown: string): string | undefined {
  const [bus, last, member] = path;
  if (bus === undefined) return undefined;
  if (bus !== 'BotUserSession' || (last !== undefined && last !== 'lastMessage'))
    return `${shown} is not part of the session (it holds BotUserSession.lastMessage)`;
  if (member !== undefined && !LAST_MESSAGE_MEMBERS.includes(member))
    return `${shown}: the last message holds ${LAST_MESSAGE_MEMBERS.join(' and ')}`;
  return undefined;
}

/** Why a read path names nothing the agent or the call provides, or undefined when it is fine. */
export function pathProblem(path: readonly string[], known: KnownNames): string | undefined {
  const shown = `"${path.join('.')}"`;
  const [root, first] = path;
  if (root === 'entities') return entityProblem(first, shown, known);
  if (root === 'session') return sessionProblem(path.slice(1), shown);
  if (root !== 'context')
    return `${shown} reads "${root}", which is not defined: read context., session. or entities.`;
  if (first === undefined || CALL_MEMBERS.includes(first) || known.vars.has(first)) return undefined;
  if (first === 'entities') return entityProblem(path[2], shown, known);
  if (first === 'session') return sessionProblem(path.slice(2), shown);
  return `${shown} is never set: the context holds ${listed([...CALL_MEMBERS, 'entities', 'session', ...known.vars])}`;
}

/** Problems of a template's placeholders (their syntax is checked elsewhere). */
export function placeholderNameProblems(text: string, known: KnownNames): string[] {
  const out: string[] = [];
  for (const segment of splitPlaceholders(text).segments) {
    if (typeof segment === 'string') continue;
    const problem = pathProblem(segment.path, known);
    if (problem) out.push(problem);
  }
  return out;
}

/** Problems of the names a `when` expression reads (an expression that does not parse is reported elsewhere). */
export function expressionNameProblems(source: string, known: KnownNames): string[] {
  let paths: string[][];
  try {
    paths = expressionPaths(source);
  } catch {
    return [];
  }
  return paths.map((p) => pathProblem(p, known)).filter((p): p is string => p !== undefined);
}
