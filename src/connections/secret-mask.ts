/**
 * Masking of secrets in answers. A fixed run of asterisks replaces the middle, so the length of the
 * secret does not leak; short secrets show nothing but asterisks.
 *  - `edges` (create and update answers): first 2 + asterisks + last 4, e.g. `sk***************MQAA`.
 *  - `prefix` (get-by-id answers): first 3 + asterisks, e.g. `sk-***************`.
 */
export type MaskStyle = 'edges' | 'prefix';

export const MASK = '*'.repeat(15);
/** Secrets shorter than these show asterisks only (too little would stay hidden otherwise). */
const MIN_LEN: Record<MaskStyle, number> = { edges: 16, prefix: 8 };

/** Names of `fields` members that hold secrets. */
const SECRET_FIELD = /key|secret|token|password/i;
/** Header names whose values are credentials. */
const SECRET_HEADER =
  /auth|api[-_]?key|^key$|[-_]key$|token|secret|password|cookie|credential|signature|session/i;
/** A value that looks like a key whatever its header name: long, no spaces, letters and digits. */
const KEY_LIKE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9._~+/=-]{20,}$/;
/** `Bearer xyz` / `Basic xyz` / `Token xyz`: the scheme stays readable, the credential is masked. */
const AUTH_SCHEME = /^(bearer|basic|token|apikey)(\s+)(\S.*)$/i;

export function maskSecret(value: string, style: MaskStyle): string {
  if (value.length < MIN_LEN[style]) return MASK;
  return style === 'edges' ? `${value.slice(0, 2)}${MASK}${value.slice(-4)}` : `${value.slice(0, 3)}${MASK}`;
}

export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name);

/**
 * A header value is secret by its name, by an auth scheme, by looking like a key, or when it
 * carries a known secret. Masking a value that was not secret costs only readability.
 */
export function isSecretHeader(key: string, value: string, knownSecrets: string[] = []): boolean {
  if (SECRET_HEADER.test(key) || AUTH_SCHEME.test(value) || KEY_LIKE.test(value)) return true;
  return knownSecrets.some((s) => s.length >= 4 && value.includes(s));
}

export function maskHeaderValue(value: string, style: MaskStyle): string {
  const m = AUTH_SCHEME.exec(value);
  return m ? `${m[1]}${m[2]}${maskSecret(m[3]!, style)}` : maskSecret(value, style);
}
