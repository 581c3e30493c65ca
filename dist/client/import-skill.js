"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.importUnmanagedSkill = importUnmanagedSkill;
const core_1 = require("../core");
const publisher_1 = require("../activities/publisher");
const storage_1 = require("../activities/storage");
const errors_1 = require("./errors");
/**
 * Publishes a hand-written SKILL.md as an UNMANAGED skill: agents load it and the
 * reviewer sees it (for dedup), but evolution never updates or deletes it. It moves the
 * pointer through the publisher like every other operation (operation id: the scope,
 * skill and content, so importing the same file twice is one operation), then updates
 * the index and SKILL.md itself (a CLI has no worker); the scope's index workflow merges
 * by pointer seq, so the two writers converge.
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
    const digest = (0, core_1.sha256Hex)(markdown).slice(0, 24);
    const revisionId = `external-${digest}`;
    const opId = `import/${key}/${skillId}/${digest}`;
    const result = await (0, publisher_1.movePointer)(store, {
        scopeKey: key, skillId, opId, at, actor: 'import', reason: `imported ${spec.name}`, action: 'import',
        target: { skillId, revisionId, managed: false, spec, deleted: false },
    });
    const now = await store.readActive(key, skillId);
    if (now) {
        const applied = await store.applyScopeIndexChanges(key, [(0, storage_1.indexChangeFor)(now.pointer)]);
        if (applied.length && now.pointer.revisionId === revisionId)
            await store.writePublished(key, skillId, markdown);
    }
    return { scopeKey: key, skillId, revisionId, name: spec.name, auditId: (0, core_1.auditEventId)(opId, 'import'), applied: result.kind === 'applied' };
}
//# sourceMappingURL=import-skill.js.map