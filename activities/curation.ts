import { Context } from '@temporalio/activity';
import type OpenAI from 'openai';
import { isLivePointer, type EvolutionConfig, type Revision, type RevisionStatus, type Scope, type SkillSpec } from '../core';
import {
  planFromReads,
  proposalJobId,
  proposalRevisionIds,
  proposalSkills,
  type CurationProposal,
  type CurationSettings,
  type MergeProposal,
  type SparedSkill,
} from '../core/curation';
import { CONSOLIDATION_SCHEMA_NAME, ConsolidationAnswerSchema, mergeVerdict, type MergeVerdict } from '../core/curation/consolidation';
import { buildGovernedRevision, jobPublication, type GovernanceSettings } from '../core/governance';
import type { CurationNote, GateReport } from '../core/schemas/revision';
import type { ModelAnswerRecord } from '../core/llm';
import { openApprovalsQuery, SEARCH_ATTRIBUTE_NAMES } from '../core/search-attributes';
import { readCurationInputs, type SkillStore } from '../storage';
import { consolidationMessages } from './curation-prompt';
import { withStoreErrors } from './errors';
import { existingSkillsOf } from './existing-skills';
import { whileHeartbeating } from './heartbeat';
import { asModelAnswer } from './llm/model-answer-failure';
import { structuredCompletion } from './llm/structured-call';
import type { PublishInput, PublishResult } from './publisher';
import type { RecordRevisionInput } from './record';
import type { RecordedRevision } from '../core/governance';

export interface PlanCurationInput {
  scopeKey: string;
  /** Workflow time of the run (the schedule's time): the usage window ends here. */
  at: string;
  settings: CurationSettings;
  /** Archived skills asked for again (names or ids). */
  revive?: string[];
  requestedBy?: string;
}

export interface PlannedCuration {
  windowDays: number;
  proposals: CurationProposal[];
  spared: SparedSkill[];
}

export interface ConsolidateInput {
  scopeKey: string;
  proposal: MergeProposal;
}

export type Consolidation =
  { stale: string } | { proposedBefore: true } | { keep: SkillSpec; absorb: SkillSpec; verdict: MergeVerdict; rationale: string; answer: ModelAnswerRecord };

export interface ProposeCurationInput {
  scope: Scope;
  scopeKey: string;
  /** The curator run (scope + schedule time), recorded on each revision. */
  runId: string;
  at: string;
  proposal: CurationProposal;
  governance: GovernanceSettings;
  /** Archive proposals go through the scope's own human-gate policy instead of being held (default: held). */
  autoArchive: boolean;
  /** merge: what consolidateSkills answered. */
  merge?: Extract<Consolidation, { verdict: MergeVerdict }>;
}

export interface ProposedRevision {
  revisionId: string;
  skillId: string;
  status: RevisionStatus;
  /** A run before this one (or a retry) already stored it: nothing new was written. */
  alreadyProposed: boolean;
  riskTier?: 'low' | 'high';
  /** Publication requires the skill to still be at this revision (the one the proposal was based on). */
  requireParentId?: string;
  reason: string;
}

export interface ProposeCurationResult {
  /** Why nothing was proposed: the skill changed since the plan read it. */
  stale?: string;
  revisions: ProposedRevision[];
}

/** Curation proposals are held for a person: a custom policy that holds every revision from the curator. */
const HOLD_CURATOR = { holdSources: ['curator' as const] };

export interface CurationDeps {
  config: EvolutionConfig;
  store: SkillStore;
  openai: OpenAI;
  recordRevision(input: RecordRevisionInput): Promise<RecordedRevision>;
  publishRevision(input: PublishInput): Promise<PublishResult>;
}

/** Skill ids with an approval waiting in a scope (a visibility query over the worker's own client: no storage read). */
async function skillsWithOpenApprovals(scopeKey: string): Promise<Set<string>> {
  const query = openApprovalsQuery({ scopeKeys: [scopeKey] })!;
  const ids = new Set<string>();
  for await (const wf of Context.current().client.workflow.list({ query, pageSize: 1000 })) {
    const v = wf.searchAttributes?.[SEARCH_ATTRIBUTE_NAMES.skillId];
    if (Array.isArray(v) && typeof v[0] === 'string') ids.add(v[0]);
  }
  return ids;
}

/**
 * The curator's activities (docs/curation.md): plan a run from three reads, ask the reviewer
 * model to merge a near-duplicate pair, and store each proposal as a governed revision
 * (create-only, ids from the proposal), through the same gates, publication and approval
 * workflow as every other revision.
 */
export function curationActivities({ config, store, openai, recordRevision, publishRevision }: CurationDeps) {
  /**
   * What an earlier run (or attempt) stored of this proposal. `complete` when it was made in
   * full: every revision stored, or a merge refused (its first revision rejected, nothing else
   * stored). Revisions are written in order, so when the first is missing none is stored.
   */
  async function proposedBefore(scopeKey: string, proposal: CurationProposal): Promise<{ complete?: Revision[]; stored: (Revision | undefined)[] }> {
    const ids = proposalRevisionIds(scopeKey, proposal);
    const skillIds = proposalSkills(proposal);
    const first = await store.readRevision(scopeKey, skillIds[0]!, ids[0]!);
    if (!first) return { stored: [] };
    if (first.status === 'rejected' || ids.length === 1) return { complete: [first], stored: [first] };
    const stored = [first, ...(await Promise.all(ids.slice(1).map((id, i) => store.readRevision(scopeKey, skillIds[i + 1]!, id))))];
    return stored.every((r) => r !== undefined) ? { complete: stored as Revision[], stored } : { stored };
  }

  return {
    async planCurationRun(input: PlanCurationInput): Promise<PlannedCuration> {
      const [reads, pending] = await Promise.all([withStoreErrors(() => readCurationInputs(store, input.scopeKey, input.revive ?? [])), skillsWithOpenApprovals(input.scopeKey)]);
      const plan = planFromReads(input.scopeKey, reads, {
        now: Date.parse(input.at),
        settings: input.settings,
        pending,
        ...(input.requestedBy ? { requestedBy: input.requestedBy } : {}),
      });
      return { windowDays: plan.windowDays, proposals: plan.proposals, spared: plan.spared };
    },

    /** The pair's contents (two pointer GETs) and the reviewer model's merge, checked for content preservation. */
    async consolidateSkills({ scopeKey, proposal }: ConsolidateInput): Promise<Consolidation> {
      // Proposed by an earlier run: no second model call (proposeCuration reports the stored revisions).
      if ((await withStoreErrors(() => proposedBefore(scopeKey, proposal))).complete) return { proposedBefore: true };
      const [keep, absorb] = await withStoreErrors(() => Promise.all([store.readActive(scopeKey, proposal.keep.skillId), store.readActive(scopeKey, proposal.absorb.skillId)]));
      for (const [read, ref] of [
        [keep, proposal.keep],
        [absorb, proposal.absorb],
      ] as const) {
        if (!isLivePointer(read?.pointer) || read.pointer.revisionId !== ref.revisionId) return { stale: `skill ${ref.skillId} changed since the run was planned` };
      }
      const keepSpec = (keep!.pointer as { spec: SkillSpec }).spec;
      const absorbSpec = (absorb!.pointer as { spec: SkillSpec }).spec;
      const { value, record } = await whileHeartbeating((signal) =>
        asModelAnswer(() =>
          structuredCompletion({
            client: openai,
            model: config.llm.reviewerModel,
            schemaName: CONSOLIDATION_SCHEMA_NAME,
            schema: ConsolidationAnswerSchema,
            messages: consolidationMessages(keepSpec, absorbSpec),
            signal,
          }),
        ),
      );
      return { keep: keepSpec, absorb: absorbSpec, verdict: mergeVerdict(keepSpec, absorbSpec, value), rationale: value.rationale, answer: record };
    },

    async proposeCuration(input: ProposeCurationInput): Promise<ProposeCurationResult> {
      const { scopeKey, proposal } = input;
      const jobId = proposalJobId(scopeKey, proposal);
      const ids = proposalRevisionIds(scopeKey, proposal);
      return withStoreErrors(() =>
        whileHeartbeating(async () => {
          const before = await proposedBefore(scopeKey, proposal);
          if (before.complete) return { revisions: before.complete.map((r, i) => proposed(r, true, parentOf(proposal, i))) };
          const drafts = await draftsOf(input);
          if ('stale' in drafts) return { stale: drafts.stale, revisions: [] };
          const existing = existingSkillsOf(await store.scopeIndexSnapshot(scopeKey));
          const humanGate = proposal.kind === 'archive' && input.autoArchive ? input.governance.humanGate : HOLD_CURATOR;
          const revisions: ProposedRevision[] = [];
          for (const [i, d] of drafts.entries()) {
            // A retried attempt that stored this one already (create-only ids): keep what is stored.
            const stored = before.stored[i];
            if (stored) {
              revisions.push(proposed(stored, true, d.requireParentId));
              continue;
            }
            let revision: Revision = {
              ...buildGovernedRevision(
                {
                  candidate: { action: d.action, source: 'curator', spec: d.spec, targetName: d.spec.name },
                  revisionId: ids[i]!,
                  skillId: d.skillId,
                  parentId: d.parentId,
                  jobId,
                  scope: input.scope,
                  scopeKey,
                  reason: d.reason,
                },
                { existing, governance: { ...input.governance, humanGate, shadowMode: false }, at: input.at, ...(d.published ? { published: d.published } : {}) },
              ),
              curation: d.note,
            };
            if (d.refused.length) revision = refused(revision, d.refused);
            if (revision.status === 'pending') {
              // Passed every gate and nobody has to approve it (auto-archive): the one publication path.
              const recorded = await recordRevision({ revision, publishNow: true });
              const published = await publishRevision(jobPublication(jobId, revision, recorded));
              revisions.push({ ...proposed(revision, false, d.requireParentId), status: published.status });
            } else {
              await recordRevision({ revision });
              revisions.push(proposed(revision, false, d.requireParentId));
            }
          }
          return { revisions };
        }),
      );

      async function draftsOf(i: ProposeCurationInput): Promise<Draft[] | { stale: string }> {
        const p = i.proposal;
        const note = (extra: Partial<CurationNote> = {}): CurationNote => ({ kind: p.kind, runId: i.runId, ...extra });
        if (p.kind === 'archive') {
          const now = (await store.readActive(scopeKey, p.skillId))?.pointer;
          if (!isLivePointer(now) || now.revisionId !== p.revisionId) return { stale: `skill ${p.skillId} changed since the run was planned` };
          if (!now.managed) return { stale: `skill ${p.skillId} is not managed` };
          return [
            {
              action: 'delete',
              skillId: p.skillId,
              spec: now.spec,
              published: now.spec,
              parentId: p.revisionId,
              requireParentId: p.revisionId,
              reason: `archive: ${p.reason}`,
              note: note(),
              refused: [],
            },
          ];
        }
        if (p.kind === 'revive') {
          const now = (await store.readActive(scopeKey, p.skillId))?.pointer;
          if (!now?.deleted || now.revisionId !== p.revisionId || !now.spec) return { stale: `skill ${p.skillId} is no longer archived by ${p.revisionId}` };
          return [{ action: 'create', skillId: p.skillId, spec: now.spec, parentId: p.revisionId, reason: `revive: ${p.reason}`, note: note(), refused: [] }];
        }
        const m = i.merge;
        if (!m) throw new TypeError('a merge proposal needs the consolidation');
        const dropped = m.verdict.check.dropped;
        return [
          {
            action: 'update',
            skillId: p.keep.skillId,
            spec: m.verdict.spec,
            published: m.keep,
            parentId: p.keep.revisionId,
            requireParentId: p.keep.revisionId,
            reason: `merge: ${p.reason}${m.rationale ? ` (${m.rationale})` : ''}`,
            note: note({ mergedFrom: [p.absorb.skillId], dropped }),
            refused: m.verdict.refused,
          },
          ...(m.verdict.refused.length
            ? []
            : [
                {
                  action: 'delete' as const,
                  skillId: p.absorb.skillId,
                  spec: m.absorb,
                  published: m.absorb,
                  parentId: p.absorb.revisionId,
                  requireParentId: p.absorb.revisionId,
                  reason: `archive: merged into ${p.keep.name} (${p.reason})`,
                  note: note({ mergedInto: p.keep.skillId }),
                  refused: [],
                },
              ]),
        ];
      }
    },
  };
}

interface Draft {
  action: 'create' | 'update' | 'delete';
  skillId: string;
  spec: SkillSpec;
  published?: SkillSpec;
  parentId: string;
  requireParentId?: string;
  reason: string;
  note: CurationNote;
  refused: string[];
}

function parentOf(p: CurationProposal, i: number): string | undefined {
  if (p.kind === 'archive') return p.revisionId;
  if (p.kind === 'merge') return i === 0 ? p.keep.revisionId : p.absorb.revisionId;
  return undefined;
}

function proposed(r: Revision, alreadyProposed: boolean, requireParentId: string | undefined): ProposedRevision {
  return {
    revisionId: r.id,
    skillId: r.skillId,
    status: r.status,
    alreadyProposed,
    ...(r.risk ? { riskTier: r.risk.tier } : {}),
    ...(requireParentId ? { requireParentId } : {}),
    // Why it was refused, when it was (the failed gates' reasons); else what it proposes.
    reason: r.status === 'rejected' ? r.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).join('; ') || r.reason : r.reason,
  };
}

/** A merge that loses content without a reason is refused, not held: a failed Spec verdict naming what is missing. */
function refused(revision: Revision, reasons: string[]): Revision {
  const preservation = reasons.map((r) => `content preservation: ${r}`);
  const gates: GateReport[] = revision.gates.some((g) => g.gate === 'spec')
    ? revision.gates.map((g) => (g.gate === 'spec' ? { ...g, ran: true, passed: false, reasons: [...g.reasons, ...preservation] } : g))
    : [{ gate: 'spec', ran: true, passed: false, held: false, reasons: preservation }, ...revision.gates];
  return { ...revision, gates, status: 'rejected', human: undefined };
}
