// The caller as /admin/v1/me resolves it, and the role rules of DESIGN
// 6.3: reader < operator < admin. The console hides what a role may not
// do; the server decides (a refused write shows its 403).
import { createContext } from '../vendor/preact.mjs';
import { html, useContext } from './html.js';

const RANK = { reader: 1, operator: 2, admin: 3 };

export const Session = createContext({ me: null, refresh: () => {} });

export function can(me, role) {
  return !!me && (RANK[me.role] || 0) >= RANK[role];
}

export function useSession() {
  return useContext(Session);
}

// Can renders its children only for a caller holding role (else the
// optional fallback).
export function Can({ role, children, fallback = null }) {
  const { me } = useSession();
  return can(me, role) ? html`${children}` : fallback;
}
