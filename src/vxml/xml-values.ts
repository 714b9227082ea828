/**
 * The single place where data becomes XML character data or attribute values. Only the builders
 * (builder-core.ts and the node classes) call these, and what they answer is written as it is.
 * - xmlText: drops what XML 1.0 cannot carry (C0 controls but TAB/LF/CR, lone surrogates, U+FFFE/FFFF),
 *   turns CR LF and CR into LF (what any parser would make of them) and escapes `&`, `<` and `>`.
 *   Every `&` is escaped, also one that starts something entity-like: caller text such as "&nbsp;" or
 *   "&#0;" would otherwise come out as an undefined entity or an illegal character reference.
 * - xmlAttr: the same, with TAB/LF/CR turned into spaces (a parser would normalise them anyway) and
 *   `"` escaped too (values are written in double quotes).
 * - uriValue: a value for an xsd:anyURI attribute (still to be escaped by xmlAttr): characters outside
 *   RFC 3986 are percent-encoded, so the value stays a URI reference whatever it contains.
 * The other helpers check schema datatypes and return undefined when a value does not fit, so the
 * caller can leave the attribute out instead of emitting an invalid document.
 */

const ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const ILLEGAL_ALL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const TEXT_SPECIAL = /[&<>\r]/;
const ATTR_SPECIAL = /[&<>"\t\n\r]/;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': ' ',
  '\n': ' ',
  '\r': ' ',
};

/** Only the characters XML 1.0 allows. */
export function xmlChars(value: string): string {
  const s = String(value);
  return ILLEGAL.test(s) ? s.replace(ILLEGAL_ALL, '') : s;
}

/** Character data, escaped: write it as it is. */
export function xmlText(value: string): string {
  let s = xmlChars(value);
  if (!TEXT_SPECIAL.test(s)) return s;
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
  return s.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
}

/** An attribute value, escaped for double quotes: write it as it is. */
export function xmlAttr(value: string): string {
  const s = xmlChars(value);
  return ATTR_SPECIAL.test(s) ? s.replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!) : s;
}

const URI_SAFE = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

/** `scheme://[IPv6]` at the start: the only place `[` and `]` may stay as they are. */
const IP_LITERAL_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@[\]]*@)?\[[0-9A-Fa-f:.]+\]/;
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function percentEncode(s: string, keep: (ch: string) => boolean): string {
  let out = '';
  for (let i = 0; i < s.length;) {
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    if (keep(ch)) out += ch;
    else if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) out += ch;
    else out += encodeURIComponent(ch);
    i += ch.length;
  }
  return out;
}

export function uriValue(value: string): string {
  const s = xmlChars(value)
    .replace(/[\t\n\r]/g, ' ')
    .trim();
  const head = IP_LITERAL_PREFIX.exec(s)?.[0] ?? '';
  const rest = s.slice(head.length);
  const hash = rest.indexOf('#');
  const simple = URI_SAFE.test(rest) && !/[[\]]/.test(rest) && (hash < 0 || rest.indexOf('#', hash + 1) < 0);
  if (simple && (head !== '' || HAS_SCHEME.test(s) || !/^[^/?#]*:/.test(s))) return s;
  let seenHash = false;
  let out =
    head +
    percentEncode(rest, (ch) => {
      if (ch === '[' || ch === ']') return false;
      if (ch === '#') return seenHash ? false : (seenHash = true);
      return URI_CHAR.test(ch);
    });
  // A relative reference may not have ':' in its first segment (it would read as a scheme).
  if (head === '' && !HAS_SCHEME.test(out)) out = out.replace(/^[^/?#]*/, (seg) => seg.replace(/:/g, '%3A'));
  return out;
}

/** VoiceXML RestrictedVariableName: a letter first, no `.`, not ending with `$`, no leading `_`. */
const RESTRICTED_NAME =
  /^[\p{L}\p{Nl}$](?:[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}$]*[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}])?$/u;

export function isVariableName(name: string): boolean {
  return RESTRICTED_NAME.test(name);
}

/** Throws on a name the code itself got wrong (names from operators go through fieldNameFromKey). */
export function variableName(name: string): string {
  if (!isVariableName(name)) throw new TypeError(`invalid VoiceXML variable name: ${JSON.stringify(name)}`);
  return name;
}

/** xsd:NMTOKEN, restricted to ASCII name characters. */
export function nmtoken(value: string | undefined): string | undefined {
  return value !== undefined && /^[A-Za-z0-9_.:-]+$/.test(value) ? value : undefined;
}

/**
 * An xsd:ID / IDREF that SRGS also accepts as a rule name (no `.`, `:` or `-`): ASCII letters, digits
 * and `_`, anything else mapped to `_`, never starting with a digit.
 */
export function ncName(value: string): string {
  const s = String(value).replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(s) ? s : `g_${s}`;
}

/** VoiceXML/SSML duration: "300ms", "4s", "1.5s". */
export function duration(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  return /^\+?(?:[0-9]*\.)?[0-9]+(?:ms|s)$/.test(v) ? v : undefined;
}

/** xml:lang (a BCP 47 tag as xsd:language accepts it). */
export function langTag(value: string | undefined): string | undefined {
  return value !== undefined && /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(value) ? value : undefined;
}

/** A non-negative integer attribute (count, repeat bounds). */
export function count(value: number | undefined): string | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}
