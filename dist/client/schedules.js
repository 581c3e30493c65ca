"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OVERLAP_POLICIES = void 0;
exports.createExperimentSchedule = createExperimentSchedule;
exports.describeExperimentSchedule = describeExperimentSchedule;
exports.listExperimentSchedules = listExperimentSchedules;
exports.deleteExperimentSchedule = deleteExperimentSchedule;
/**
 * GEPA experiments on a Temporal Schedule (cron or interval). Each run reads its dataset
 * by id and version from S3 and resolves its parent revision when it starts
 * (`parentRevisionId: 'active'`), so a nightly run always optimizes what is live.
 */
const client_1 = require("@temporalio/client");
const core_1 = require("../core");
const prepare_1 = require("../activities/gepa/prepare");
const workflows_1 = require("../workflows");
const ids_1 = require("../workflows/gepa/ids");
const errors_1 = require("./errors");
const optimization_1 = require("./optimization");
exports.OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'];
const SCHEDULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MEMO_KIND = 'gepa-experiment';
function intervalMs(every) {
    const ms = typeof every === 'number' ? every : parseDurationOrThrow(every);
    if (!Number.isInteger(ms) || ms < 1000)
        throw new errors_1.InputError(`--every must be at least 1s, got ${JSON.stringify(every)}`);
    return ms;
}
function parseDurationOrThrow(text) {
    try {
        const ms = (0, core_1.parseDuration)(text);
        if (ms === undefined)
            throw new Error('no interval');
        return ms;
    }
    catch (e) {
        throw new errors_1.InputError(`invalid interval ${JSON.stringify(text)}: ${e.message}`);
    }
}
/** Validates like startExperiment, then creates the schedule. Each run gets its own experiment id (the schedule suffixes the workflow id with its time). */
async function createExperimentSchedule(deps, input) {
    if (!SCHEDULE_ID.test(input.scheduleId))
        throw new errors_1.InputError(`schedule id must be 1-64 letters, digits, ".", "_" or "-", got ${JSON.stringify(input.scheduleId)}`);
    if ((input.cron === undefined) === (input.every === undefined))
        throw new errors_1.InputError('give exactly one of a cron expression or an interval');
    const overlap = input.overlap ?? 'skip';
    if (!exports.OVERLAP_POLICIES.includes(overlap))
        throw new errors_1.InputError(`overlap must be one of ${exports.OVERLAP_POLICIES.join(', ')}, got ${JSON.stringify(overlap)}`);
    const raw = typeof input.request === 'object' && input.request !== null ? { ...input.request } : input.request;
    if (raw && typeof raw === 'object') {
        const r = raw;
        if (r.experimentId !== undefined)
            throw new errors_1.InputError('a scheduled request must not set experimentId: every run gets its own');
        if (r.parentRevisionId !== undefined && r.parentRevisionId !== prepare_1.ACTIVE_PARENT) {
            throw new errors_1.InputError(`a scheduled request resolves its parent when each run starts: parentRevisionId must be "${prepare_1.ACTIVE_PARENT}" or omitted`);
        }
        if (r.submit === true)
            r.parentRevisionId = prepare_1.ACTIVE_PARENT;
    }
    const { request } = await (0, optimization_1.resolveRequest)(deps.store, raw);
    const workflowIdPrefix = (0, ids_1.scheduledExperimentWorkflowId)(input.scheduleId);
    try {
        await deps.client.schedule.create({
            scheduleId: input.scheduleId,
            spec: input.cron !== undefined ? { cronExpressions: [input.cron] } : { intervals: [{ every: intervalMs(input.every) }] },
            action: { type: 'startWorkflow', workflowType: workflows_1.experimentWorkflow, workflowId: workflowIdPrefix, taskQueue: deps.config.temporal.taskQueue, args: [{ request }] },
            policies: { overlap: overlap.toUpperCase(), catchupWindow: '1 minute' },
            state: { paused: input.paused ?? false, ...(input.note ? { note: input.note } : {}) },
            // What the user typed, for display (the server keeps cron as calendar specs).
            memo: { kind: MEMO_KIND, spec: input.cron !== undefined ? `cron "${input.cron}"` : `every ${input.every}` },
        });
    }
    catch (e) {
        if (e instanceof client_1.ScheduleAlreadyRunning)
            throw new errors_1.StateError(`schedule ${input.scheduleId} already exists`);
        if (e.message?.includes('Invalid cron'))
            throw new errors_1.InputError(e.message);
        throw e;
    }
    return describeExperimentSchedule(deps.client, input.scheduleId);
}
async function describeExperimentSchedule(client, scheduleId) {
    try {
        const d = await client.schedule.getHandle(scheduleId).describe();
        return {
            scheduleId,
            workflowIdPrefix: d.action.workflowId,
            spec: typeof d.memo?.spec === 'string'
                ? d.memo.spec
                : [...(d.spec.calendars ?? []).map((c) => `calendar ${JSON.stringify(c)}`), ...(d.spec.intervals ?? []).map((i) => `every ${String(i.every)}`)].join('; ') || 'none',
            paused: d.state.paused,
            ...(d.state.note ? { note: d.state.note } : {}),
            overlap: d.policies.overlap,
            recentRuns: d.info.recentActions.map((a) => ({ workflowId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt.toISOString() })),
            nextRuns: d.info.nextActionTimes.map((t) => t.toISOString()),
        };
    }
    catch (e) {
        if (e instanceof client_1.ScheduleNotFoundError)
            throw new errors_1.NotFoundError(`no schedule ${scheduleId}`);
        throw e;
    }
}
/** Every schedule that runs experiments. */
async function listExperimentSchedules(client) {
    const ids = [];
    for await (const s of client.schedule.list()) {
        if (s.action?.workflowType === 'experimentWorkflow' || s.memo?.kind === MEMO_KIND)
            ids.push(s.scheduleId);
    }
    const views = [];
    for (const id of ids.sort()) {
        try {
            views.push(await describeExperimentSchedule(client, id));
        }
        catch (e) {
            if (!(e instanceof errors_1.NotFoundError))
                throw e; // deleted meanwhile
        }
    }
    return views;
}
/** Deletes the schedule; runs it already started keep running. */
async function deleteExperimentSchedule(client, scheduleId) {
    try {
        await client.schedule.getHandle(scheduleId).delete();
    }
    catch (e) {
        if (e instanceof client_1.ScheduleNotFoundError)
            throw new errors_1.NotFoundError(`no schedule ${scheduleId}`);
        throw e;
    }
}
//# sourceMappingURL=schedules.js.map