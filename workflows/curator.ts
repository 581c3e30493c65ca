import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities';
import type { ProposedRevision } from '../activities/curation';
import { DEFAULT_CURATION_SETTINGS, proposalSkills } from '../core/curation/plan';
import { scopeKey as scopeKeyOf } from '../core/skills/scope-key';
import { approvalExpiryAction } from '../core/governance/approval-expiry';
import { approvalWorkflowId } from '../core/workflow-ids';
import { failureMessage } from '../core/failure-message';
import { searchAttributes } from '../core/search-attributes';
import type { CuratorInput, CuratorProposalOutcome, CuratorResult, CuratorRevision } from '../core/workflow-api/curator';
import { checkCuratorInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { modelCallRetry, storageRetry } from './retry-policies';
import type { approvalWorkflow } from './approval';
import { APPROVAL_WORKFLOW } from '../core/workflow-api/approval';

export type { CuratorInput, CuratorResult };

const storage = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '30 seconds', retry: storageRetry });
const model = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: '30 seconds', retry: modelCallRetry });

// A scheduled run's id ends with the time it was scheduled for (Temporal appends it): the run's time.
const SCHEDULED_AT = /-(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)$/;

/**
 * One curator run over one scope (docs/curation.md). Plans from three reads (index, usage
 * summary, pins) and the open approvals; stores each proposal as a revision through the
 * gates (held for a person by default), and starts the approval workflow of each held one
 * (abandoned children: they outlive the run). Proposals are idempotent by their revision
 * ids, so a re-run, a retry or the next schedule proposes nothing twice.
 */
export async function curatorWorkflow(input: CuratorInput): Promise<CuratorResult> {
  requireValidInput('curator', checkCuratorInput(input));
  const info = workflowInfo();
  const scopeKey = scopeKeyOf(input.scope);
  const at = SCHEDULED_AT.exec(info.workflowId)?.[1] ?? new Date().toISOString();
  const settings = {
    windowMs: input.windowMs ?? DEFAULT_CURATION_SETTINGS.windowMs,
    similarityThreshold: input.similarityThreshold ?? DEFAULT_CURATION_SETTINGS.similarityThreshold,
    maxMerges: input.maxMerges ?? DEFAULT_CURATION_SETTINGS.maxMerges,
  };
  const governance = await storage.loadGovernance();
  const plan = await storage.planCurationRun({
    scopeKey,
    at,
    settings,
    ...(input.revive ? { revive: input.revive } : {}),
    ...(input.requestedBy ? { requestedBy: input.requestedBy } : {}),
  });

  // A run asked to revive skills (`evolution revive`) proposes only those revivals.
  const planned = input.revive?.length ? plan.proposals.filter((p) => p.kind === 'revive') : plan.proposals;
  const proposals: CuratorProposalOutcome[] = [];
  for (const proposal of planned) {
    const outcome: CuratorProposalOutcome = { kind: proposal.kind, skills: proposalSkills(proposal), reason: proposal.reason, outcome: 'proposed', revisions: [] };
    proposals.push(outcome);
    try {
      let merge;
      if (proposal.kind === 'merge') {
        const consolidated = await model.consolidateSkills({ scopeKey, proposal });
        if ('stale' in consolidated) {
          Object.assign(outcome, { outcome: 'stale', detail: consolidated.stale });
          continue;
        }
        if (!('proposedBefore' in consolidated)) merge = consolidated;
      }
      const r = await storage.proposeCuration({
        scope: input.scope,
        scopeKey,
        runId: info.workflowId,
        at,
        proposal,
        governance,
        autoArchive: input.autoArchive ?? false,
        ...(merge ? { merge } : {}),
      });
      if (r.stale) {
        Object.assign(outcome, { outcome: 'stale', detail: r.stale });
        continue;
      }
      for (const rev of r.revisions) outcome.revisions.push(await held(rev));
      if (r.revisions.some((x) => x.status === 'rejected')) Object.assign(outcome, { outcome: 'refused', detail: r.revisions.find((x) => x.status === 'rejected')!.reason });
      else if (r.revisions.every((x) => x.alreadyProposed)) outcome.outcome = 'already_proposed';
    } catch (e) {
      Object.assign(outcome, { outcome: 'failed', detail: failureMessage(e) });
    }
  }
  return { runId: info.workflowId, scopeKey, at, windowDays: plan.windowDays, proposals, spared: plan.spared };

  /** A revision waiting for a person gets its approval workflow (id from the revision: starting it again is a no-op). */
  async function held(rev: ProposedRevision): Promise<CuratorRevision> {
    const out: CuratorRevision = { revisionId: rev.revisionId, skillId: rev.skillId, status: rev.status, alreadyProposed: rev.alreadyProposed };
    if (rev.status !== 'pending_approval') return out;
    const workflowId = approvalWorkflowId(rev.revisionId);
    try {
      await startChild<typeof approvalWorkflow>(APPROVAL_WORKFLOW, {
        workflowId,
        args: [
          {
            revision: { scopeKey, skillId: rev.skillId, revisionId: rev.revisionId },
            timeoutMs: governance.approvalTimeoutMs,
            expiryAction: approvalExpiryAction(rev.riskTier, governance.approvalExpiryAction),
            ...(rev.requireParentId ? { requireParentId: rev.requireParentId } : {}),
          },
        ],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        searchAttributes: searchAttributes({ kind: 'approval', scopeKey, skillId: rev.skillId, revisionId: rev.revisionId }),
      });
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
    }
    return { ...out, approvalWorkflowId: workflowId };
  }
}
