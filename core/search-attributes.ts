/**
 * The search attributes every workflow of the product carries, so an operator or a platform
 * finds a scope's sessions, jobs, approvals, rollbacks, imports and experiments with one
 * visibility query. The names (Keyword attributes the namespace must have) are spelled here
 * only; docs/platform-contract.md lists who sets which.
 */
export const SEARCH_ATTRIBUTE_NAMES = {
  scopeKey: 'EvolutionScopeKey',
  skillId: 'EvolutionSkillId',
  revisionId: 'EvolutionRevisionId',
  kind: 'EvolutionKind',
} as const;

/** What `EvolutionKind` says a workflow is. */
export type WorkflowKind = 'session' | 'learning-job' | 'approval' | 'rollback' | 'import' | 'experiment' | 'curator';

export interface WorkflowSearchAttributes {
  kind: WorkflowKind;
  scopeKey?: string;
  skillId?: string;
  revisionId?: string;
}

/** The `searchAttributes` of a workflow start (each a one-value Keyword list). */
export function searchAttributes(a: WorkflowSearchAttributes): Record<string, string[]> {
  const out: Record<string, string[]> = { [SEARCH_ATTRIBUTE_NAMES.kind]: [a.kind] };
  if (a.scopeKey !== undefined) out[SEARCH_ATTRIBUTE_NAMES.scopeKey] = [a.scopeKey];
  if (a.skillId !== undefined) out[SEARCH_ATTRIBUTE_NAMES.skillId] = [a.skillId];
  if (a.revisionId !== undefined) out[SEARCH_ATTRIBUTE_NAMES.revisionId] = [a.revisionId];
  return out;
}

const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The visibility query for a scope's workflows, of one kind when given. */
export function scopeQuery(scopeKey: string, kind?: WorkflowKind): string {
  const scope = `${SEARCH_ATTRIBUTE_NAMES.scopeKey} = ${quoted(scopeKey)}`;
  return kind ? `${scope} AND ${SEARCH_ATTRIBUTE_NAMES.kind} = ${quoted(kind)}` : scope;
}

/** The visibility query for some workflows by id (every run, whatever its status). */
export function workflowIdsQuery(workflowIds: readonly string[]): string {
  return `WorkflowId IN (${workflowIds.map(quoted).join(', ')})`;
}

/** Which scopes' approvals: every scope, some scope keys, and/or every key under some prefixes (`users/shop/`). */
export interface ApprovalScopeFilter {
  all?: boolean;
  scopeKeys?: readonly string[];
  scopePrefixes?: readonly string[];
}

/**
 * The visibility query for the open approval workflows of some scopes (what the console's
 * Pending reads); undefined when the filter matches no scope.
 */
export function openApprovalsQuery(filter: ApprovalScopeFilter): string | undefined {
  const { kind, scopeKey } = SEARCH_ATTRIBUTE_NAMES;
  const base = `${kind} = ${quoted('approval' satisfies WorkflowKind)} AND ExecutionStatus = 'Running'`;
  if (filter.all) return base;
  const terms = [
    ...(filter.scopeKeys?.length ? [`${scopeKey} IN (${filter.scopeKeys.map(quoted).join(', ')})`] : []),
    ...(filter.scopePrefixes ?? []).map((p) => `${scopeKey} STARTS_WITH ${quoted(p)}`),
  ];
  return terms.length ? `${base} AND (${terms.join(' OR ')})` : undefined;
}
