/**
 * The operator console's sign-in API: POST starts a session (the admin token in, an httpOnly
 * SameSite=Strict cookie out), GET tells whether the caller is signed in, DELETE signs out. Sign-in
 * is refused from another origin, like every state-changing request made with the cookie. And the
 * credentials the console calls the public APIs with (console-credentials.ts): a short-lived token
 * per app, and the API key of the connections API.
 */
import {
  assertSameOrigin,
  clearedConsoleSessionCookie,
  consoleSessionCookie,
  consoleSessionIdOf,
  defineRoute,
  type RouteDef,
} from '../platform/index.js';
import { streamIdParam } from '../admin/index.js';
import { consoleKeyAnswer, consoleTokenAnswer, sessionAnswer, signInBody } from './console-schemas.js';
import { consoleTokenAccess, type ConsoleCredentials } from './console-credentials.js';
import type { ConsoleService } from './console-service.js';

const tags = ['operator console'];
const PATH = '/api/console/session';
const isHttps = (origin: string): boolean => origin.startsWith('https:');

export function consoleRoutes(service: ConsoleService, credentials: ConsoleCredentials): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: PATH,
      summary: "Sign in to the operator console with the admin token, or an account's email and password",
      tags,
      auth: { kind: 'none' },
      body: signInBody,
      // {"token": …} of at most 500 characters: anything much larger is not a sign-in
      bodyLimit: { size: '2kb', name: 'a sign-in', maxKeys: 4 },
      audit: false,
      responses: {
        201: { description: 'signed in; the session cookie is set', schema: sessionAnswer },
        401: { description: 'wrong admin token, or wrong email or password' },
        403: { description: 'cross-site request' },
        429: { description: 'too many failed sign-ins from this address (Retry-After)' },
      },
      handler: async ({ body, headers, method, origin, baseUrl, ip }) => {
        assertSameOrigin({ method, headers }, [origin, baseUrl]);
        const { sessionId, expiresAt, holder } = await service.signIn(body, ip);
        return {
          status: 201,
          json: {
            signedIn: true,
            expiresAt,
            holder: holder.kind === 'admin' ? { kind: 'admin', grants: [{ role: 'owner' }] } : holder,
          },
          headers: {
            'Set-Cookie': consoleSessionCookie(sessionId, { maxAgeS: service.ttlS, secure: isHttps(origin) }),
            'Cache-Control': 'no-store',
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: PATH,
      summary: 'Whether the caller is signed in (session cookie or admin token), and who',
      tags,
      auth: { kind: 'admin', role: 'self' },
      responses: {
        200: { description: 'signed in', schema: sessionAnswer },
        401: { description: 'no session' },
      },
      handler: async ({ headers, principal }) => {
        const sessionId = consoleSessionIdOf(headers);
        const expiresAt = sessionId ? await service.expiryOf(sessionId) : null;
        const holder =
          principal.kind === 'account'
            ? {
                kind: 'account' as const,
                accountId: principal.accountId,
                email: principal.email,
                grants: principal.grants,
              }
            : { kind: 'admin' as const, grants: [{ role: 'owner' }] };
        return {
          json: { signedIn: true, ...(expiresAt ? { expiresAt } : {}), holder },
          headers: { 'Cache-Control': 'no-store' },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: PATH,
      summary: 'Sign out: ends the session and removes its cookie',
      tags,
      auth: { kind: 'admin', role: 'self' },
      audit: false,
      responses: {
        204: { description: 'signed out' },
        401: { description: 'no session' },
        403: { description: 'cross-site request' },
      },
      handler: async ({ headers, origin }) => {
        const sessionId = consoleSessionIdOf(headers);
        if (sessionId) await service.signOut(sessionId);
        return { status: 204, headers: { 'Set-Cookie': clearedConsoleSessionCookie(isHttps(origin)) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/console/apps/:streamId/token',
      tags,
      auth: { kind: 'admin', role: 'viewer' },
      params: streamIdParam,
      audit: false,
      summary:
        "A short-lived token for the app's public APIs, signed with the console's own API app of the app (made on first use, then reused)",
      responses: {
        201: {
          description: "the token (send it in the auth header); the API app's secret stays in the service",
          schema: consoleTokenAnswer,
        },
        403: { description: 'cross-site request' },
        404: { description: 'unknown app' },
      },
      handler: async ({ params, principal }) => ({
        status: 201,
        json: await credentials.appToken(params.streamId, consoleTokenAccess(principal, params.streamId)),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/console/api-key',
      tags,
      auth: { kind: 'admin', role: 'editor' },
      audit: false,
      summary: "The console's API key for the connections API (made on first use, then reused)",
      responses: {
        201: { description: 'the key (send it in the x-api-key header)', schema: consoleKeyAnswer },
        403: { description: 'cross-site request' },
      },
      handler: async () => ({
        status: 201,
        json: { apiKey: await credentials.apiKey() },
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
  ];
}
