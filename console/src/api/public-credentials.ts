/**
 * Credentials for the public APIs. The service keeps one API app per app for the console (named
 * "Operator console", listed on the app's overview with its other API apps) and one API key, made
 * on first use and reused by every tab and session; this page asks for a short-lived token signed
 * with that API app's secret (which never reaches the browser) and for the API key, and keeps them
 * in memory only: nothing is stored in the browser, and the bundle and the page carry none of them.
 */
import { ApiError, request } from './http.js';

const tokens = new Map<string, { token: string; exp: number }>();
const pending = new Map<string, Promise<string>>();
let apiKey: Promise<string> | null = null;

/** One request at a time per app: parallel page requests share the token. */
async function fetchToken(streamId: string): Promise<string> {
  const answer = await request<{ token: string; expiresAt: string }>(
    'POST',
    `/api/console/apps/${encodeURIComponent(streamId)}/token`,
  );
  tokens.set(streamId, { token: answer.token, exp: Date.parse(answer.expiresAt) });
  return answer.token;
}

/** A short-lived JWT for the public APIs of one app (history, batch tests, skill-group import). */
export function appToken(streamId: string): Promise<string> {
  const cached = tokens.get(streamId);
  if (cached && cached.exp - 30_000 > Date.now()) return Promise.resolve(cached.token);
  const running = pending.get(streamId);
  if (running) return running;
  const p = fetchToken(streamId).finally(() => pending.delete(streamId));
  pending.set(streamId, p);
  return p;
}

/**
 * Calls a public API with a token of the app; when it is refused (401: the console's API app was
 * deleted, on this page or elsewhere), once more with a token of the API app made in its place.
 */
export async function withAppToken<T>(streamId: string, call: (token: string) => Promise<T>): Promise<T> {
  try {
    return await call(await appToken(streamId));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    tokens.delete(streamId);
    return call(await appToken(streamId));
  }
}

/** The API key of the model connections API. */
export function connectionsKey(): Promise<string> {
  apiKey ??= request<{ apiKey: string }>('POST', '/api/console/api-key').then(
    (a) => a.apiKey,
    (err: unknown) => {
      apiKey = null;
      throw err;
    },
  );
  return apiKey;
}

/**
 * Calls the connections API with the console's API key; when it is refused (401: the key was
 * deleted, on the Connections page or elsewhere), once more with the key made in its place.
 */
export async function withConnectionsKey<T>(call: (key: string) => Promise<T>): Promise<T> {
  try {
    return await call(await connectionsKey());
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    apiKey = null;
    return call(await connectionsKey());
  }
}

/** Forgets the token of one app (its API app was deleted), or every credential (sign-out). */
export function forgetCredentials(streamId?: string): void {
  if (streamId !== undefined) {
    tokens.delete(streamId);
    return;
  }
  tokens.clear();
  apiKey = null;
}
