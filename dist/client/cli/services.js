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
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.withServices = withServices;
exports.storeOnly = storeOnly;
// The Temporal client and the S3 SDK are loaded when a command first needs them, so
// `evolution help` and commands that need neither start fast.
/** Opens what a command needs and closes it afterwards. */
async function withServices(ctx, fn) {
    const config = ctx.config();
    const { ensureReachable } = await Promise.resolve().then(() => __importStar(require('../reachability')));
    await ensureReachable(config, ['temporal', 's3']);
    const { connectTemporal } = await Promise.resolve().then(() => __importStar(require('../connection')));
    const { createSkillStore } = await Promise.resolve().then(() => __importStar(require('../../activities/storage')));
    const temporal = await connectTemporal(config);
    try {
        return await fn({ temporal, store: createSkillStore(config.s3) });
    }
    finally {
        await temporal.close();
    }
}
async function storeOnly(ctx) {
    const { createSkillStore } = await Promise.resolve().then(() => __importStar(require('../../activities/storage')));
    return createSkillStore(ctx.config().s3);
}
//# sourceMappingURL=services.js.map