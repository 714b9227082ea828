/** Shapes of the audit trail's API: the filters of a listing, an entry, the retention setting. */
import { z } from 'zod';

export const AUDIT_AUTHOR_KINDS = ['admin-token', 'account', 'token', 'anonymous'] as const;

export const auditQuery = z.strictObject({
  app: z.string().max(100).optional().describe('only changes of this app (streamId)'),
  author: z.string().max(254).optional().describe('an account id or email, or admin-token'),
  item: z.string().max(500).optional().describe('only items whose path contains this text'),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.string().max(100).optional().describe('the nextBefore of the previous page'),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  author: z.object({
    kind: z.enum(AUDIT_AUTHOR_KINDS),
    accountId: z.string().optional(),
    email: z.string().optional(),
    tokenId: z.string().optional(),
    tokenName: z.string().optional(),
  }),
  action: z.string(),
  item: z.string(),
  app: z.string().optional(),
  status: z.number(),
  changes: z.array(
    z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
  ),
  truncated: z.boolean().optional(),
  requestId: z.string().optional(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({
  entries: z.array(auditEntry),
  nextBefore: z.string().optional().describe('pass as before for the next (older) page'),
});

export const auditSettings = z.strictObject({
  retentionDays: z.number().int().min(1).max(3650).describe('entries older than this are removed'),
});
export type AuditSettings = z.infer<typeof auditSettings>;
export const DEFAULT_RETENTION_DAYS = 90;
