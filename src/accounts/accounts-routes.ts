/**
 * Operator accounts' API. Owners (and the admin token) manage accounts under /api/admin/accounts;
 * an invited operator sets a password with the invitation's token (no other credential); a signed-in
 * operator reads who they are, changes their password and manages their personal API tokens under
 * /api/account. No answer ever holds a password or its hash; tokens and invitation links are shown
 * once, in the answer that made them.
 */
import { z } from 'zod';
import {
  AppError,
  auditDiff,
  defineRoute,
  type AuditSink,
  type Principal,
  type RouteDef,
} from '../platform/index.js';
import {
  acceptInvitationBody,
  accountAnswer,
  accountIdParam,
  changePasswordBody,
  createTokenBody,
  invitationAnswer,
  inviteBody,
  meAnswer,
  newTokenAnswer,
  tokenAnswer,
  tokenIdParam,
  updateAccountBody,
} from './accounts-schemas.js';
import type { AccountsService } from './accounts-service.js';

const tags = ['accounts'];
const owner = { kind: 'admin', role: 'owner' } as const;
const self = { kind: 'admin', role: 'self' } as const;

const invitationUrl = (baseUrl: string, token: string): string => `${baseUrl}/console/invitation#${token}`;

/** The account of the caller; 400 for the admin token (it is no account). */
function accountOf(principal: Principal): string {
  if (principal.kind !== 'account')
    throw AppError.badRequest('The admin token is no account: sign in with an account for this');
  return principal.accountId;
}

export function accountsRoutes(service: AccountsService, audit?: AuditSink): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/admin/accounts',
      summary: 'List the operator accounts',
      tags,
      auth: owner,
      responses: {
        200: {
          description: 'the accounts (never a password or its hash)',
          schema: z.object({ accounts: z.array(accountAnswer) }),
        },
      },
      handler: async () => ({ json: { accounts: await service.list() } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/accounts',
      summary: 'Invite an operator: an account with roles, and a link to set its password that expires',
      tags,
      auth: owner,
      body: inviteBody,
      responses: {
        201: {
          description: 'the account and its invitation (link and token shown once)',
          schema: invitationAnswer,
        },
        409: { description: 'an account with this email exists' },
      },
      handler: async ({ body, baseUrl }) => {
        const made = await service.invite(body);
        return {
          status: 201,
          json: {
            account: made.account,
            invitation: {
              url: invitationUrl(baseUrl, made.token),
              token: made.token,
              expiresAt: made.expiresAt,
            },
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/accounts/:accountId',
      summary: 'Read an account',
      tags,
      auth: owner,
      params: accountIdParam,
      responses: {
        200: { description: 'the account', schema: accountAnswer },
        404: { description: 'no such account' },
      },
      handler: async ({ params }) => ({ json: await service.get(params.accountId) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/admin/accounts/:accountId',
      summary: "Change an account's roles, or disable it (its sessions and tokens are refused at once)",
      tags,
      auth: owner,
      params: accountIdParam,
      body: updateAccountBody,
      audit: { state: ({ params }) => service.get(params.accountId) },
      responses: {
        200: { description: 'the account', schema: accountAnswer },
        404: { description: 'no such account' },
      },
      handler: async ({ params, body }) => ({ json: await service.update(params.accountId, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/admin/accounts/:accountId/invitation',
      summary: 'A new invitation link (also to reset a forgotten password); the previous link stops working',
      tags,
      auth: owner,
      params: accountIdParam,
      responses: {
        201: { description: 'the invitation (shown once)', schema: invitationAnswer },
        404: { description: 'no such account' },
      },
      handler: async ({ params, baseUrl }) => {
        const made = await service.reinvite(params.accountId);
        return {
          status: 201,
          json: {
            account: made.account,
            invitation: {
              url: invitationUrl(baseUrl, made.token),
              token: made.token,
              expiresAt: made.expiresAt,
            },
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/accounts/:accountId/tokens',
      summary: "List an account's personal API tokens (never the tokens)",
      tags,
      auth: owner,
      params: accountIdParam,
      responses: { 200: { description: 'the tokens', schema: z.object({ tokens: z.array(tokenAnswer) }) } },
      handler: async ({ params }) => ({ json: { tokens: await service.listTokens(params.accountId) } }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/admin/accounts/:accountId/tokens/:tokenId',
      summary: "Revoke an account's personal API token: refused at once",
      tags,
      auth: owner,
      params: accountIdParam.extend(tokenIdParam.shape),
      responses: { 204: { description: 'revoked' }, 404: { description: 'no such token' } },
      handler: async ({ params }) => {
        await service.revokeToken(params.accountId, params.tokenId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/accounts/invitation',
      summary:
        "Set the password of an invited account with the invitation's token (the account is then active)",
      tags,
      auth: { kind: 'none' },
      body: acceptInvitationBody,
      bodyLimit: { size: '2kb', name: 'an invitation', maxKeys: 4 },
      responses: {
        200: { description: 'the account, active', schema: accountAnswer },
        404: { description: 'an unknown or used invitation' },
        410: { description: 'the invitation has expired' },
        429: { description: 'too many unknown invitations from this address (Retry-After)' },
      },
      handler: async ({ body, ip, method, requestId }) => {
        const account = await service.acceptInvitation(body.token, body.password, ip);
        await audit?.record({
          author: { kind: 'account', accountId: account.id, email: account.email },
          action: `${method} /api/accounts/invitation`,
          item: `/api/admin/accounts/${account.id}`,
          status: 200,
          changes: auditDiff({ status: 'invited' }, { status: account.status, password: 'set' }).changes,
          requestId,
        });
        return { json: account };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/account',
      summary: 'Who the caller is: the admin token, or an account with its roles',
      tags,
      auth: self,
      responses: { 200: { description: 'the caller', schema: meAnswer } },
      handler: async ({ principal }) => {
        if (principal.kind !== 'account')
          return { json: { kind: 'admin', grants: [{ role: 'owner' }], via: 'admin-token' } };
        return {
          json: {
            kind: 'account',
            id: principal.accountId,
            email: principal.email,
            grants: principal.grants,
            via: principal.via,
          },
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/account/password',
      summary: "Change the caller's password (the account's other console sessions end)",
      tags,
      auth: self,
      body: changePasswordBody,
      bodyLimit: { size: '2kb', name: 'a password change', maxKeys: 4 },
      responses: {
        204: { description: 'changed: sign in again' },
        403: { description: 'the current password is wrong' },
        429: { description: 'too many wrong passwords (Retry-After)' },
      },
      handler: async ({ principal, body, ip }) => {
        await service.changePassword(accountOf(principal), body.currentPassword, body.newPassword, ip);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/account/tokens',
      summary: "List the caller's personal API tokens (never the tokens)",
      tags,
      auth: self,
      responses: { 200: { description: 'the tokens', schema: z.object({ tokens: z.array(tokenAnswer) }) } },
      handler: async ({ principal }) => ({
        json: { tokens: await service.listTokens(accountOf(principal)) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/account/tokens',
      summary:
        'Make a personal API token for scripts (Authorization: Bearer pat_…), with the roles of the account',
      tags,
      auth: self,
      body: createTokenBody,
      responses: { 201: { description: 'the token, shown once', schema: newTokenAnswer } },
      handler: async ({ principal, body }) => ({
        status: 201,
        json: await service.createToken(accountOf(principal), body.name),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/account/tokens/:tokenId',
      summary: "Revoke one of the caller's personal API tokens: refused at once",
      tags,
      auth: self,
      params: tokenIdParam,
      responses: { 204: { description: 'revoked' }, 404: { description: 'no such token' } },
      handler: async ({ principal, params }) => {
        await service.revokeToken(accountOf(principal), params.tokenId);
        return { status: 204 };
      },
    }),
  ];
}
