/**
 * Reads one value out of a model's JSON answer with a JSONPath such as `choices[0].message.content`
 * (a missing `$.` is added). jsonpath-plus runs with `eval: false`: filter and script expressions
 * are refused, never evaluated.
 */
import { JSONPath } from 'jsonpath-plus';

export const normalizePath = (path: string): string => {
  const p = path.trim();
  if (p.startsWith('$')) return p;
  return p.startsWith('[') ? `$${p}` : `$.${p}`;
};

/** The first value at `path`, or undefined when there is none (or the path cannot be used). */
export function readJsonPath(json: unknown, path: string): unknown {
  if (json === null || typeof json !== 'object') return undefined;
  try {
    const found: unknown = JSONPath({ path: normalizePath(path), json, eval: false, wrap: true });
    return Array.isArray(found) ? found[0] : undefined;
  } catch {
    return undefined;
  }
}
