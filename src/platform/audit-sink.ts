/**
 * What the operator API tells the audit trail (src/audit keeps it): each change, its author and a
 * diff. The diff is made here, by `auditDiff`, from the item's state before and after (or, for a
 * route that cannot read its item, from the request body alone); every value under a name that
 * holds a secret (secret, password, token, PIN, API key, authorization) is replaced by `[redacted]`
 * before it leaves this file, so no secret reaches the trail.
 */
import type { Principal } from './auth.js';

export type AuditAuthor =
  | { kind: 'admin-token' }
  | { kind: 'account'; accountId: string; email: string }
  | { kind: 'token'; accountId: string; email: string; tokenId: string; tokenName: string }
  | { kind: 'anonymous' };

export interface AuditChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface AuditEvent {
  author: AuditAuthor;
  /** The operation: method and route, e.g. `PUT /api/admin/apps/:streamId/agent`. */
  action: string;
  /** The item changed: the request's path. */
  item: string;
  /** The app the item belongs to, when it is one app's. */
  app?: string;
  status: number;
  changes: AuditChange[];
  /** True when the changes list was cut at its limit. */
  truncated?: boolean;
  requestId?: string;
}

export interface AuditSink {
  record(event: AuditEvent): Promise<void>;
}

export function auditAuthorOf(principal: Principal | undefined): AuditAuthor {
  if (!principal) return { kind: 'anonymous' };
  if (principal.kind === 'admin') return { kind: 'admin-token' };
  if (principal.kind === 'account') {
    return principal.via === 'token'
      ? {
          kind: 'token',
          accountId: principal.accountId,
          email: principal.email,
          tokenId: principal.tokenId ?? '',
          tokenName: principal.tokenName ?? '',
        }
      : { kind: 'account', accountId: principal.accountId, email: principal.email };
  }
  return { kind: 'anonymous' };
}

const SECRET_NAME =
  /secret|password|passwd|token|pin$|^pin|apikey|api_key|authorization|credential|privatekey/i;
export const REDACTED = '[redacted]';
const MAX_CHANGES = 200;
const MAX_VALUE_CHARS = 500;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A value with every secret-named member redacted and long strings cut. */
export function redactSecrets(value: unknown, name = ''): unknown {
  if (SECRET_NAME.test(name) && value !== undefined && value !== null) return REDACTED;
  if (typeof value === 'string')
    return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, name));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSecrets(v, k)]));
  return value;
}

/** The leaves of a JSON value by dotted path (arrays by index); a secret-named member is one leaf. */
function leaves(value: unknown, path: string, out: Map<string, unknown>, name: string): void {
  if (SECRET_NAME.test(name)) {
    out.set(path, value);
    return;
  }
  if (Array.isArray(value) && value.length) {
    value.forEach((v, i) => leaves(v, path ? `${path}.${i}` : String(i), out, name));
  } else if (isObject(value) && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out, k);
  } else {
    out.set(path, value);
  }
}

const lastName = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/**
 * The members that differ between `before` and `after` (undefined: the item did not exist), each
 * with its values (secret ones redacted: the diff says that a secret changed, never to what); at
 * most 200 changes.
 */
export function auditDiff(before: unknown, after: unknown): { changes: AuditChange[]; truncated: boolean } {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  if (before !== undefined) leaves(before, '', a, '');
  if (after !== undefined) leaves(after, '', b, '');
  const changes: AuditChange[] = [];
  let total = 0;
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(path);
    const y = b.get(path);
    if (a.has(path) && b.has(path) && JSON.stringify(x) === JSON.stringify(y)) continue;
    total++;
    if (changes.length >= MAX_CHANGES) continue;
    const name = lastName(path);
    changes.push({
      path: path || '(whole)',
      ...(a.has(path) ? { before: redactSecrets(x, name) } : {}),
      ...(b.has(path) ? { after: redactSecrets(y, name) } : {}),
    });
  }
  return { changes, truncated: total > changes.length };
}
