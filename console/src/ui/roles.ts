/**
 * The signed-in operator's roles, for hiding what the role cannot do (the service refuses it anyway,
 * 403 naming the role). The admin token holds every role.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { RoleGrant, SessionHolder } from '../api/client.js';

const RANK = { viewer: 0, editor: 1, owner: 2 } as const;

export const HolderContext = createContext<SessionHolder>({ kind: 'admin', grants: [{ role: 'owner' }] });

export const useHolder = (): SessionHolder => useContext(HolderContext);

/** Whether the grants give `need` on `app` (or, without one, on the whole service). */
export function can(grants: RoleGrant[], need: RoleGrant['role'], app?: string): boolean {
  return grants.some((g) => (g.app === undefined || g.app === app) && RANK[g.role] >= RANK[need]);
}

/** Whether the signed-in operator may do what needs `need` (on `app`). */
export function useCan(need: RoleGrant['role'], app?: string): boolean {
  return can(useHolder().grants, need, app);
}

/** The sentence a page shows where a role hides an action. */
export const needsRole = (need: RoleGrant['role']): string =>
  `Your role does not allow this: it needs the ${need} role.`;
