/**
 * Credentials for the public APIs, obtained through the operator API like any integrator would:
 * per app, an API app (JWT client) named "Operator console" with the scopes the pages need, whose
 * HS256 tokens are signed here with WebCrypto; for model connections, an API key. Both are created
 * on first use and kept for this browser tab only (sessionStorage), and forgotten on sign-out. The
 * bundle and the page carry none of them.
 */
import { request } from './http.js';

const APP_SCOPES = ['chat-history', 'batch-tests', 'assist-import-export', 'tables'] as const;
const KEY_SCOPES = ['connections:view', 'connections:manage'] as const;
const PREFIX = 'ivr-console:';
const TOKEN_LIFETIME_S = 300;

interface ApiAppCredential {
  clientId: string;
  clientSecret: string;
}

const tokens = new Map<string, { token: string; exp: number }>();
const pending = new Map<string, Promise<unknown>>();

function stored<T>(key: string): T | null {
  const raw = sessionStorage.getItem(PREFIX + key);
  return raw ? (JSON.parse(raw) as T) : null;
}

/** One creation at a time per key, so parallel page requests do not create two credentials. */
function once<T>(key: string, make: () => Promise<T>): Promise<T> {
  const known = stored<T>(key);
  if (known) return Promise.resolve(known);
  const running = pending.get(key) as Promise<T> | undefined;
  if (running) return running;
  const p = make()
    .then((value) => {
      sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
      return value;
    })
    .finally(() => pending.delete(key));
  pending.set(key, p);
  return p;
}

const base64url = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const utf8 = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s);

export async function signHs256(claims: Record<string, unknown>, secret: string): Promise<string> {
  const head = base64url(utf8(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const body = base64url(utf8(JSON.stringify(claims)));
  const key = await crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8(`${head}.${body}`)));
  return `${head}.${body}.${base64url(sig)}`;
}

/** A short-lived JWT for the public APIs of one app (history, batch tests, skill-group import). */
export async function appToken(streamId: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const cached = tokens.get(streamId);
  if (cached && cached.exp - 30 > now) return cached.token;
  const cred = await once<ApiAppCredential>(`api-app:${streamId}`, async () => {
    const created = await request<ApiAppCredential>('POST', `/api/admin/apps/${encodeURIComponent(streamId)}/api-apps`, {
      body: { name: 'Operator console', scopes: APP_SCOPES },
    });
    return { clientId: created.clientId, clientSecret: created.clientSecret };
  });
  const exp = now + TOKEN_LIFETIME_S;
  const token = await signHs256({ appId: cred.clientId, sub: 'operator-console', iat: now, exp }, cred.clientSecret);
  tokens.set(streamId, { token, exp });
  return token;
}

/** The API key of the model connections API. */
export async function connectionsKey(): Promise<string> {
  const cred = await once<{ apiKey: string }>('api-key', async () => {
    const created = await request<{ apiKey: string }>('POST', '/api/admin/api-keys', { body: { name: 'Operator console', scopes: KEY_SCOPES } });
    return { apiKey: created.apiKey };
  });
  return cred.apiKey;
}

/** Forgets every credential of this tab (sign-out). */
export function forgetCredentials(): void {
  tokens.clear();
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}
