/** Helpers of the accounts tests: invite and activate an operator, sign in with a password, call with a cookie or token. */
import type { RunningGateway } from '../helpers/test-gateway.js';

export interface Operator {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export async function call(
  gw: RunningGateway,
  method: string,
  path: string,
  auth: { cookie?: string; bearer?: string },
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = { Origin: gw.url };
  if (auth.cookie) headers['Cookie'] = auth.cookie;
  if (auth.bearer) headers['Authorization'] = `Bearer ${auth.bearer}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
    text,
  };
}

export async function signInWithPassword(
  gw: RunningGateway,
  email: string,
  password: string,
  ip?: string,
): Promise<{ status: number; cookie: string; body: any; text: string }> {
  const headers: Record<string, string> = {
    Origin: gw.url,
    'Content-Type': 'application/json',
    ...(ip ? { 'X-Forwarded-For': ip } : {}),
  };
  const res = await fetch(`${gw.url}/api/console/session`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  return {
    status: res.status,
    cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
    body: text ? JSON.parse(text) : undefined,
    text,
  };
}

/** Invites an operator with the admin token, accepts the invitation and signs in. */
export async function makeOperator(
  gw: RunningGateway,
  email: string,
  grants: Array<{ role: string; app?: string }>,
  password = `pw-${email}-long-enough`,
): Promise<Operator> {
  const invited = await gw.admin('POST', '/api/admin/accounts', { email, grants });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await call(
    gw,
    'POST',
    '/api/accounts/invitation',
    {},
    { token: invited.body.invitation.token, password },
  );
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  const signed = await signInWithPassword(gw, email, password);
  if (signed.status !== 201) throw new Error(`sign in: ${signed.status} ${signed.text}`);
  return { id: invited.body.account.id, email, password, cookie: signed.cookie };
}
