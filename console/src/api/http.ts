/**
 * The console's one way to reach the service: same-origin fetch (the session cookie rides along,
 * httpOnly, so no script ever holds it), JSON in and out, and the contract's error body
 * `{"errors":[{msg, code, path?}]}` turned into an ApiError.
 */

export interface ErrorDetail {
  msg: string;
  code: string | number;
  path?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly details: ErrorDetail[],
    readonly requestId?: string,
  ) {
    super(details.map((d) => d.msg).join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
  }

  get code(): string | number | undefined {
    return this.details[0]?.code;
  }
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer the body as text (CSV) instead of parsing JSON. */
  text?: boolean;
  signal?: AbortSignal;
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called when an operator request answers 401: the session is over (expired or signed out elsewhere). */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

async function errorOf(res: Response): Promise<ApiError> {
  let details: ErrorDetail[] = [{ msg: `${res.status} ${res.statusText}`.trim(), code: res.status }];
  let requestId: string | undefined;
  try {
    const body = (await res.json()) as { errors?: ErrorDetail[]; requestId?: string };
    if (Array.isArray(body.errors) && body.errors.length) details = body.errors;
    requestId = body.requestId;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(res.status, details, requestId);
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: opts.text ? 'text/csv, text/plain' : 'application/json',
    ...opts.headers,
  };
  const init: RequestInit = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (opts.signal) init.signal = opts.signal;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, [
      { msg: 'The service cannot be reached. Check the connection and try again.', code: 'network' },
    ]);
  }
  if (!res.ok) {
    const error = await errorOf(res);
    if (
      res.status === 401 &&
      (path.startsWith('/api/admin/') || path.startsWith('/api/console/')) &&
      !headers.auth
    ) {
      for (const l of signedOutListeners) l();
    }
    throw error;
  }
  if (res.status === 204) return undefined as T;
  if (opts.text) return (await res.text()) as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
