/** Request and answer shapes of the operator console's sign-in API. */
import { z } from 'zod';

export const signInBody = z.strictObject({
  /** The admin token (ADMIN_TOKEN), typed by the operator. */
  token: z.string().min(1).max(500),
});

export const sessionAnswer = z.object({
  signedIn: z.literal(true),
  /** ISO 8601 time at which the session ends (absent when the request used the admin token). */
  expiresAt: z.string().optional(),
});

export interface ConsoleSessionRecord {
  createdOn: string;
  expiresAt: string;
  /** The fingerprint of the admin token the session was made with (absent in records of older versions: not valid). */
  credential?: string;
}

export const consoleTokenAnswer = z.object({
  token: z.string().describe('an HS256 JWT for the auth header of the public APIs of this app'),
  clientId: z.string().describe('the console\'s API app of this app, listed with its other API apps'),
  expiresAt: z.string().describe('ISO 8601 time at which the token stops being accepted'),
});

export const consoleKeyAnswer = z.object({ apiKey: z.string().describe('for the x-api-key header of the connections API') });
