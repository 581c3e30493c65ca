"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadExistingSkills = loadExistingSkills;
const core_1 = require("../core");
const storage_1 = require("./storage");
/** Every live skill of a scope as the reviewer and reconciler see it (managed or not). */
async function loadExistingSkills(store, scopeKey) {
    const ids = await store.listSkillIds(scopeKey);
    const pointers = await (0, storage_1.mapLimit)(ids, 8, (id) => store.readActive(scopeKey, id));
    return pointers
        .map((p) => p?.pointer)
        .filter(core_1.isLivePointer)
        .map((p) => ({
        name: p.spec.name,
        description: p.spec.description,
        bodyExcerpt: (0, core_1.renderSkillMarkdown)(p.spec),
        managed: p.managed,
        skillId: p.skillId,
        revisionId: p.revisionId,
    }));
}
//# sourceMappingURL=existing-skills.js.map