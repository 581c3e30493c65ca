"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.weatherEvaluatorActivities = weatherEvaluatorActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../../core");
const evaluator_contract_1 = require("../../activities/gepa/evaluator-contract");
const HEARTBEAT_SLICE_MS = 200;
/** Sleeps in slices, heartbeating between them, so a cancellation arrives within a slice. */
async function pause(ctx, ms) {
    for (let left = ms; left > 0; left -= HEARTBEAT_SLICE_MS) {
        ctx.heartbeat();
        await ctx.sleep(Math.min(HEARTBEAT_SLICE_MS, left));
    }
}
function override(spec, evaluation, overrides) {
    const method = [...spec.steps, ...spec.pitfalls].join('\n');
    const hit = overrides.find((o) => o.caseId === evaluation.caseId && (o.whenSpecMatches === undefined || new RegExp(o.whenSpecMatches, 'i').test(method)));
    return hit ? { ...evaluation, score: hit.score, feedback: `${evaluation.feedback ?? ''}\n(score overridden to ${hit.score})` } : evaluation;
}
/**
 * The example evaluator: the deterministic simulated weather family (core/gepa/
 * simulated-weather) behind the evaluator contract, with injectable latency. It
 * heartbeats while it works and stops when the experiment cancels it.
 */
function weatherEvaluatorActivities(options = {}) {
    return {
        async evaluateCandidate(raw) {
            const parsed = core_1.EvaluateActivityInputSchema.safeParse(raw);
            if (!parsed.success) {
                throw activity_1.ApplicationFailure.nonRetryable(`invalid evaluate input: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`, evaluator_contract_1.INVALID_EVALUATOR_INPUT);
            }
            const input = parsed.data;
            const ctx = activity_1.Context.current();
            const startedAt = Date.now();
            const window = (outcome) => options.onWindow?.({
                identity: options.identity ?? 'weather-evaluator',
                workflowId: ctx.info.workflowExecution?.workflowId ?? '',
                activityId: ctx.info.activityId,
                attempt: ctx.info.attempt,
                candidateId: input.candidateId,
                cases: input.cases.length,
                startedAt,
                endedAt: Date.now(),
                outcome,
            });
            try {
                if (options.delayMs)
                    await pause(ctx, options.delayMs);
                const evaluations = [];
                for (const c of input.cases) {
                    ctx.heartbeat(evaluations.length);
                    if (options.caseDelayMs)
                        await pause(ctx, options.caseDelayMs);
                    evaluations.push(override(input.spec, (0, core_1.scoreWeatherCase)(input.spec, c, input.seed), options.scoreOverrides ?? []));
                }
                window('completed');
                return evaluations;
            }
            catch (e) {
                window(ctx.cancellationSignal.aborted ? 'cancelled' : 'failed');
                throw e;
            }
        },
    };
}
//# sourceMappingURL=weather-evaluator.js.map