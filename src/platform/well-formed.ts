/** Replaces lone UTF-16 surrogates with U+FFFD (String.prototype.toWellFormed, for Node 20's lib). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const wellFormed = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD');
