/**
 * Checks a list of needs (requirements.ts) against the auth store for one identity, in
 * order; the first failure is the answer. Shared by the edge gate and the apply step.
 */
import type { DomainError } from '../errors/domain-error.js';
import type { AuthInfo, AuthStore } from './auth-store.js';
import type { Need } from './requirements.js';

export function checkNeeds(store: AuthStore, needs: readonly Need[], info: AuthInfo | undefined): DomainError | undefined {
  for (const need of needs) {
    const e = checkNeed(store, need, info);
    if (e !== undefined) return e;
  }
  return undefined;
}

function checkNeed(store: AuthStore, need: Need, info: AuthInfo | undefined): DomainError | undefined {
  switch (need.kind) {
    case 'keys':
      return store.checkKeys(info, need.key, need.rangeEnd, need.type);
    case 'admin':
      return store.checkAdmin(info);
    case 'adminOrSelf': {
      const e = store.checkAdmin(info);
      return e !== undefined && need.user !== info?.username ? e : undefined;
    }
    case 'adminOrRole': {
      const e = store.checkAdmin(info);
      return e !== undefined && !store.hasRole(info?.username ?? '', need.role) ? e : undefined;
    }
  }
}
