/**
 * Operator roles and the one check of them. An operator is the admin token (every role, on every
 * app) or an account, whose grants each give a role for the whole service (`app` absent) or for one
 * app. Roles are ordered: an owner may do what an editor may, an editor what a viewer may. The role
 * an operator route needs is its requirement's `role`, or, when it declares none, `viewer` for a
 * read (GET, HEAD) and `editor` for a change. A route on one app (a `streamId` path parameter) takes
 * the operator's highest role on the whole service or on that app; a route on no app takes the
 * whole-service role for a change, and any grant for a read (a per-app viewer may list the apps).
 */
import { AppError } from './app-error.js';

export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** One role, for the whole service or (with `app`) for one app's streamId. */
export interface RoleGrant {
  role: Role;
  app?: string;
}

const rank = (role: Role): number => ROLES.indexOf(role);

const READS = new Set(['GET', 'HEAD']);

/** The role an operator route needs: declared, or by its method. */
export const neededRole = (declared: Role | undefined, method: string): Role =>
  declared ?? (READS.has(method.toUpperCase()) ? 'viewer' : 'editor');

/** The highest role the grants give on `app` (or, without one, on the whole service); null for none. */
export function roleOn(grants: RoleGrant[], app?: string): Role | null {
  let best: Role | null = null;
  for (const g of grants) {
    if (g.app !== undefined && g.app !== app) continue;
    if (best === null || rank(g.role) > rank(best)) best = g.role;
  }
  return best;
}

/** Whether `have` includes what `need` allows. */
export const includesRole = (have: Role | null, need: Role): boolean =>
  have !== null && rank(have) >= rank(need);

/**
 * Refuses (403 `role_required`, naming the missing role) an account whose grants do not give
 * `need` on `app` (see the file's comment for routes on no app).
 */
export function assertRole(grants: RoleGrant[], need: Role, opts: { app?: string; read: boolean }): void {
  const have = opts.app !== undefined ? roleOn(grants, opts.app) : roleOn(grants);
  if (includesRole(have, need)) return;
  if (opts.app === undefined && opts.read && grants.some((g) => includesRole(g.role, need))) return;
  const where = opts.app !== undefined ? `on app ${opts.app} or the whole service` : 'on the whole service';
  const msg = `This needs the ${need} role ${where}; your role there is ${have ?? 'none'}`;
  throw new AppError(403, 'role_required', msg, [{ msg, code: 'role_required', path: `role.${need}` }]);
}
