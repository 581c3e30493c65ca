"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HumanGatePolicySchema = exports.CustomHumanGatePolicySchema = void 0;
const zod_1 = require("zod");
const revision_1 = require("../../schemas/revision");
/** The human gate's policy as data (configuration and workflow inputs validate it with these). */
exports.CustomHumanGatePolicySchema = zod_1.z
    .object({
    holdActions: zod_1.z.array(revision_1.RevisionActionSchema).optional(),
    holdSources: zod_1.z.array(revision_1.RevisionSourceSchema).optional(),
    /** JavaScript regular expression matched against the skill name. */
    holdNamePattern: zod_1.z.string().max(500).optional(),
})
    .strict();
exports.HumanGatePolicySchema = zod_1.z.union([zod_1.z.enum(['none', 'create_only', 'always']), exports.CustomHumanGatePolicySchema]);
//# sourceMappingURL=human-policy.js.map