/**
 * A linear pre-scan of a raw JSON body, before JSON.parse builds anything: it counts the entries
 * (object keys and array elements) and the nesting depth, and stops at the first byte past either
 * limit. It reads each byte once (the insides of strings by the native indexOf) and allocates
 * nothing but a stack of the open containers' kinds, so a hostile body costs a pass over its
 * bytes, never an object of 45,000 keys. It does not check the syntax: JSON.parse does that next,
 * on bodies within the limits.
 */

export interface JsonShapeLimits {
  /** Most object keys and array elements, counted together over the whole body. */
  maxEntries: number;
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
}

export type JsonShapeProblem = { kind: 'entries'; limit: number } | { kind: 'depth'; limit: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * The index of the quote that closes the string opened at `start` (the buffer's length when none
 * does: JSON.parse refuses that body next). The closing quote is found by the native indexOf; a
 * quote preceded by an odd run of backslashes is escaped, and the search goes on past it.
 */
function stringEnd(buf: Uint8Array, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, from);
    if (q < 0) return buf.length;
    let slashes = 0;
    for (let k = q - 1; k > start && buf[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

/** The first limit the body passes, or null when it keeps within both. */
export function jsonShapeScan(buf: Uint8Array, limits: JsonShapeLimits): JsonShapeProblem | null {
  // 1 where the container at that depth is an array
  const isArray = new Uint8Array(limits.maxDepth + 2);
  let depth = 0;
  let entries = 0;
  // just after '[': the next non-space byte starts the first element unless it is ']'
  let arrayOpened = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (isSpace(b)) continue;
    if (arrayOpened) {
      arrayOpened = false;
      if (b !== CLOSE_ARRAY && ++entries > limits.maxEntries)
        return { kind: 'entries', limit: limits.maxEntries };
    }
    if (b === QUOTE) i = stringEnd(buf, i);
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > limits.maxDepth) return { kind: 'depth', limit: limits.maxDepth };
      isArray[depth] = b === OPEN_ARRAY ? 1 : 0;
      arrayOpened = b === OPEN_ARRAY;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (b === COLON) {
      if (++entries > limits.maxEntries) return { kind: 'entries', limit: limits.maxEntries };
    } else if (b === COMMA && depth > 0 && isArray[depth] === 1) {
      if (++entries > limits.maxEntries) return { kind: 'entries', limit: limits.maxEntries };
    }
  }
  return null;
}
