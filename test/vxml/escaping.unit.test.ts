/**
 * The one ECMAScript escaping function, the XML value helpers and the field names made from operator
 * keys.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ecmaString, fieldNameFromKey, shadowConfidenceExpr } from '../../src/vxml/index.js';
import { uriValue, xmlAttr, xmlText, isVariableName } from '../../src/vxml/xml-values.js';
import { decodeEcmaString, parseXml, wellFormed, xmlKept } from './xml-tree.js';

describe('ecmaString', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", "'it\\'s'"],
    ['back\\slash', "'back\\\\slash'"],
    ['"quoted"', "'\\x22quoted\\x22'"],
    ['a\nb\rc\u2028d\u2029', "'a\\x0Ab\\x0Dc\\u2028d\\u2029'"],
    ['<b>&</b>', "'\\x3Cb\\x3E\\x26\\x3C/b\\x3E'"],
    ['\u0000\u007f\u0085', "'\\x00\\x7F\\x85'"],
    ['\uFFFE\uFFFF', "'\\uFFFE\\uFFFF'"],
    ['lone \uD800 and \uDC00', "'lone \\uFFFD and \\uFFFD'"],
    ['pair 😀 ünï', "'pair 😀 ünï'"],
    ['', "''"],
  ])('when %j is escaped, then the literal is %s', (input, literal) => {
    expect(ecmaString(input)).toBe(literal);
  });

  it('when any string of UTF-16 code units is escaped, then the literal decodes to it with lone surrogates as U+FFFD', () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string({ unit: 'binary' })), (s) => {
        const lit = ecmaString(s);
        expect(decodeEcmaString(lit)).toBe(wellFormed(s));
        expect(lit).not.toMatch(/[\n\r\u2028\u2029"<>&]/);
      }),
      { numRuns: 1000 },
    );
  });

  it('when the literal is evaluated as JSON after quote conversion, then it means the same string', () => {
    // A second, independent decoder: JSON.parse understands \uXXXX, so map our escapes onto it.
    const viaJson = (lit: string) =>
      JSON.parse(
        `"${lit
          .slice(1, -1)
          .replace(/\\x([0-9A-F]{2})/g, '\\u00$1')
          .replace(/\\'/g, "'")
          .replace(/"/g, '\\"')}"`,
      ) as string;
    for (const s of ["'; x(); '", '</prompt>', 'a\\b', '\u2028', 'x"y', '\uD83D\uDE00', '\uD800'])
      expect(viaJson(ecmaString(s))).toBe(wellFormed(s));
  });
});

describe('XML values', () => {
  it('when text has characters XML cannot carry, then they are dropped and every & is escaped once', () => {
    expect(xmlText('a\u0000b\u0001c\uFFFEd\uD800e')).toBe('abcde');
    expect(xmlText('&nbsp; & &#0;')).toBe('&amp;nbsp; &amp; &amp;#0;');
    expect(xmlText('tab\tnl\ncr\r\nx')).toBe('tab\tnl\ncr\nx');
    expect(xmlAttr('a\tb\nc\rd & e')).toBe('a b c d &amp; e');
  });

  it('when text and attribute values carry markup characters, then <, > and & (and " in values) are escaped', () => {
    expect(xmlText('<b>"x"</b> & \'y\'')).toBe('&lt;b&gt;"x"&lt;/b&gt; &amp; \'y\'');
    expect(xmlAttr('<b>"x"</b> & \'y\'')).toBe("&lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; 'y'");
  });

  it('when any string is written as text and as an attribute value, then a parser reads back its XML characters', () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string({ unit: 'binary' }), fc.string()), (s) => {
        const tree = parseXml(`<r a="${xmlAttr(s)}">${xmlText(s)}</r>`);
        const chars = xmlKept(s);
        expect(tree.attrs.a ?? '').toBe(chars.replace(/[\t\n\r]/g, ' '));
        expect(tree.text).toBe(chars.replace(/\r\n?/g, '\n'));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    [
      'https://gw.example/ivr/hooks/st-1?token=a.b.c&x=1',
      'https://gw.example/ivr/hooks/st-1?token=a.b.c&x=1',
    ],
    ['tel:+15550100', 'tel:+15550100'],
    ['builtin:dtmf/digits?minlength=4;maxlength=6', 'builtin:dtmf/digits?minlength=4;maxlength=6'],
    ['http://[::1]:3000/a[b]', 'http://[::1]:3000/a%5Bb%5D'],
    ['a b<c>"d"', 'a%20b%3Cc%3E%22d%22'],
    ['x#y#z', 'x#y%23z'],
    [':evil', '%3Aevil'],
    ['100%', '100%25'],
    ['caf\u00e9', 'caf%C3%A9'],
  ])('when %j is a URI attribute, then it is written as %s', (input, out) => {
    expect(uriValue(input)).toBe(out);
  });
});

describe('field names', () => {
  it.each([
    ['user input', 'userinput'],
    ['userinput', 'userinput'],
    ['User Input 2', 'UserInput2'],
    ['  my_field ', 'my_field'],
    ['2nd answer', 'ndanswer'],
    ['_answer', 'answer'],
    ['private', 'private_'],
    ['var', 'var_'],
    ['message', 'message_'],
    ['failures', 'failures_'],
    ['</field><goto/>', 'fieldgoto'],
    ['$$$', 'userinput'],
    ['', 'userinput'],
    ['réponse client', 'réponseclient'],
  ])('when the key is %j, then the field is named %s', (key, name) => {
    const got = fieldNameFromKey(key);
    expect(got).toBe(name);
    expect(isVariableName(got)).toBe(true);
  });

  it('when any key is given, then the name is a valid VoiceXML and ECMAScript variable name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (key) => {
        const name = fieldNameFromKey(key);
        expect(isVariableName(name)).toBe(true);
        expect(() => new Function(`let ${name}; return 0;`)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['userinput confidence', 'userinput$.confidence'],
    ['user input confidence', 'userinput$.confidence'],
    ['userinput$.confidence', 'userinput$.confidence'],
    ['Answer Confidence', 'Answer$.confidence'],
    ['answer', 'answer$.confidence'],
  ])('when the confidence key is %j, then the shadow expression is %s', (key, expr) => {
    expect(shadowConfidenceExpr(key)).toBe(expr);
  });
});
