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
exports.approvalCommands = void 0;
const args_1 = require("../args");
const format_1 = require("../format");
const scope_flags_1 = require("../scope-flags");
const services_1 = require("../services");
async function decide(ctx, decision) {
    const revisionId = (0, args_1.positional)(ctx.args, 0, 'REVISION_ID');
    const reviewer = (0, args_1.requiredFlag)(ctx.args, 'reviewer');
    const { decideRevision } = await Promise.resolve().then(() => __importStar(require('../../approvals')));
    return (0, services_1.withServices)(ctx, async ({ temporal, store }) => {
        const result = await decideRevision({ client: temporal.client, store }, revisionId, { decision, reviewer, comment: (0, args_1.flag)(ctx.args, 'comment') });
        ctx.out(result, `${revisionId}: ${result.decision} by ${result.reviewer}; status now ${result.finalStatus}`);
    });
}
exports.approvalCommands = {
    pending: {
        usage: 'pending [--app A] [--user U] [--scope none|app|user]',
        summary: 'list revisions waiting for approval (or evaluation) in a scope',
        run: async (ctx) => {
            const { listPending } = await Promise.resolve().then(() => __importStar(require('../../approvals')));
            const revisions = await listPending(await (0, services_1.storeOnly)(ctx), (0, scope_flags_1.scopeKeyFromFlags)(ctx.args));
            ctx.out(revisions, () => (revisions.length ? revisions.map(format_1.revisionLine).join('\n') : 'nothing pending'));
        },
    },
    show: {
        usage: 'show REVISION_ID',
        summary: 'a revision with its gate reports and its diff against the active one',
        run: async (ctx) => {
            const { showRevision } = await Promise.resolve().then(() => __importStar(require('../../approvals')));
            const view = await showRevision(await (0, services_1.storeOnly)(ctx), (0, args_1.positional)(ctx.args, 0, 'REVISION_ID'));
            ctx.out(view, () => `${(0, format_1.revisionDetails)(view.revision)}\n\ndiff against ${view.activeRevisionId ?? 'nothing published'}:\n${view.diff}`);
        },
    },
    approve: { usage: 'approve REVISION_ID --reviewer R [--comment C]', summary: 'approve a held revision (publishes it)', run: (ctx) => decide(ctx, 'approve') },
    reject: { usage: 'reject REVISION_ID --reviewer R [--comment C]', summary: 'reject a held revision', run: (ctx) => decide(ctx, 'reject') },
    rollback: {
        usage: 'rollback SKILL_ID [--revision REV] --reviewer R [--comment C] [--app A] [--user U] [--scope …]',
        summary: 'restore the latest archived (or the given) revision of a skill',
        run: async (ctx) => {
            const skillId = (0, args_1.positional)(ctx.args, 0, 'SKILL_ID');
            const reviewer = (0, args_1.requiredFlag)(ctx.args, 'reviewer');
            const { rollbackSkill } = await Promise.resolve().then(() => __importStar(require('../../rollback')));
            return (0, services_1.withServices)(ctx, async ({ temporal }) => {
                const r = await rollbackSkill({ client: temporal.client, config: ctx.config() }, { scopeKey: (0, scope_flags_1.scopeKeyFromFlags)(ctx.args), skillId, targetRevisionId: (0, args_1.flag)(ctx.args, 'revision'), reviewer, comment: (0, args_1.flag)(ctx.args, 'comment') });
                ctx.out(r, `${skillId}: ${r.restoredRevisionId} is active again${r.archivedRevisionId ? `; ${r.archivedRevisionId} archived` : ''}`);
            });
        },
    },
};
//# sourceMappingURL=approvals.js.map