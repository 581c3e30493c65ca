"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.datasetStore = datasetStore;
const core_1 = require("../../core");
const canonical_json_1 = require("./canonical-json");
const errors_1 = require("./errors");
const input_1 = require("./input");
const keys_1 = require("./keys");
/** Frozen GEPA datasets: a (id, version) is written once and never changes. */
function datasetStore(objects) {
    /** Storing the same dataset again is fine; different content under the same id and version is a conflict. */
    async function putDataset(input) {
        const dataset = (0, input_1.parseInput)(core_1.DatasetSchema, input, 'dataset');
        const key = (0, keys_1.datasetKey)(dataset.id, dataset.version);
        try {
            await objects.putCreateOnly(key, dataset);
            return dataset;
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError))
                throw error;
            const stored = await objects.getJson(key, core_1.DatasetSchema);
            if (stored && (0, canonical_json_1.sameJson)(stored.value, dataset))
                return stored.value;
            throw new errors_1.PreconditionConflictError(key, error.condition, {
                message: `dataset ${dataset.id} version ${dataset.version} is frozen and differs from the one given; publish a new version`,
                retryable: false,
            });
        }
    }
    async function getDataset(id, version) {
        return (await objects.getJson((0, keys_1.datasetKey)(id, version), core_1.DatasetSchema))?.value;
    }
    return { putDataset, getDataset };
}
//# sourceMappingURL=dataset-store.js.map