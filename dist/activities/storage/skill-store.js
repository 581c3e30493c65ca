"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.skillStoreOn = skillStoreOn;
exports.createSkillStore = createSkillStore;
const audit_store_1 = require("./audit-store");
const cursor_store_1 = require("./cursor-store");
const dataset_store_1 = require("./dataset-store");
const object_store_1 = require("./object-store");
const payload_store_1 = require("./payload-store");
const pointer_store_1 = require("./pointer-store");
const published_store_1 = require("./published-store");
const revision_store_1 = require("./revision-store");
const s3_client_1 = require("./s3-client");
const scope_index_store_1 = require("./scope-index-store");
/** Every domain operation on the bucket; each one is idempotent under Temporal retries. */
function skillStoreOn(objects) {
    const pointers = (0, pointer_store_1.pointerStore)(objects);
    const revisions = (0, revision_store_1.revisionStore)(objects, async (scopeKey, skillId) => (await pointers.readActive(scopeKey, skillId))?.pointer);
    return {
        objects,
        ...revisions,
        ...pointers,
        ...(0, audit_store_1.auditStore)(objects),
        ...(0, published_store_1.publishedStore)(objects),
        ...(0, scope_index_store_1.scopeIndexStore)(objects, pointers, revisions.listSkillIds),
        ...(0, cursor_store_1.cursorStore)(objects),
        ...(0, payload_store_1.payloadStore)(objects),
        ...(0, dataset_store_1.datasetStore)(objects),
    };
}
/** One client per process is enough (it pools connections); pass it to share. */
function createSkillStore(s3, client = (0, s3_client_1.createS3Client)(s3)) {
    return skillStoreOn((0, object_store_1.createObjectStore)(client, s3.bucket));
}
//# sourceMappingURL=skill-store.js.map