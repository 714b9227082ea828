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
}
