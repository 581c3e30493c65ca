"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SkillRepository = exports.SkillUnavailableError = void 0;
const core_1 = require("../core");
const errors_1 = require("./errors");
const reachability_1 = require("./reachability");
/** A skill body that was never loaded, while the skill store cannot be reached. */
class SkillUnavailableError extends Error {
    name = 'SkillUnavailableError';
}
exports.SkillUnavailableError = SkillUnavailableError;
/**
 * What an agent sees: the published skills of its scopes (most specific first, e.g. the
 * user's, then the app's, then global; a name found earlier wins). Reads only published
 * state, so candidates and held revisions are invisible until publication.
 * `refresh()` costs one conditional GET per scope (304 when nothing was published).
 *
 * Stale-while-error: when the store cannot be reached, `refresh()` keeps the last good
 * index (see `freshness()` for its age) and `load()` serves bodies already loaded, so an
 * agent keeps working through a storage outage and catches up by itself when it ends.
 */
class SkillRepository {
    store;
    scopeKeys;
    cache = new Map();
    bodies = new Map(); // by revisionId
    loaded = false;
    lastError;
    constructor(store, scopes) {
        this.store = store;
        this.scopeKeys = (Array.isArray(scopes) ? scopes : [scopes]).map(core_1.scopeKey);
    }
    /**
     * Re-reads each scope's index if it changed. Returns true when anything changed.
     * When the store fails, keeps serving the last good index (nothing changed); only a
     * repository that never read its index throws (`ServiceUnavailableError`).
     */
    async refresh() {
        let changed = false;
        try {
            for (const key of this.scopeKeys) {
                const cached = this.cache.get(key);
                const read = await this.store.readScopeIndex(key, cached?.etag);
                const confirmedAt = Date.now();
                if (read?.notModified && cached) {
                    cached.confirmedAt = confirmedAt;
                    continue;
                }
                const next = read && !read.notModified ? { etag: read.etag, skills: read.index.skills, confirmedAt } : { skills: [], confirmedAt };
                if (!cached || cached.etag !== next.etag)
                    changed = true;
                this.cache.set(key, next);
            }
        }
        catch (e) {
            if (!this.loaded) {
                if (!(0, reachability_1.isTransientServiceError)(e))
                    throw e;
                throw new errors_1.ServiceUnavailableError('the skill store (S3)', addressOf(e), 'check S3_ENDPOINT, or run `npx evolution infra up` for the local services', { detail: describe(e), cause: e });
            }
            // Stale-while-error: keep serving what was last read (scopes read before the failure are fresh).
            this.lastError = describe(e);
            return changed;
        }
        this.loaded = true;
        this.lastError = undefined;
        return changed;
    }
    /** Whether the index being served is current, and how old it is. */
    freshness() {
        const confirmed = this.scopeKeys.map((k) => this.cache.get(k)?.confirmedAt);
        const oldest = confirmed.every((t) => t !== undefined) ? Math.min(...confirmed) : undefined;
        return { stale: this.lastError !== undefined, ageMs: oldest === undefined ? undefined : Date.now() - oldest, ...(this.lastError ? { lastError: this.lastError } : {}) };
    }
    /** Name and description of every published skill (the index an agent puts in its prompt). */
    async list() {
        if (!this.loaded)
            await this.refresh();
        const seen = new Set();
        const out = [];
        for (const key of this.scopeKeys) {
            for (const s of this.cache.get(key)?.skills ?? []) {
                const k = s.name.toLowerCase();
                if (seen.has(k))
                    continue;
                seen.add(k);
                out.push({ name: s.name, description: s.description, skillId: s.skillId, revisionId: s.revisionId, scopeKey: key });
            }
        }
        return out;
    }
    /** The full SKILL.md of one skill, by name (case-insensitive) or skill id. */
    async load(nameOrId) {
        const wanted = nameOrId.trim().toLowerCase();
        const summary = (await this.list()).find((s) => s.name.toLowerCase() === wanted || s.skillId === nameOrId);
        if (!summary)
            throw new errors_1.NotFoundError(`no published skill named "${nameOrId}"`);
        const cached = this.bodies.get(summary.revisionId);
        if (cached)
            return { ...summary, ...cached };
        let published;
        let active;
        try {
            published = await this.store.readPublished(summary.scopeKey, summary.skillId);
            active = await this.store.readActive(summary.scopeKey, summary.skillId);
        }
        catch (e) {
            this.lastError = describe(e);
            throw new SkillUnavailableError(`skill "${summary.name}" is temporarily unavailable: the skill store cannot be reached (${this.lastError})`, { cause: e });
        }
        let markdown = published && !published.notModified ? published.markdown : undefined;
        // SKILL.md is derived; if it is missing or behind, the pointer is the truth.
        const pointer = active?.pointer;
        if (!(0, core_1.isLivePointer)(pointer))
            throw new errors_1.NotFoundError(`skill "${nameOrId}" is no longer published`);
        const expected = (0, core_1.renderSkillMarkdown)(pointer.spec);
        if (markdown !== expected)
            markdown = expected;
        this.bodies.set(pointer.revisionId, { markdown, spec: pointer.spec });
        return { ...summary, revisionId: pointer.revisionId, markdown, spec: pointer.spec };
    }
}
exports.SkillRepository = SkillRepository;
function describe(e) {
    const err = e;
    return (err.code ?? [err.name, err.message].filter(Boolean).join(': ')).slice(0, 200);
}
/** host:port of a failed connection, from the Node network error (the SDK keeps it). */
function addressOf(e) {
    const err = e;
    return err.address ? `${err.address}${err.port ? `:${err.port}` : ''}` : 'its configured endpoint';
}
//# sourceMappingURL=skill-repository.js.map