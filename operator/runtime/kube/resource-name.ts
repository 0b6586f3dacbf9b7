/**
 * The resource (plural, lower case) of a kind, as the API server names it in URLs, RBAC rules
 * and audit logs: Kubernetes' own guess from the kind (`StatefulSet` → `statefulsets`,
 * `PodDisruptionBudget` → `poddisruptionbudgets`, `Ingress` → `ingresses`, `NetworkPolicy` →
 * `networkpolicies`), right for every kind the operator touches. `Endpoints` is its own plural.
 * Pure.
 */
export function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower === 'endpoints') return lower;
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}
