"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.existingSkillsOf = existingSkillsOf;
/**
 * Every live skill of a scope as the reviewer and reconciler see it (managed or not),
 * from the scope index: one object, whatever the number of skills. Bodies are not in the
 * index; the reviewer decides from names and descriptions.
 */
function existingSkillsOf(index) {
    return (index?.skills ?? []).map((s) => ({ name: s.name, description: s.description, bodyExcerpt: '', managed: s.managed, skillId: s.skillId, revisionId: s.revisionId }));
}
//# sourceMappingURL=existing-skills.js.map