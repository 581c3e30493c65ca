"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.datasetKey = exports.experimentRecordKey = exports.experimentRecordsPrefix = exports.experimentKey = exports.experimentPrefix = exports.jobOutcomeKey = exports.jobOutcomesPrefix = exports.reviewFailuresKey = exports.cursorKey = exports.scopeIndexKey = exports.publishedKey = exports.auditKey = exports.auditPrefix = exports.revisionLocatorKey = exports.revisionKey = exports.revisionsPrefix = exports.activeKey = exports.skillPrefix = exports.skillsPrefix = exports.scopePrefix = void 0;
exports.checkedScopeKey = checkedScopeKey;
exports.sortableTime = sortableTime;
exports.payloadKey = payloadKey;
const core_1 = require("../../core");
const errors_1 = require("./errors");
/**
 * Every object key of the bucket (DESIGN.md "Object storage layout"). Each untrusted id
 * passes through `safeSegment`, and scope keys are checked to be one of the three shapes
 * `scopeKey()` produces, so no id can reach outside its prefix.
 */
const SHA256_HEX = /^[0-9a-f]{64}$/;
function checkedScopeKey(scopeKey) {
    const parts = scopeKey.split('/');
    const ok = (parts.length === 1 && parts[0] === 'global') ||
        (parts.length === 2 && parts[0] === 'apps' && (0, core_1.isSafeSegment)(parts[1])) ||
        (parts.length === 3 && parts[0] === 'users' && (0, core_1.isSafeSegment)(parts[1]) && (0, core_1.isSafeSegment)(parts[2]));
    if (!ok)
        throw new errors_1.InvalidStorageRequestError(`not a scope key: ${JSON.stringify(scopeKey)} (expected global, apps/{app} or users/{app}/{user})`);
    return scopeKey;
}
/**
 * Fixed-width UTC time for key prefixes, e.g. `2026-11-29T21-14-00.123Z`: lexical order
 * is time order (colons become dashes; they are awkward in keys and file names).
 */
function sortableTime(at) {
    const ms = Date.parse(at);
    const iso = Number.isNaN(ms) ? '' : new Date(ms).toISOString();
    if (iso.length !== 24)
        throw new errors_1.InvalidStorageRequestError(`not a usable timestamp for a key: ${JSON.stringify(at)}`);
    return iso.replaceAll(':', '-');
}
const scopePrefix = (scopeKey) => `scopes/${checkedScopeKey(scopeKey)}/`;
exports.scopePrefix = scopePrefix;
const skillsPrefix = (scopeKey) => `${(0, exports.scopePrefix)(scopeKey)}skills/`;
exports.skillsPrefix = skillsPrefix;
const skillPrefix = (scopeKey, skillId) => `${(0, exports.skillsPrefix)(scopeKey)}${(0, core_1.safeSegment)(skillId)}/`;
exports.skillPrefix = skillPrefix;
const activeKey = (scopeKey, skillId) => `${(0, exports.skillPrefix)(scopeKey, skillId)}active.json`;
exports.activeKey = activeKey;
const revisionsPrefix = (scopeKey, skillId) => `${(0, exports.skillPrefix)(scopeKey, skillId)}revisions/`;
exports.revisionsPrefix = revisionsPrefix;
const revisionKey = (scopeKey, skillId, revisionId) => `${(0, exports.revisionsPrefix)(scopeKey, skillId)}${(0, core_1.safeSegment)(revisionId)}.json`;
exports.revisionKey = revisionKey;
/** Global locator: revision ids are unique across scopes, so a bare id finds its revision. */
const revisionLocatorKey = (revisionId) => `revisions-by-id/${(0, core_1.safeSegment)(revisionId)}.json`;
exports.revisionLocatorKey = revisionLocatorKey;
const auditPrefix = (scopeKey, skillId) => `${(0, exports.skillPrefix)(scopeKey, skillId)}audit/`;
exports.auditPrefix = auditPrefix;
const auditKey = (scopeKey, skillId, at, eventId) => `${(0, exports.auditPrefix)(scopeKey, skillId)}${sortableTime(at)}-${(0, core_1.safeSegment)(eventId)}.json`;
exports.auditKey = auditKey;
const publishedKey = (scopeKey, skillId) => `${(0, exports.scopePrefix)(scopeKey)}published/${(0, core_1.safeSegment)(skillId)}/SKILL.md`;
exports.publishedKey = publishedKey;
const scopeIndexKey = (scopeKey) => `${(0, exports.scopePrefix)(scopeKey)}index.json`;
exports.scopeIndexKey = scopeIndexKey;
const cursorKey = (scopeKey, sessionId) => `${(0, exports.scopePrefix)(scopeKey)}sessions/${(0, core_1.safeSegment)(sessionId)}/cursor.json`;
exports.cursorKey = cursorKey;
/** Failed reviews of one delta of a session (poison-delta quarantine); the fingerprint is a safe segment. */
const reviewFailuresKey = (scopeKey, sessionId, fingerprint) => `${(0, exports.scopePrefix)(scopeKey)}sessions/${(0, core_1.safeSegment)(sessionId)}/review-failures/${(0, core_1.safeSegment)(fingerprint)}.json`;
exports.reviewFailuresKey = reviewFailuresKey;
const jobOutcomesPrefix = (scopeKey) => `${(0, exports.scopePrefix)(scopeKey)}jobs/`;
exports.jobOutcomesPrefix = jobOutcomesPrefix;
/** The job id contains slashes, so it becomes a hashed segment. */
const jobOutcomeKey = (scopeKey, jobId) => `${(0, exports.jobOutcomesPrefix)(scopeKey)}${(0, core_1.safeSegment)(jobId)}.json`;
exports.jobOutcomeKey = jobOutcomeKey;
const experimentPrefix = (experimentId) => `experiments/${(0, core_1.safeSegment)(experimentId)}/`;
exports.experimentPrefix = experimentPrefix;
const experimentKey = (experimentId) => `${(0, exports.experimentPrefix)(experimentId)}experiment.json`;
exports.experimentKey = experimentKey;
const experimentRecordsPrefix = (experimentId) => `${(0, exports.experimentPrefix)(experimentId)}records/`;
exports.experimentRecordsPrefix = experimentRecordsPrefix;
const experimentRecordKey = (experimentId, recordId) => `${(0, exports.experimentRecordsPrefix)(experimentId)}${(0, core_1.safeSegment)(recordId)}.json`;
exports.experimentRecordKey = experimentRecordKey;
const datasetKey = (datasetId, version) => `datasets/${(0, core_1.safeSegment)(datasetId)}/${(0, core_1.safeSegment)(version)}.json`;
exports.datasetKey = datasetKey;
function payloadKey(sha256) {
    if (!SHA256_HEX.test(sha256))
        throw new errors_1.InvalidStorageRequestError(`not a sha256 payload reference: ${JSON.stringify(sha256)}`);
    return `payloads/${sha256}`;
}
//# sourceMappingURL=keys.js.map