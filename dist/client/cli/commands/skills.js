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
exports.skillCommands = void 0;
const node_fs_1 = require("node:fs");
const args_1 = require("../args");
const scope_flags_1 = require("../scope-flags");
const services_1 = require("../services");
exports.skillCommands = {
    skills: {
        usage: 'skills [--app A] [--user U] [--scope none|app|user]',
        summary: 'the published skills agents of a scope see now (name and description)',
        run: async (ctx) => {
            const { SkillRepository } = await Promise.resolve().then(() => __importStar(require('../../skill-repository')));
            const skills = await new SkillRepository(await (0, services_1.storeOnly)(ctx), (0, scope_flags_1.scopeFromFlags)(ctx.args)).list();
            ctx.out(skills, () => (skills.length ? skills.map((s) => `${s.name}  (${s.revisionId})\n    ${s.description}`).join('\n') : 'no published skills'));
        },
    },
    skill: {
        usage: 'skill NAME [--app A] [--user U] [--scope …]',
        summary: 'the SKILL.md an agent loads for one skill',
        run: async (ctx) => {
            const { SkillRepository } = await Promise.resolve().then(() => __importStar(require('../../skill-repository')));
            const skill = await new SkillRepository(await (0, services_1.storeOnly)(ctx), (0, scope_flags_1.scopeFromFlags)(ctx.args)).load((0, args_1.positional)(ctx.args, 0, 'NAME'));
            ctx.out(skill, skill.markdown);
        },
    },
    'import-skill': {
        usage: 'import-skill FILE [--app A] [--user U] [--scope …]',
        summary: 'publish a hand-written SKILL.md as an unmanaged skill (visible, never modified by evolution)',
        run: async (ctx) => {
            const file = (0, args_1.positional)(ctx.args, 0, 'FILE');
            const { importUnmanagedSkill } = await Promise.resolve().then(() => __importStar(require('../../import-skill')));
            const r = await importUnmanagedSkill(await (0, services_1.storeOnly)(ctx), (0, scope_flags_1.scopeFromFlags)(ctx.args), (0, node_fs_1.readFileSync)(file, 'utf8'));
            ctx.out(r, `imported "${r.name}" as unmanaged skill ${r.skillId} in ${r.scopeKey}`);
        },
    },
    metrics: {
        usage: 'metrics [--app A] [--user U] [--scope …]',
        summary: 'governance counters of a scope (candidates, revisions, promoted, rejected, held, shadow)',
        run: async (ctx) => {
            const { scopeMetrics } = await Promise.resolve().then(() => __importStar(require('../../metrics')));
            const m = await scopeMetrics(await (0, services_1.storeOnly)(ctx), (0, scope_flags_1.scopeKeyFromFlags)(ctx.args));
            ctx.out(m, () => Object.entries(m).map(([k, v]) => `${k.padEnd(20)} ${v}`).join('\n'));
        },
    },
};
//# sourceMappingURL=skills.js.map