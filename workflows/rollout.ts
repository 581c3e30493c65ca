import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RolloutActionKind } from '../activities/rollout';
import { operationId } from '../core/publication/operations';
import { decideRollout } from '../core/rollout/decision';
import { afterStep, approverActionProblems, initialProgress, type ApproverAction, type RolloutProgress } from '../core/rollout/progress';
import {
  abortRolloutUpdate,
  promoteRolloutUpdate,
  rolloutStatusQuery,
  type RolloutInput,
  type RolloutResult,
  type RolloutState,
  type RolloutStatus,
} from '../core/workflow-api/rollout';
import { checkRolloutInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { decidedWorkOptions, storageRetry } from './retry-policies';

export { abortRolloutUpdate, promoteRolloutUpdate, rolloutStatusQuery, type RolloutInput, type RolloutResult, type RolloutStatus };

/** A look is a timer and one activity (about 8 events): continue as new well before the history gets large. */
const MAX_HISTORY_EVENTS = 2_000;

const { readCanaryCohorts } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: storageRetry });

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/**
 * The staged rollout of one canary (id `rollout/{candidateRevisionId}`), started by the
 * publisher when it wrote the canary. Every check interval (a durable timer) it reads the
 * two cohorts' outcomes (one S3 GET) and applies core/rollout's sequential test: step the
 * candidate's share up, promote it to every session, or roll it back — never before both
 * cohorts have the minimum sample. After the maximum duration without a decision it does
 * what `onExpiry` says (roll back by default; `hold` waits for an approver). An approver can
 * promote or abort at any time (updates with validators). Each decision is one audited
 * pointer operation; another pointer operation ending the canary first ends the rollout.
 */
export async function rolloutWorkflow(input: RolloutInput): Promise<RolloutResult> {
  requireValidInput('rollout', checkRolloutInput(input));
  const { settings, scopeKey, skillId, candidateRevisionId } = input;
  const { applyRolloutDecision } = proxyActivities<Activities>(decidedWorkOptions(input.storageOutageToleranceMs, { heartbeat: true }));
  const workflowId = workflowInfo().workflowId;
  const deadlineMs = Date.parse(input.startedAt) + settings.maxDurationMs;
  let progress: RolloutProgress = input.progress ?? initialProgress(settings.steps[0]!);
  let approver: { kind: 'promote' | 'rollback'; action: ApproverAction } | undefined;
  let result: RolloutResult | undefined;

  const state = (): RolloutState =>
    result ? (result.outcome === 'promoted' ? 'promoted' : result.outcome === 'rolled_back' ? 'rolled_back' : 'superseded') : progress.held ? 'held' : 'running';
  const status = (): RolloutStatus => ({
    scopeKey,
    skillId,
    candidateRevisionId,
    stableRevisionId: input.stableRevisionId,
    state: state(),
    fraction: progress.fraction,
    stepIndex: progress.stepIndex,
    steps: settings.steps,
    minSamplePerCohort: settings.minSamplePerCohort,
    startedAt: input.startedAt,
    deadline: new Date(deadlineMs).toISOString(),
    onExpiry: settings.onExpiry,
    checks: progress.checks,
    ...(progress.last ? { last: progress.last } : {}),
    ...(result ? { result } : {}),
  });
  const validator = (action: ApproverAction) => {
    if (result) throw new Error(`the rollout of ${candidateRevisionId} already ended: ${result.outcome.replace('_', ' ')} by ${result.decidedBy}`);
    if (approver) throw new Error(`the rollout of ${candidateRevisionId} is already being ${approver.kind === 'promote' ? 'promoted' : 'aborted'} by ${approver.action.reviewer}`);
    const problems = approverActionProblems(action);
    if (problems.length) throw new Error(problems.join('; '));
  };
  const approverHandler = (kind: 'promote' | 'rollback') => async (action: ApproverAction) => {
    approver = { kind, action };
    await condition(() => result !== undefined);
    return status();
  };
  setHandler(promoteRolloutUpdate, approverHandler('promote'), { validator });
  setHandler(abortRolloutUpdate, approverHandler('rollback'), { validator });
  setHandler(rolloutStatusQuery, status);

  async function act(kind: RolloutActionKind, actor: string, reason: string, fraction?: number): Promise<'applied' | 'refused'> {
    const step = kind === 'step' ? `step-${progress.stepIndex + 1}` : kind;
    const r = await applyRolloutDecision({
      scopeKey,
      skillId,
      candidateRevisionId,
      kind,
      ...(fraction !== undefined ? { fraction } : {}),
      actor,
      reason,
      at: new Date().toISOString(),
      opId: operationId(workflowId, step),
    });
    if (r.outcome === 'refused') finish('superseded', 'rollout', r.reason ?? 'the canary was ended by another operation');
    return r.outcome;
  }
  function finish(outcome: RolloutResult['outcome'], decidedBy: string, reason: string): RolloutResult {
    result = { candidateRevisionId, outcome, decidedBy, reason, at: new Date().toISOString() };
    return result;
  }
  async function end(kind: 'promote' | 'rollback', actor: string, reason: string): Promise<RolloutResult> {
    if ((await act(kind, actor, reason)) === 'applied') finish(kind === 'promote' ? 'promoted' : 'rolled_back', actor, reason);
    await condition(allHandlersFinished);
    return result!;
  }

  for (;;) {
    if (approver) {
      const { reviewer, comment } = approver.action;
      return end(approver.kind, reviewer, comment || `${approver.kind === 'promote' ? 'promoted' : 'aborted'} by approver ${reviewer}`);
    }
    if (progress.held) {
      await condition(() => approver !== undefined || historyFull());
    } else {
      const left = deadlineMs - new Date().getTime();
      if (left <= 0) {
        const why = `maximum duration of ${settings.maxDurationMs} ms passed without a decision${progress.last ? ` (${progress.last.reason})` : ''}`;
        if (settings.onExpiry !== 'hold') return end(settings.onExpiry, 'rollout', why);
        if ((await act('hold', 'rollout', `${why}: held at ${pct(progress.fraction)} for an approver`)) === 'refused') return result!;
        progress = { ...progress, held: true };
        continue;
      }
      if (await condition(() => approver !== undefined, Math.min(settings.checkIntervalMs, left))) continue;
      const r = await look();
      if (r) return r;
    }
    if (historyFull()) {
      await condition(allHandlersFinished);
      if (!approver) return continueAsNew<typeof rolloutWorkflow>({ ...input, progress });
    }
  }

  /** One look at the cohorts; a result when it ended the rollout. */
  async function look(): Promise<RolloutResult | undefined> {
    let cohorts;
    try {
      cohorts = await readCanaryCohorts({ scopeKey, skillId, candidateRevisionId });
    } catch (err) {
      // A storage outage past the read's retries: this look is skipped, the next timer tries again.
      log.warn('rollout: the cohorts could not be read', { candidateRevisionId, error: (err as Error).message });
      return undefined;
    }
    const decision = decideRollout({ ...cohorts, stepIndex: progress.stepIndex, candidateAtStepStart: progress.candidateAtStepStart }, settings);
    progress = {
      ...progress,
      checks: progress.checks + 1,
      last: { at: new Date().toISOString(), ...cohorts, decision: decision.kind, reason: decision.reason, ...(decision.interval ? { interval: decision.interval } : {}) },
    };
    switch (decision.kind) {
      case 'wait':
        return undefined;
      case 'step':
        if ((await act('step', 'rollout', decision.reason, decision.fraction)) === 'refused') return result;
        progress = afterStep(progress, decision.fraction, cohorts.candidate.judged);
        return undefined;
      default:
        return end(decision.kind, 'rollout', decision.reason);
    }
  }
}

function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS;
}
