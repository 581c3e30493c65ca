"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExistingSkillSchema = exports.ReviewDecisionSchema = exports.SkillUpdateSchema = void 0;
const zod_1 = require("zod");
const skill_1 = require("./skill");
exports.SkillUpdateSchema = zod_1.z.object({
    name: zod_1.z.string().min(1, 'update must name an existing skill'),
    new_spec: skill_1.SkillSpecSchema,
    reason: zod_1.z.string().max(2000).default(''),
});
/**
 * The reviewer's structured answer. Either a skip with its reason, or any mix of
 * new skills, full replacements of existing ones, and deletions by name.
 */
exports.ReviewDecisionSchema = zod_1.z.object({
    skip_reason: zod_1.z.string().max(2000).default(''),
    creates: zod_1.z.array(skill_1.SkillSpecSchema).default([]),
    updates: zod_1.z.array(exports.SkillUpdateSchema).default([]),
    deletions: zod_1.z.array(zod_1.z.string().min(1)).default([]),
});
/** What the reviewer sees of an existing skill (bounded body excerpt). */
exports.ExistingSkillSchema = zod_1.z.object({
    name: zod_1.z.string(),
    description: zod_1.z.string(),
    bodyExcerpt: zod_1.z.string().default(''),
    managed: zod_1.z.boolean(),
    skillId: zod_1.z.string(),
    revisionId: zod_1.z.string().optional(),
});
//# sourceMappingURL=review.js.map