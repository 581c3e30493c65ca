import { alignEvaluations, type Case, type SkillSpec } from '../../core';
import { judgeRecertification, staleCheck, type CertificationCheck, type CertifiedRevision, type CertifiedVersions } from '../../core/gepa/recertification';
import { mapLimit, type SkillStore } from '../../storage';
import { certificationStore } from '../../storage/certification-store';
import { experimentReader } from '../../storage/experiment-records';
import { withStoreErrors } from '../errors';
import { whileHeartbeating } from '../heartbeat';

/** What the workflow evaluates for one revision: its spec, its parent's, and the Holdout cases. */
export type HoldoutToRerun = { ready: true; candidate: SkillSpec; baseline: SkillSpec; cases: Case[] } | { ready: false; reason: string };

/** Activities of the re-certification workflow (main task queue); the evaluator runs on its own queue. */
export function recertificationActivities({ store }: { store: SkillStore }) {
  const checks = certificationStore(store.objects);
  return {
    /**
     * Every active revision published from a GEPA experiment whose evidence says what it was
     * certified with: found through the experiments' results (one per experiment, far fewer
     * than revisions), each confirmed active by its pointer.
     */
    async listCertifiedRevisions({ scopeKeys }: { scopeKeys?: string[] } = {}): Promise<CertifiedRevision[]> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => {
          const reader = experimentReader(store);
          const experimentIds = await store.objects.listChildren('experiments/');
          const found = await mapLimit(experimentIds, 8, async (id): Promise<CertifiedRevision | undefined> => {
            const report = await reader.result(id).catch(() => undefined);
            const revisionId = report?.submittedRevisionId ?? report?.submission?.revisionId;
            if (!revisionId) return undefined;
            const revision = await store.findRevision(revisionId);
            const certifiedWith = revision?.evidence?.certifiedWith;
            if (!revision || revision.status !== 'active' || !certifiedWith) return undefined;
            if (scopeKeys && !scopeKeys.includes(revision.scopeKey)) return undefined;
            return {
              scopeKey: revision.scopeKey,
              skillId: revision.skillId,
              revisionId: revision.id,
              ...(revision.parentId ? { parentRevisionId: revision.parentId } : {}),
              datasetId: revision.evidence!.datasetId,
              datasetVersion: revision.evidence!.datasetVersion,
              evaluatorTaskQueue: certifiedWith.evaluatorTaskQueue,
              certified: {
                ...(certifiedWith.evaluatorVersion !== undefined ? { evaluatorVersion: certifiedWith.evaluatorVersion } : {}),
                ...(certifiedWith.modelVersion !== undefined ? { modelVersion: certifiedWith.modelVersion } : {}),
              },
              holdoutSeed: certifiedWith.holdoutSeed,
              minHoldoutImprovement: certifiedWith.minHoldoutImprovement,
            };
          });
          return found.filter((r): r is CertifiedRevision => r !== undefined).sort((a, b) => a.revisionId.localeCompare(b.revisionId));
        }),
      );
    },

    /** The revision's spec, its parent's and the dataset's Holdout cases, or why they cannot be had. */
    async loadHoldoutToRerun(revision: CertifiedRevision): Promise<HoldoutToRerun> {
      return withStoreErrors(async () => {
        if (!revision.parentRevisionId) return { ready: false, reason: 'the revision names no parent to compare with' };
        const [candidate, baseline, dataset] = await Promise.all([
          store.readRevision(revision.scopeKey, revision.skillId, revision.revisionId),
          store.readRevision(revision.scopeKey, revision.skillId, revision.parentRevisionId),
          store.getDataset(revision.datasetId, revision.datasetVersion),
        ]);
        if (!candidate?.spec || !baseline?.spec)
          return { ready: false, reason: `revision ${candidate?.spec ? revision.parentRevisionId : revision.revisionId} has no spec to evaluate` };
        if (!dataset) return { ready: false, reason: `dataset ${revision.datasetId} version ${revision.datasetVersion} is gone: the Holdout cannot be re-run` };
        if (dataset.holdout.length === 0) return { ready: false, reason: `dataset ${revision.datasetId} version ${revision.datasetVersion} has no Holdout cases` };
        return { ready: true, candidate: candidate.spec, baseline: baseline.spec, cases: dataset.holdout };
      });
    },

    /**
     * Checks the evaluator's answers against the contract, judges them and stores the check.
     * A contract violation or a missing re-run stores a stale check with the reason.
     */
    async recordCertificationCheck(input: {
      revision: CertifiedRevision;
      current?: CertifiedVersions;
      checkedAt: string;
      stale?: string;
      rerun?: { caseIds: string[]; baseline: unknown[]; candidate: unknown[] };
    }): Promise<CertificationCheck> {
      let check: CertificationCheck;
      if (input.rerun && input.current) {
        try {
          const baseline = alignEvaluations(input.rerun.caseIds, input.rerun.baseline).scores;
          const candidate = alignEvaluations(input.rerun.caseIds, input.rerun.candidate).scores;
          check = judgeRecertification(input.revision, input.current, { baseline, candidate }, input.checkedAt);
        } catch (e) {
          check = staleCheck(input.revision, `the Holdout re-run failed: ${(e as Error).message}`, input.checkedAt, input.current);
        }
      } else {
        check = staleCheck(input.revision, input.stale ?? 'the Holdout was not re-run', input.checkedAt, input.current);
      }
      await withStoreErrors(() => checks.writeCertificationCheck(check));
      return check;
    },
  };
}
