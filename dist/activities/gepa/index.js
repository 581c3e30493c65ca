"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.gepaActivities = gepaActivities;
const dataset_cache_1 = require("./dataset-cache");
const prepare_1 = require("./prepare");
const records_1 = require("./records");
const reflector_1 = require("./reflector");
const submission_1 = require("./submission");
/**
 * The GEPA experiment's activities on the main task queue. The evaluator is NOT here: it
 * is the application's activity on its own task queue (docs/evaluator-contract.md).
 */
function gepaActivities({ config, store, openai }) {
    const datasets = (0, dataset_cache_1.datasetCache)(store);
    return {
        ...(0, prepare_1.prepareActivities)({ config, store, datasets }),
        ...(0, records_1.recordActivities)({ store }),
        ...(0, reflector_1.reflectorActivities)({ config, store, openai, datasets }),
        ...(0, submission_1.submissionActivities)({ store }),
    };
}
//# sourceMappingURL=index.js.map