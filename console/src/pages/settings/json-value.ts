/**
 * Small pure helpers over JSON values for the settings form: reading and writing at a path, the
 * flat list of differences between two values (what a save would change), and a JSON Schema's
 * parts as the form reads them.
 */

export type Path = Array<string | number>;
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: Json[];
  enumDescriptions?: string[];
  const?: Json;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  default?: Json;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
}

const isRecord = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function getAt(value: Json | undefined, path: Path): Json | undefined {
  let cur: Json | undefined = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, Json>)[key];
  }
  return cur;
}

/** A copy of `value` with `path` set (or removed when `next` is undefined). */
export function setAt(value: Json | undefined, path: Path, next: Json | undefined): Json | undefined {
  if (path.length === 0) return next;
  const [key, ...rest] = path as [string | number, ...Path];
  if (typeof key === 'number') {
    const arr = Array.isArray(value) ? [...value] : [];
    const child = setAt(arr[key], rest, next);
    if (child === undefined) arr.splice(key, 1);
    else arr[key] = child;
    return arr;
  }
  const obj: Record<string, Json> = isRecord(value) ? { ...value } : {};
  const child = setAt(obj[key], rest, next);
  if (child === undefined) delete obj[key];
  else obj[key] = child;
  return obj;
}

export interface Change {
  path: string;
  before: Json | undefined;
  after: Json | undefined;
}

const pathText = (path: Path): string =>
  path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');

/** Every leaf that differs, with its old and new value (arrays compared as whole values). */
export function diff(before: Json | undefined, after: Json | undefined, path: Path = []): Change[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diff(before[k], after[k], [...path, k]));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isRecord(before) && after === undefined)
    return Object.keys(before).flatMap((k) => diff(before[k], undefined, [...path, k]));
  if (before === undefined && isRecord(after))
    return Object.keys(after).flatMap((k) => diff(undefined, after[k], [...path, k]));
  return [{ path: pathText(path), before, after }];
}

export const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;

/** `retries` → "Retries", `noInput` → "No input", `vxmlProperties` → "VXML properties". */
export function humanize(key: string): string {
  const words = key
    .replace(/vxml/gi, 'VXML ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .split(/\s+/);
  const text = words
    .map((w, i) =>
      w === 'VXML' ? w : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1).toLowerCase() : w.toLowerCase(),
    )
    .join(' ');
  return text.replace(/\bivr\b/gi, 'IVR').replace(/\basr\b/gi, 'ASR');
}

/** `#/vxmlProperties/timeout` (a validator's instance location) → `vxmlProperties.timeout`. */
export const locationToKey = (loc: string): string =>
  loc
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')))
    .join('.');

export const keyOf = (path: Path): string => path.map(String).join('.');
