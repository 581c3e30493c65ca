"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.mapLimit = exports.retryOnConflict = exports.StoredCursorSchema = exports.indexChangeFor = exports.ScopeIndexEntrySchema = exports.ScopeIndexSchema = exports.tombstonePointer = exports.MUTABLE_REVISION_FIELDS = exports.skillStoreOn = exports.createSkillStore = exports.parseJson = exports.createObjectStore = exports.createS3Client = void 0;
// Object storage on S3: conditional writes for everything that must not be lost or overwritten.
var s3_client_1 = require("./s3-client");
Object.defineProperty(exports, "createS3Client", { enumerable: true, get: function () { return s3_client_1.createS3Client; } });
__exportStar(require("./errors"), exports);
__exportStar(require("./keys"), exports);
var object_store_1 = require("./object-store");
Object.defineProperty(exports, "createObjectStore", { enumerable: true, get: function () { return object_store_1.createObjectStore; } });
Object.defineProperty(exports, "parseJson", { enumerable: true, get: function () { return object_store_1.parseJson; } });
var skill_store_1 = require("./skill-store");
Object.defineProperty(exports, "createSkillStore", { enumerable: true, get: function () { return skill_store_1.createSkillStore; } });
Object.defineProperty(exports, "skillStoreOn", { enumerable: true, get: function () { return skill_store_1.skillStoreOn; } });
var revision_store_1 = require("./revision-store");
Object.defineProperty(exports, "MUTABLE_REVISION_FIELDS", { enumerable: true, get: function () { return revision_store_1.MUTABLE_REVISION_FIELDS; } });
var pointer_store_1 = require("./pointer-store");
Object.defineProperty(exports, "tombstonePointer", { enumerable: true, get: function () { return pointer_store_1.tombstonePointer; } });
var scope_index_store_1 = require("./scope-index-store");
Object.defineProperty(exports, "ScopeIndexSchema", { enumerable: true, get: function () { return scope_index_store_1.ScopeIndexSchema; } });
Object.defineProperty(exports, "ScopeIndexEntrySchema", { enumerable: true, get: function () { return scope_index_store_1.ScopeIndexEntrySchema; } });
Object.defineProperty(exports, "indexChangeFor", { enumerable: true, get: function () { return scope_index_store_1.indexChangeFor; } });
var cursor_store_1 = require("./cursor-store");
Object.defineProperty(exports, "StoredCursorSchema", { enumerable: true, get: function () { return cursor_store_1.StoredCursorSchema; } });
var cas_retry_1 = require("./cas-retry");
Object.defineProperty(exports, "retryOnConflict", { enumerable: true, get: function () { return cas_retry_1.retryOnConflict; } });
var map_limit_1 = require("./map-limit");
Object.defineProperty(exports, "mapLimit", { enumerable: true, get: function () { return map_limit_1.mapLimit; } });
//# sourceMappingURL=index.js.map