"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SkillSpecSchema = exports.SkillComponentSchema = exports.SKILL_COMPONENTS = void 0;
const zod_1 = require("zod");
/** The four parts of a skill that reflection may edit, in GEPA round-robin order. */
exports.SKILL_COMPONENTS = ['steps', 'pitfalls', 'when_to_use', 'description'];
exports.SkillComponentSchema = zod_1.z.enum(exports.SKILL_COMPONENTS);
/**
 * A reusable method. Field names follow the SKILL.md contract of the reference
 * articles (snake_case `when_to_use`), because this object is also the LLM's
 * structured-output contract and the published document.
 */
exports.SkillSpecSchema = zod_1.z.object({
    name: zod_1.z.string().trim().min(1, 'skill name must not be empty').max(200, 'skill name is longer than 200 characters'),
    description: zod_1.z.string().max(4000),
    when_to_use: zod_1.z.string().max(4000),
    steps: zod_1.z.array(zod_1.z.string().max(4000)).max(100),
    pitfalls: zod_1.z.array(zod_1.z.string().max(4000)).max(100).default([]),
});
//# sourceMappingURL=skill.js.map