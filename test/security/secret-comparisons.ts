/**
 * Finds comparisons of secrets that are not constant-time: `===`, `!==`, `==`, `!=` (and
 * `.equals()`, `Buffer.compare`, `localeCompare`) where an operand is named like a secret (secret,
 * pin, token, apiKey, password, signature, hmac...). Reads the TypeScript syntax tree, so a
 * comparison split over lines is found and `a.length === b.length` or `typeof token` is not one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Words (of an identifier split at camelCase, `_` and `-`) that name a secret. */
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'pin',
  'pins',
  'token',
  'jwt',
  'password',
  'passcode',
  'passphrase',
  'signature',
  'sig',
  'hmac',
  'mac',
  'otp',
  'apikey',
  'credential',
  'credentials',
]);

export const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-$]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

/** Whether an identifier names a secret: a secret word, or `api` followed by `key`. */
export function namesSecret(name: string): boolean {
  const words = wordsOf(name);
  return words.some(
    (w, i) =>
      SECRET_WORDS.has(w) || (w === 'api' && words[i + 1] === 'key') || (w === 'x' && words[i + 1] === 'api'),
  );
}

/** The name an operand is read by: `pin`, `rec.pin`, `rec['pin']`, `h.secret!`, `(token as string)`. */
function operandName(e: ts.Expression): string | null {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isTypeAssertionExpression(e) ||
    ts.isSatisfiesExpression(e)
  )
    e = e.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteral(e.argumentExpression))
    return e.argumentExpression.text;
  if (ts.isCallExpression(e)) {
    // header(req, 'x-api-key') or headers.get('auth'): the name read
    const arg = e.arguments.find((a) => ts.isStringLiteralLike(a));
    return arg && ts.isStringLiteralLike(arg) ? arg.text : null;
  }
  return null;
}

/** Operands whose comparison cannot leak a secret: literals (null, undefined, 'string'), typeof, lengths. */
function harmless(e: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isTypeOfExpression(e) || ts.isLiteralExpression(e) || ts.isNoSubstitutionTemplateLiteral(e))
    return true;
  if (
    e.kind === ts.SyntaxKind.NullKeyword ||
    e.kind === ts.SyntaxKind.TrueKeyword ||
    e.kind === ts.SyntaxKind.FalseKeyword
  )
    return true;
  if (ts.isIdentifier(e) && e.text === 'undefined') return true;
  if (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand)) return true;
  return ts.isPropertyAccessExpression(e) && ['length', 'size', 'byteLength'].includes(e.name.text);
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
const COMPARING_METHODS = new Set(['equals', 'localeCompare', 'compare']);

export interface UnsafeComparison {
  file: string;
  line: number;
  text: string;
}

/** Every unsafe secret comparison in one source text. */
export function findInSource(file: string, source: string): UnsafeComparison[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: UnsafeComparison[] = [];
  const report = (node: ts.Node) =>
    found.push({
      file,
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 160),
    });
  const secretOperand = (e: ts.Expression) => !harmless(e) && namesSecret(operandName(e) ?? '');
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      if (
        !harmless(node.left) &&
        !harmless(node.right) &&
        (secretOperand(node.left) || secretOperand(node.right))
      )
        report(node);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      COMPARING_METHODS.has(node.expression.name.text)
    ) {
      const operands = [node.expression.expression, ...node.arguments];
      if (operands.some((o) => secretOperand(o))) report(node);
    } else if (ts.isSwitchStatement(node) && secretOperand(node.expression)) {
      report(node.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every unsafe secret comparison in the .ts files under `dir`. */
export function findUnsafeComparisons(dir: string, root = dir): UnsafeComparison[] {
  const out: UnsafeComparison[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findUnsafeComparisons(path, root));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts'))
      out.push(...findInSource(relative(root, path), readFileSync(path, 'utf8')));
  }
  return out;
}
