import { isLivePointer, renderSkillMarkdown, scopeKey as scopeKeyOf, type Scope } from '../core';
import type { ScopeIndexEntry, SkillStore } from '../activities/storage';
import { NotFoundError } from './errors';

export interface SkillSummary {
  name: string;
  description: string;
  skillId: string;
  revisionId: string;
  scopeKey: string;
}

export interface LoadedSkill extends SkillSummary {
  /** The published SKILL.md. */
  markdown: string;
}

interface ScopeCache {
  etag?: string;
  skills: ScopeIndexEntry[];
}

/**
 * What an agent sees: the published skills of its scopes (most specific first, e.g. the
 * user's, then the app's, then global; a name found earlier wins). Reads only published
 * state, so candidates and held revisions are invisible until publication.
 * `refresh()` costs one conditional GET per scope (304 when nothing was published).
 */
export class SkillRepository {
  private readonly scopeKeys: string[];
  private readonly cache = new Map<string, ScopeCache>();
  private readonly bodies = new Map<string, string>(); // revisionId → SKILL.md
  private loaded = false;

  constructor(private readonly store: SkillStore, scopes: Scope | Scope[]) {
    this.scopeKeys = (Array.isArray(scopes) ? scopes : [scopes]).map(scopeKeyOf);
  }

  /** Re-reads each scope's index if it changed. Returns true when anything changed. */
  async refresh(): Promise<boolean> {
    let changed = false;
    for (const key of this.scopeKeys) {
      const cached = this.cache.get(key);
      const read = await this.store.readScopeIndex(key, cached?.etag);
      if (read?.notModified) continue;
      const next: ScopeCache = read ? { etag: read.etag, skills: read.index.skills } : { skills: [] };
      if (!cached || cached.etag !== next.etag) changed = true;
      this.cache.set(key, next);
    }
    this.loaded = true;
    return changed;
  }

  /** Name and description of every published skill (the index an agent puts in its prompt). */
  async list(): Promise<SkillSummary[]> {
    if (!this.loaded) await this.refresh();
    const seen = new Set<string>();
    const out: SkillSummary[] = [];
    for (const key of this.scopeKeys) {
      for (const s of this.cache.get(key)?.skills ?? []) {
        const k = s.name.toLowerCase();
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({ name: s.name, description: s.description, skillId: s.skillId, revisionId: s.revisionId, scopeKey: key });
      }
    }
    return out;
  }

  /** The full SKILL.md of one skill, by name (case-insensitive) or skill id. */
  async load(nameOrId: string): Promise<LoadedSkill> {
    const wanted = nameOrId.trim().toLowerCase();
    const summary = (await this.list()).find((s) => s.name.toLowerCase() === wanted || s.skillId === nameOrId);
    if (!summary) throw new NotFoundError(`no published skill named "${nameOrId}"`);
    const cached = this.bodies.get(summary.revisionId);
    if (cached) return { ...summary, markdown: cached };
    const published = await this.store.readPublished(summary.scopeKey, summary.skillId);
    let markdown = published && !published.notModified ? published.markdown : undefined;
    // SKILL.md is derived; if it is missing or behind, the pointer is the truth.
    const pointer = (await this.store.readActive(summary.scopeKey, summary.skillId))?.pointer;
    if (!isLivePointer(pointer)) throw new NotFoundError(`skill "${nameOrId}" is no longer published`);
    const expected = renderSkillMarkdown(pointer.spec);
    if (markdown !== expected) markdown = expected;
    this.bodies.set(pointer.revisionId, markdown);
    return { ...summary, revisionId: pointer.revisionId, markdown };
  }
}
