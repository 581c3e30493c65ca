/**
 * Re-certification of optimized revisions (workflows/recertification.ts): run it now, or
 * on a Temporal Schedule (one, skipping overlaps), and read what it found per skill.
 */
import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import type { EvolutionConfig } from '../core';
import { evidenceStale, type CertificationCheck, type RecertificationInput, type RecertificationResult } from '../core/gepa/recertification';
import { RECERTIFICATION_SCHEDULE_ID, RECERTIFICATION_WORKFLOW_PREFIX } from '../core/workflow-ids';
import { InputError } from '../core/errors';
import { parseDuration } from '../core';
import type { SkillStore } from '../storage';
import { certificationStore } from '../storage/certification-store';

export const RECERTIFICATION_WORKFLOW = 'recertificationWorkflow';

type Deps = { client: Client; config: EvolutionConfig };

/** One run now, waited for. */
export async function runRecertification(deps: Deps, input: RecertificationInput = {}): Promise<RecertificationResult> {
  return deps.client.workflow.execute(RECERTIFICATION_WORKFLOW, {
    workflowId: `${RECERTIFICATION_WORKFLOW_PREFIX}now-${new Date().toISOString()}`,
    taskQueue: deps.config.temporal.taskQueue,
    args: [input],
  });
}

/** Creates (or replaces the interval of) the re-certification schedule: every `every` ("1d", "6h"), overlapping runs skipped. */
export async function scheduleRecertification(deps: Deps, every: string, input: RecertificationInput = {}): Promise<{ scheduleId: string; every: string }> {
  const ms = parseDuration(every);
  if (ms === undefined || ms < 60_000) throw new InputError(`the re-certification interval must be at least 1m, got ${JSON.stringify(every)}`);
  const options = {
    scheduleId: RECERTIFICATION_SCHEDULE_ID,
    spec: { intervals: [{ every: ms }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: RECERTIFICATION_WORKFLOW,
      workflowId: `${RECERTIFICATION_WORKFLOW_PREFIX}sched`,
      taskQueue: deps.config.temporal.taskQueue,
      args: [input],
    },
    policies: { overlap: 'SKIP' as const, catchupWindow: '1 minute' as const },
  };
  try {
    await deps.client.schedule.create(options);
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    await deps.client.schedule.getHandle(RECERTIFICATION_SCHEDULE_ID).update((prev) => ({ ...prev, spec: options.spec, action: { ...prev.action, args: [input] } }));
  }
  return { scheduleId: RECERTIFICATION_SCHEDULE_ID, every };
}

/** The latest check of each optimized revision of a scope. */
export async function certificationChecks(store: SkillStore, scopeKey: string): Promise<CertificationCheck[]> {
  return certificationStore(store.objects).listCertificationChecks(scopeKey);
}

/** The latest check of one revision, if re-certification ever had to look at it. */
export async function certificationCheck(store: SkillStore, scopeKey: string, revisionId: string): Promise<CertificationCheck | undefined> {
  return certificationStore(store.objects).readCertificationCheck(scopeKey, revisionId);
}

export { evidenceStale };
