"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createActivities = createActivities;
const gepa_1 = require("./gepa");
const learning_1 = require("./learning");
const openai_client_1 = require("./llm/openai-client");
const publisher_1 = require("./publisher");
const record_1 = require("./record");
const scope_index_1 = require("./scope-index");
const scope_index_signal_1 = require("./scope-index-signal");
const storage_1 = require("./storage");
/** Every application activity, wired to one S3 store and one OpenAI client per worker. */
function createActivities(config, deps = {}) {
    const store = deps.store ?? (0, storage_1.createSkillStore)(config.s3);
    const openai = (0, openai_client_1.createOpenAIClient)(config.llm);
    const signalIndex = deps.signalIndex ?? (0, scope_index_signal_1.temporalIndexSignaller)(config);
    return {
        ...(0, learning_1.learningActivities)({ config, store, openai }),
        ...(0, record_1.recordActivities)({ store }),
        ...(0, publisher_1.publisherActivities)({ store, signalIndex }),
        ...(0, scope_index_1.scopeIndexActivities)({ store }),
        ...(0, gepa_1.gepaActivities)({ config, store, openai }),
    };
}
//# sourceMappingURL=index.js.map