import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import { planFromReads, DEFAULT_CURATION_SETTINGS, type CurationProposal, type SparedSkill } from '../core/curation';
import { InputError, NotFoundError } from '../core/errors';
import { scopeKey as scopeKeyOf, type Scope } from '../core';
import { CURATOR_WORKFLOW, type CuratorInput, type CuratorResult, type CuratorWorkflow } from '../core/workflow-api';
import { curatorRunWorkflowId, curatorScheduleId } from '../core/workflow-ids';
import { searchAttributes } from '../core/search-attributes';
import { readCurationInputs, type SkillStore } from '../storage';
import { listOpenApprovals } from './approvals';

export const DEFAULT_CURATION_WINDOW_MS = DEFAULT_CURATION_SETTINGS.windowMs;

export interface CurationReport {
  scopeKey: string;
  windowDays: number;
  /** What the next run would propose (each as a revision through the gates, held for approval). */
  proposals: CurationProposal[];
  /** Skills it leaves alone, and why. */
  skipped: SparedSkill[];
  /** Whether skills with an approval waiting were left out (false: Temporal was not asked). */
  pendingChecked: boolean;
}

/**
 * The dry run of a scope's curation: the same pure plan the curator workflow makes, from the
 * same reads (index, usage summary, pins: three GETs) and, with a Temporal client, the same
 * visibility query for skills with an approval waiting. Changes nothing.
 */
export async function curationDryRun(
  store: SkillStore,
  scopeKey: string,
  opts: { windowMs?: number; now?: number; similarityThreshold?: number; maxMerges?: number; client?: Client } = {},
): Promise<CurationReport> {
  const [reads, open] = await Promise.all([readCurationInputs(store, scopeKey), opts.client ? listOpenApprovals(opts.client, { scopeKeys: [scopeKey] }) : undefined]);
  const plan = planFromReads(scopeKey, reads, {
    now: opts.now ?? Date.now(),
    settings: {
      windowMs: opts.windowMs ?? DEFAULT_CURATION_SETTINGS.windowMs,
      similarityThreshold: opts.similarityThreshold ?? DEFAULT_CURATION_SETTINGS.similarityThreshold,
      maxMerges: opts.maxMerges ?? DEFAULT_CURATION_SETTINGS.maxMerges,
    },
    pending: new Set((open ?? []).map((a) => a.skillId)),
  });
  return { scopeKey, windowDays: plan.windowDays, proposals: plan.proposals, skipped: plan.spared, pendingChecked: open !== undefined };
}

export type CurationOptions = Omit<CuratorInput, 'scope' | 'revive' | 'requestedBy'>;

/** Runs the curator over a scope now (one run per scope and minute: asking again within the minute returns that run's result). */
export async function runCuration(deps: { client: Client; taskQueue: string }, scope: Scope, opts: CurationOptions = {}, now = new Date()): Promise<CuratorResult> {
  return startCurator(deps, { scope, ...opts }, 'now', now);
}

/**
 * Asks for archived skills again: a curator run that proposes to revive each (a revision
 * restoring its archived content, through the gates and held for approval like any other).
 */
export async function reviveSkills(
  deps: { client: Client; taskQueue: string },
  scope: Scope,
  names: string[],
  by: { requestedBy: string },
  now = new Date(),
): Promise<CuratorResult> {
  if (!names.length) throw new InputError('name at least one archived skill to revive');
  if (!by.requestedBy.trim()) throw new InputError('a reviewer name is required to ask for a revival');
  return startCurator(deps, { scope, revive: names, requestedBy: by.requestedBy }, 'revive', now);
}

async function startCurator(deps: { client: Client; taskQueue: string }, input: CuratorInput, purpose: 'now' | 'revive', now: Date): Promise<CuratorResult> {
  const scopeKey = scopeKeyOf(input.scope);
  const minute = `${now.toISOString().slice(0, 16)}:00Z`;
  return deps.client.workflow.execute<CuratorWorkflow>(CURATOR_WORKFLOW, {
    workflowId: curatorRunWorkflowId(scopeKey, minute, purpose),
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    searchAttributes: searchAttributes({ kind: 'curator', scopeKey }),
  });
}

export interface CurationScheduleInput extends CurationOptions {
  /** An interval ("1d", "6h") … */
  every?: string | number;
  /** … or a cron expression ("0 4 * * *"). */
  cron?: string;
  paused?: boolean;
}

export interface CurationScheduleView {
  scheduleId: string;
  scopeKey: string;
  spec: string;
  paused: boolean;
  input: CuratorInput;
  recentRuns: { workflowId: string; scheduledAt: string }[];
  nextRuns: string[];
}

/**
 * Creates or updates the scope's curator schedule (one per scope, id `curate/{scopeKey}`).
 * Each run's workflow id is the schedule id and its scheduled time, so a run is keyed by
 * scope and time; runs never overlap (skip).
 */
export async function setCurationSchedule(
  deps: { client: Client; taskQueue: string; parseInterval: (text: string) => number },
  scope: Scope,
  input: CurationScheduleInput,
): Promise<CurationScheduleView> {
  const scopeKey = scopeKeyOf(scope);
  if ((input.cron === undefined) === (input.every === undefined)) throw new InputError('give exactly one of --every INTERVAL or --cron SPEC');
  const every = input.every === undefined ? undefined : typeof input.every === 'number' ? input.every : deps.parseInterval(input.every);
  if (every !== undefined && (!Number.isInteger(every) || every < 60_000))
    throw new InputError(`a curation interval must be at least 1 minute, got ${JSON.stringify(input.every)}`);
  const { every: _every, cron, paused, ...opts } = input;
  void _every;
  const args: CuratorInput = { scope, ...opts };
  const scheduleId = curatorScheduleId(scopeKey);
  const spec = cron !== undefined ? { cronExpressions: [cron] } : { intervals: [{ every: every! }] };
  const shown = cron !== undefined ? `cron "${cron}"` : `every ${String(input.every)}`;
  const action = { type: 'startWorkflow' as const, workflowType: CURATOR_WORKFLOW, workflowId: scheduleId, taskQueue: deps.taskQueue, args: [args] };
  try {
    await deps.client.schedule.create({
      scheduleId,
      spec,
      action: { ...action, searchAttributes: searchAttributes({ kind: 'curator', scopeKey }) },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      state: { paused: paused ?? false },
      memo: { kind: 'curation', spec: shown, scopeKey },
    });
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) {
      if ((e as Error).message?.includes('Invalid cron')) throw new InputError((e as Error).message);
      throw e;
    }
    await deps.client.schedule.getHandle(scheduleId).update((prev) => ({
      ...prev,
      spec,
      action: { ...action, searchAttributes: searchAttributes({ kind: 'curator', scopeKey }) },
      state: { ...prev.state, paused: paused ?? prev.state.paused },
    }));
  }
  return describeCurationSchedule(deps.client, scopeKey, shown);
}

export async function describeCurationSchedule(client: Client, scopeKey: string, shown?: string): Promise<CurationScheduleView> {
  const scheduleId = curatorScheduleId(scopeKey);
  try {
    const d = await client.schedule.getHandle(scheduleId).describe();
    const action = d.action as { args?: unknown[] };
    return {
      scheduleId,
      scopeKey,
      spec: shown ?? (typeof d.memo?.spec === 'string' ? d.memo.spec : 'see temporal schedule describe'),
      paused: d.state.paused,
      input: (action.args?.[0] ?? {}) as CuratorInput,
      recentRuns: d.info.recentActions.map((a) => ({ workflowId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt.toISOString() })),
      nextRuns: d.info.nextActionTimes.map((t) => t.toISOString()),
    };
  } catch (e) {
    if (e instanceof ScheduleNotFoundError) throw new NotFoundError(`no curation schedule for ${scopeKey}`);
    throw e;
  }
}

/** Removes the scope's curator schedule (runs already started finish; their held proposals stay held). */
export async function removeCurationSchedule(client: Client, scopeKey: string): Promise<boolean> {
  try {
    await client.schedule.getHandle(curatorScheduleId(scopeKey)).delete();
    return true;
  } catch (e) {
    if (e instanceof ScheduleNotFoundError) return false;
    throw e;
  }
}
/** Pins or unpins a published skill, with an audit entry under the approver's name. */
export async function pinSkill(
  store: SkillStore,
  scopeKey: string,
  name: string,
  pinned: boolean,
  by: { actor: string; comment?: string; at?: string },
): Promise<{ skillId: string; changed: boolean }> {
  const read = await store.readScopeIndex(scopeKey);
  const skill = (read && !read.notModified ? read.index.skills : []).find((s) => s.name.toLowerCase() === name.toLowerCase() || s.skillId === name);
  if (!skill) throw new NotFoundError(`no published skill named "${name}" in ${scopeKey}`);
  const at = by.at ?? new Date().toISOString();
  const changed = await store.setPinned(scopeKey, skill.skillId, pinned, { actor: by.actor, at, comment: by.comment });
  if (changed) {
    await store.appendAudit({
      id: `${pinned ? 'pin' : 'unpin'}:${skill.skillId}:${at}`,
      at,
      action: pinned ? 'pin' : 'unpin',
      skillId: skill.skillId,
      scopeKey,
      revisionId: skill.revisionId,
      actor: by.actor,
      reason: by.comment ?? '',
    });
  }
  return { skillId: skill.skillId, changed };
}
