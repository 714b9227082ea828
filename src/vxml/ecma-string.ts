/**
 * The ONE way data reaches ECMAScript in a VoiceXML document: `ecmaString(value)` turns any string into a
 * single-quoted ECMAScript string literal that is safe inside a double-quoted XML attribute and inside
 * XML text (SISR tags). Everything else that ends up in an `expr`/`cond`/`<tag>` is static code written
 * in this module's callers, typed as `EcmaExpr` so a raw string cannot be passed by mistake.
 */

/** An ECMAScript expression that is safe to put in an `expr`/`cond` attribute. */
export type EcmaExpr = string & { readonly __ecmaExpr: unique symbol };

/* Characters that are escaped: C0/C1 controls and DEL, the quote characters, backslash, the XML
 * specials < > &, the ECMAScript line terminators U+2028/U+2029 and the XML non-characters U+FFFE/FFFF.
 * Lone surrogates are replaced by U+FFFD (written as an escape). Everything else is copied as is. */
// eslint-disable-next-line no-control-regex
const NEEDS_WORK = /[\u0000-\u001f\u007f-\u009f'"\\<>&\u2028\u2029\ufffe\uffff\ud800-\udfff]/;

function hex(code: number, width: number): string {
  return code.toString(16).toUpperCase().padStart(width, '0');
}

function escapeUnit(code: number): string {
  if (code === 0x5c) return '\\\\';
  if (code === 0x27) return "\\'";
  return code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/**
 * `ecmaString("it's <ok>")` → `'it\'s \x3Cok\x3E'`. The literal evaluates to the input with lone
 * surrogates replaced by U+FFFD, and contains no quote, line terminator, `<`, `>` or `&`.
 */
export function ecmaString(value: string): EcmaExpr {
  const s = String(value);
  if (!NEEDS_WORK.test(s)) return `'${s}'` as EcmaExpr;
  let out = "'";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else {
        out += '\\uFFFD';
      }
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\\uFFFD';
      continue;
    }
    out +=
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x27 ||
      c === 0x22 ||
      c === 0x5c ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x26 ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0xfffe ||
      c === 0xffff
        ? escapeUnit(c)
        : s[i]!;
  }
  return (out + "'") as EcmaExpr;
}

/** A finite number as an ECMAScript numeric literal (throws on NaN/Infinity: a programming error). */
export function ecmaNumber(n: number): EcmaExpr {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return String(n) as EcmaExpr;
}

const IDENT = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}]*\$?$/u;
const PROP = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A reference to a variable (optionally a property path), e.g. `ecmaRef('userinput$', 'utterance')`.
 * Names are checked here; VoiceXML names made from operator input go through fieldNameFromKey first.
 */
export function ecmaRef(name: string, ...props: string[]): EcmaExpr {
  if (!IDENT.test(name)) {
    throw new TypeError(`not a variable name: ${JSON.stringify(name)}`);
  }
  for (const p of props) if (!PROP.test(p)) throw new TypeError(`not a property name: ${JSON.stringify(p)}`);
  return [name, ...props].join('.') as EcmaExpr;
}

/**
 * Static ECMAScript written in the source, e.g. js`failures + 1`. Interpolations must themselves be
 * EcmaExpr (built by ecmaString / ecmaNumber / ecmaRef), so data can only enter through those.
 */
export function js(strings: TemplateStringsArray, ...parts: EcmaExpr[]): EcmaExpr {
  let out = strings[0] ?? '';
  for (let i = 0; i < parts.length; i++) out += parts[i]! + (strings[i + 1] ?? '');
  return out as EcmaExpr;
}
