/** Request and answer shapes of the operator console's sign-in API. */
import { z } from 'zod';
import { ROLES } from '../platform/index.js';

/** The admin token (ADMIN_TOKEN), or an account's email and password. */
export const signInBody = z.union([
  z.strictObject({ token: z.string().min(1).max(500) }),
  z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(200) }),
]);

export const sessionAnswer = z.object({
  signedIn: z.literal(true),
  /** ISO 8601 time at which the session ends (absent when the request used the admin token). */
  expiresAt: z.string().optional(),
  /** Who holds the session: the admin token, or an account with its roles. */
  holder: z
    .object({
      kind: z.enum(['admin', 'account']),
      accountId: z.string().optional(),
      email: z.string().optional(),
      grants: z.array(z.object({ role: z.enum(ROLES), app: z.string().optional() })),
    })
    .optional(),
});

export interface ConsoleSessionRecord {
  createdOn: string;
  expiresAt: string;
  /** The fingerprint of the admin token the session was made with (absent in records of older versions: not valid), or of the account's password. */
  credential?: string;
  /** The account that signed in (absent: the admin token). */
  accountId?: string;
}

export const consoleTokenAnswer = z.object({
  token: z.string().describe('an HS256 JWT for the auth header of the public APIs of this app'),
  clientId: z.string().describe("the console's API app of this app, listed with its other API apps"),
  expiresAt: z.string().describe('ISO 8601 time at which the token stops being accepted'),
  access: z
    .enum(['read', 'write'])
    .describe(
      'read: the holder may not change the app (a viewer): the public APIs answer it only reads (GET), anything else 403',
    ),
});

export const consoleKeyAnswer = z.object({
  apiKey: z.string().describe('for the x-api-key header of the connections API'),
});
