"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reflectorActivities = reflectorActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../../core");
const structured_call_1 = require("../llm/structured-call");
const storage_1 = require("../storage");
const errors_1 = require("../errors");
const ids_1 = require("../../workflows/gepa/ids");
const failures_1 = require("./failures");
const records_1 = require("./records");
/**
 * The reflector: shows the model the parent skill, the ONE component it may rewrite and
 * the parent's Feedback-minibatch records (bounded, redacted; cases from the frozen
 * dataset, evaluations from the experiment record), then applies only that field with
 * core's screening (invalid answer, no change and duplicates are outcomes, not errors).
 * A malformed answer fails the attempt (MalformedModelAnswer) and Temporal retries it.
 */
function reflectorActivities({ config, store, openai, datasets }) {
    const reader = (0, records_1.experimentReader)(store);
    return {
        async reflectOnMinibatch(input) {
            const record = await (0, errors_1.withStoreErrors)(() => reader.evaluation(input.experimentId, input.evaluationRecordId));
            if (!record)
                throw activity_1.ApplicationFailure.nonRetryable(`evaluation record ${input.evaluationRecordId} of experiment ${input.experimentId} does not exist`, failures_1.GEPA_NON_RETRYABLE.record);
            const cases = await datasets.cases(input.dataset, record.caseIds);
            const messages = (0, core_1.buildReflectionMessages)({
                spec: input.parentSpec,
                component: input.component,
                records: cases.map((c, i) => ({ case: c, evaluation: record.evaluations[i] })),
            });
            const answer = await (0, structured_call_1.structuredCompletion)({ client: openai, model: config.llm.reflectorModel, schemaName: 'reflection', schema: core_1.ReflectionAnswerSchema, messages });
            const screening = (0, core_1.screenProposal)({ parentSpec: input.parentSpec, component: input.component, answer, poolFingerprints: new Map(input.poolFingerprints) });
            // Overwritten by a retried attempt, whose answer is then the one the workflow receives.
            await (0, errors_1.withStoreErrors)(() => store.objects.put((0, storage_1.experimentRecordKey)(input.experimentId, ids_1.recordIds.reflection(input.iteration)), {
                iteration: input.iteration,
                component: input.component,
                evaluationRecordId: input.evaluationRecordId,
                answer,
                screening,
            }));
            return screening;
        },
    };
}
//# sourceMappingURL=reflector.js.map