"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.datasetCache = datasetCache;
const activity_1 = require("@temporalio/activity");
const failures_1 = require("./failures");
const MAX_ENTRIES = 16;
/**
 * Datasets are frozen (create-only per id and version), so a worker may keep the ones it
 * reads: evaluation batches and reflections load cases without re-reading S3 each time.
 */
function datasetCache(store) {
    const entries = new Map();
    async function get(ref) {
        const key = `${ref.id}\u0000${ref.version}`;
        let entry = entries.get(key);
        if (!entry) {
            entry = store.getDataset(ref.id, ref.version);
            entries.set(key, entry);
            if (entries.size > MAX_ENTRIES)
                entries.delete(entries.keys().next().value);
            entry.then((d) => d === undefined && entries.delete(key), () => entries.delete(key));
        }
        const dataset = await entry;
        if (!dataset)
            throw activity_1.ApplicationFailure.nonRetryable(`dataset ${ref.id} version ${ref.version} does not exist`, failures_1.GEPA_NON_RETRYABLE.dataset);
        return dataset;
    }
    /** The cases with these ids, in the order given. */
    async function cases(ref, caseIds) {
        const dataset = await get(ref);
        const byId = new Map([...dataset.feedback, ...dataset.validation, ...dataset.holdout].map((c) => [c.id, c]));
        const missing = caseIds.filter((id) => !byId.has(id));
        if (missing.length > 0) {
            throw activity_1.ApplicationFailure.nonRetryable(`dataset ${ref.id} version ${ref.version} has no case ${missing.map((m) => `"${m}"`).join(', ')}`, failures_1.GEPA_NON_RETRYABLE.dataset);
        }
        return caseIds.map((id) => byId.get(id));
    }
    return { get, cases };
}
//# sourceMappingURL=dataset-cache.js.map