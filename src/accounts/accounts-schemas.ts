/** Request and answer shapes of operator accounts, invitations, passwords and personal API tokens. */
import { z } from 'zod';
import { ROLES } from '../platform/index.js';

export const roleGrant = z.strictObject({
  role: z.enum(ROLES),
  app: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('a streamId: the role holds on that app only; absent: on the whole service'),
});
export type RoleGrantInput = z.infer<typeof roleGrant>;

const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
/** 12 to 200 characters: long enough to resist guessing, short enough that hashing it costs nothing extra. */
export const password = z.string().min(12, 'a password has at least 12 characters').max(200);

export const inviteBody = z.strictObject({
  email,
  grants: z.array(roleGrant).min(1).max(50),
});

export const updateAccountBody = z.strictObject({
  grants: z.array(roleGrant).min(1).max(50).optional(),
  disabled: z
    .boolean()
    .optional()
    .describe('true: the account signs in no more, and its sessions and tokens are refused at once'),
});

export const acceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200),
  password,
});

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(200),
  newPassword: password,
});

export const createTokenBody = z.strictObject({ name: z.string().trim().min(1).max(100) });

export const accountIdParam = z.strictObject({ accountId: z.string().min(1).max(100) });
export const tokenIdParam = z.strictObject({ tokenId: z.string().min(1).max(100) });

export const ACCOUNT_STATUSES = ['invited', 'active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** An account as stored (the password only as its scrypt hash; never answered). */
export interface AccountRecord {
  id: string;
  email: string;
  grants: RoleGrantInput[];
  status: AccountStatus;
  passwordHash?: string;
  /** When the password was last set: sessions made before are refused (console binding). */
  passwordSetOn?: string;
  /** The SHA-256 of the pending invitation's token. */
  invitationHash?: string;
  createdOn: string;
  updatedOn: string;
}

export const accountAnswer = z.object({
  id: z.string(),
  email: z.string(),
  grants: z.array(roleGrant),
  status: z.enum(ACCOUNT_STATUSES),
  createdOn: z.string(),
  updatedOn: z.string(),
});
export type AccountView = z.infer<typeof accountAnswer>;

export const invitationAnswer = z.object({
  account: accountAnswer,
  invitation: z.object({
    url: z.string().describe('the console page where the invited operator sets a password; shown once'),
    token: z.string().describe('the invitation token (in the url); shown once'),
    expiresAt: z.string(),
  }),
});

export const tokenAnswer = z.object({ id: z.string(), name: z.string(), createdOn: z.string() });
export const newTokenAnswer = tokenAnswer.extend({
  token: z.string().describe('send as Authorization: Bearer <token>; shown once'),
});

export const meAnswer = z.object({
  kind: z.enum(['admin', 'account']),
  id: z.string().optional(),
  email: z.string().optional(),
  grants: z.array(roleGrant),
  via: z.enum(['admin-token', 'session', 'token']),
});
