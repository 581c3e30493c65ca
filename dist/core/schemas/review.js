"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExistingSkillSchema = exports.ReviewDecisionSchema = exports.SkillUpdateSchema = exports.ProposedSkillSchema = void 0;
const zod_1 = require("zod");
/**
 * A skill as the reviewer may write it: plain strings, no emptiness rules, because
 * normalizeReviewDecision (core/learning/review-decision.ts) decides what a blank
 * field means (a quiet drop or an invalid answer), as the reference does.
 */
exports.ProposedSkillSchema = zod_1.z.object({
    name: zod_1.z.string().max(200, 'skill name is longer than 200 characters'),
    description: zod_1.z.string().max(4000),
    when_to_use: zod_1.z.string().max(4000),
    steps: zod_1.z.array(zod_1.z.string().max(4000)).max(100),
    pitfalls: zod_1.z.array(zod_1.z.string().max(4000)).max(100).default([]),
});
exports.SkillUpdateSchema = zod_1.z.object({
    name: zod_1.z.string().max(200),
    new_spec: exports.ProposedSkillSchema,
    reason: zod_1.z.string().max(2000).default(''),
});
/**
 * The reviewer's structured answer (the model's response format). Either a skip with
 * its reason, or any mix of new skills, full replacements of existing ones, and
 * deletions by name. Only a normalized answer (trimmed, blanks dropped) is acted on.
 */
exports.ReviewDecisionSchema = zod_1.z.object({
    skip_reason: zod_1.z.string().max(2000).default(''),
    creates: zod_1.z.array(exports.ProposedSkillSchema).default([]),
    updates: zod_1.z.array(exports.SkillUpdateSchema).default([]),
    deletions: zod_1.z.array(zod_1.z.string().max(200)).default([]),
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