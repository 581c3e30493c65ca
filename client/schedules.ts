/**
 * GEPA experiments on a Temporal Schedule (cron or interval). Each run reads its dataset
 * by id and version from S3 and resolves its parent revision when it starts
 * (`parentRevisionId: 'active'`), so a nightly run always optimizes what is live.
 */
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleOverlapPolicy } from '@temporalio/client';
import { parseDuration, type EvolutionConfig } from '../core';
import { ACTIVE_PARENT } from '../core/gepa/submission-parent';
import type { SkillStore } from '../storage';
import { EXPERIMENT_WORKFLOW } from '../core/workflow-api';
import { scheduledExperimentWorkflowId } from '../core/workflow-ids';
import { InputError, NotFoundError, StateError } from '../core/errors';
import { resolveRequest } from './optimization';

export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

const SCHEDULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MEMO_KIND = 'gepa-experiment';

export interface ExperimentScheduleInput {
  scheduleId: string;
  /** An ExperimentRequest without experimentId; parentRevisionId may only be "active" (the default when submitting). */
  request: unknown;
  /** A cron expression ("0 3 * * *"), or … */
  cron?: string;
  /** … an interval ("6h", "30m", or milliseconds). */
  every?: string | number;
  /** What happens when a run is due while the previous one still runs (default skip). */
  overlap?: OverlapPolicy;
  note?: string;
  paused?: boolean;
}

export interface ExperimentScheduleView {
  scheduleId: string;
  workflowIdPrefix: string;
  spec: string;
  paused: boolean;
  note?: string;
  overlap?: string;
  recentRuns: { workflowId: string; scheduledAt: string }[];
  nextRuns: string[];
}

function intervalMs(every: string | number): number {
  const ms = typeof every === 'number' ? every : parseDurationOrThrow(every);
  if (!Number.isInteger(ms) || ms < 1000) throw new InputError(`--every must be at least 1s, got ${JSON.stringify(every)}`);
  return ms;
}

function parseDurationOrThrow(text: string): number {
  try {
    const ms = parseDuration(text);
    if (ms === undefined) throw new Error('no interval');
    return ms;
  } catch (e) {
    throw new InputError(`invalid interval ${JSON.stringify(text)}: ${(e as Error).message}`);
  }
}

/** Validates like startExperiment, then creates the schedule. Each run gets its own experiment id (the schedule suffixes the workflow id with its time). */
export async function createExperimentSchedule(
  deps: { client: Client; store: SkillStore; config: EvolutionConfig },
  input: ExperimentScheduleInput,
): Promise<ExperimentScheduleView> {
  if (!SCHEDULE_ID.test(input.scheduleId)) throw new InputError(`schedule id must be 1-64 letters, digits, ".", "_" or "-", got ${JSON.stringify(input.scheduleId)}`);
  if ((input.cron === undefined) === (input.every === undefined)) throw new InputError('give exactly one of a cron expression or an interval');
  const overlap = input.overlap ?? 'skip';
  if (!OVERLAP_POLICIES.includes(overlap)) throw new InputError(`overlap must be one of ${OVERLAP_POLICIES.join(', ')}, got ${JSON.stringify(overlap)}`);
  const raw = typeof input.request === 'object' && input.request !== null ? { ...(input.request as Record<string, unknown>) } : input.request;
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (r.experimentId !== undefined) throw new InputError('a scheduled request must not set experimentId: every run gets its own');
    if (r.parentRevisionId !== undefined && r.parentRevisionId !== ACTIVE_PARENT) {
      throw new InputError(`a scheduled request resolves its parent when each run starts: parentRevisionId must be "${ACTIVE_PARENT}" or omitted`);
    }
    if (r.submit === true) r.parentRevisionId = ACTIVE_PARENT;
  }
  const { request } = await resolveRequest(deps.store, raw);
  const workflowIdPrefix = scheduledExperimentWorkflowId(input.scheduleId);
  try {
    await deps.client.schedule.create({
      scheduleId: input.scheduleId,
      spec: input.cron !== undefined ? { cronExpressions: [input.cron] } : { intervals: [{ every: intervalMs(input.every!) }] },
      action: { type: 'startWorkflow', workflowType: EXPERIMENT_WORKFLOW, workflowId: workflowIdPrefix, taskQueue: deps.config.temporal.taskQueue, args: [{ request }] },
      policies: { overlap: overlap.toUpperCase() as ScheduleOverlapPolicy, catchupWindow: '1 minute' },
      state: { paused: input.paused ?? false, ...(input.note ? { note: input.note } : {}) },
      // What the user typed, for display (the server keeps cron as calendar specs).
      memo: { kind: MEMO_KIND, spec: input.cron !== undefined ? `cron "${input.cron}"` : `every ${input.every}` },
    });
  } catch (e) {
    if (e instanceof ScheduleAlreadyRunning) throw new StateError(`schedule ${input.scheduleId} already exists`);
    if ((e as Error).message?.includes('Invalid cron')) throw new InputError((e as Error).message);
    throw e;
  }
  return describeExperimentSchedule(deps.client, input.scheduleId);
}

export async function describeExperimentSchedule(client: Client, scheduleId: string): Promise<ExperimentScheduleView> {
  try {
    const d = await client.schedule.getHandle(scheduleId).describe();
    return {
      scheduleId,
      workflowIdPrefix: d.action.workflowId,
      spec:
        typeof d.memo?.spec === 'string'
          ? d.memo.spec
          : [...(d.spec.calendars ?? []).map((c) => `calendar ${JSON.stringify(c)}`), ...(d.spec.intervals ?? []).map((i) => `every ${String(i.every)}`)].join('; ') || 'none',
      paused: d.state.paused,
      ...(d.state.note ? { note: d.state.note } : {}),
      overlap: d.policies.overlap,
      recentRuns: d.info.recentActions.map((a) => ({ workflowId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt.toISOString() })),
      nextRuns: d.info.nextActionTimes.map((t) => t.toISOString()),
    };
  } catch (e) {
    if (e instanceof ScheduleNotFoundError) throw new NotFoundError(`no schedule ${scheduleId}`);
    throw e;
  }
}

/** Every schedule that runs experiments. */
export async function listExperimentSchedules(client: Client): Promise<ExperimentScheduleView[]> {
  const ids: string[] = [];
  for await (const s of client.schedule.list()) {
    if (s.action?.workflowType === EXPERIMENT_WORKFLOW || s.memo?.kind === MEMO_KIND) ids.push(s.scheduleId);
  }
  const views: ExperimentScheduleView[] = [];
  for (const id of ids.sort()) {
    try {
      views.push(await describeExperimentSchedule(client, id));
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e; // deleted meanwhile
    }
  }
  return views;
}

/** Deletes the schedule; runs it already started keep running. */
export async function deleteExperimentSchedule(client: Client, scheduleId: string): Promise<void> {
  try {
    await client.schedule.getHandle(scheduleId).delete();
  } catch (e) {
    if (e instanceof ScheduleNotFoundError) throw new NotFoundError(`no schedule ${scheduleId}`);
    throw e;
  }
}
