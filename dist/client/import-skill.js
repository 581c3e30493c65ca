"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.importUnmanagedSkill = importUnmanagedSkill;
const core_1 = require("../core");
const errors_1 = require("./errors");
/**
 * Publishes a hand-written SKILL.md as an UNMANAGED skill: agents load it and the
 * reviewer sees it (for dedup), but evolution never updates or deletes it.
 */
async function importUnmanagedSkill(store, scope, markdown, at = new Date().toISOString()) {
    let spec;
    try {
        spec = (0, core_1.parseSkillMarkdown)(markdown);
    }
    catch (e) {
        throw new errors_1.InputError(`not a valid SKILL.md: ${e.message}`);
    }
    const key = (0, core_1.scopeKey)(scope);
    const skillId = (0, core_1.skillIdForName)(spec.name);
    const current = await store.readActive(key, skillId);
    if (current?.pointer.managed)
        throw new errors_1.StateError(`skill ${skillId} is managed by evolution in ${key}; an import would take it out of governance`);
    const revisionId = `external-${(0, core_1.sha256Hex)(markdown).slice(0, 24)}`;
    await store.writeActive(key, skillId, { skillId, revisionId, spec, publishedAt: at, managed: false }, current?.etag ?? null);
    await store.writePublished(key, skillId, markdown);
    await store.rebuildScopeIndex(key);
    return { scopeKey: key, skillId, revisionId, name: spec.name };
}
//# sourceMappingURL=import-skill.js.map