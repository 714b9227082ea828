/**
 * Where a server error's path points in the JSON text of the editor. The service names problems
 * like `body.dialogs.book.nodes.size.next[0].goto` (names never hold ".", "[" or "]"); this finds
 * the member in the text with jsonc-parser's syntax tree. A path to a member that is missing points
 * at the nearest object that exists (where the member should be added).
 */
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';

export interface TextRange {
  from: number;
  to: number;
  /** Whether the path itself was found (false: an ancestor stands in for a missing member). */
  exact: boolean;
}

/** `body.dialogs.book.nodes.size.next[0].goto` → ['dialogs','book','nodes','size','next',0,'goto']. */
export function parseErrorPath(path: string): JSONPath {
  const out: JSONPath = [];
  const trimmed = path.replace(/^body(\.|$)/, '');
  for (const part of trimmed.split('.')) {
    if (part === '') continue;
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The text range of the member at `path` (its key and value), or of its nearest existing ancestor. */
export function locatePath(text: string, path: string): TextRange | null {
  const root = parseTree(text);
  if (!root) return null;
  const segments = parseErrorPath(path);
  for (let n = segments.length; n >= 0; n--) {
    const node: Node | undefined = n === 0 ? root : findNodeAtLocation(root, segments.slice(0, n));
    if (!node) continue;
    const exact = n === segments.length;
    // a member's whole "key": value; an ancestor standing in: only its first line (the opening brace)
    const target = node.parent?.type === 'property' ? node.parent : node;
    if (exact) return { from: target.offset, to: target.offset + target.length, exact };
    return { from: target.offset, to: target.offset + Math.min(target.length, 1), exact };
  }
  return null;
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
