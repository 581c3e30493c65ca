import { cohortOf, isLivePointer, renderSkillMarkdown, scopeKey as scopeKeyOf, type Scope, type SkillSpec } from '../core';
import type { ScopeIndexEntry, SkillStore } from '../storage';
import { NotFoundError, serviceUnavailable, ServiceUnavailableError } from '../core/errors';
import { isTransientServiceError } from '../storage/network-errors';
import { withStorageDeadline } from '../storage/client-deadline';
import { clientTimeoutMs } from './client-timeout';

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
  /** Its structured form (what an experiment request takes as `seed`), managed or imported alike. */
  spec: SkillSpec;
}

interface ScopeCache {
  etag?: string;
  skills: ScopeIndexEntry[];
  /** When this index was last confirmed current (a 200 or a 304). */
  confirmedAt: number;
}

/** How current what the repository serves is. */
export interface RepositoryFreshness {
  /** True when the last refresh failed and the last good index is being served. */
  stale: boolean;
  /** Milliseconds since every scope's index was last confirmed current (undefined before the first success). */
  ageMs?: number;
  /** Why the last refresh failed, when stale. */
  lastError?: string;
}

/** A skill body that was never loaded, while the skill store cannot be reached. */
export class SkillUnavailableError extends Error {
  override name = 'SkillUnavailableError';
}

/** Shared by a repository and its per-session views (`forSession`): one index cache, one body cache. */
interface RepositoryState {
  cache: Map<string, ScopeCache>;
  bodies: Map<string, { markdown: string; spec: SkillSpec }>; // by revisionId
  loaded: boolean;
  lastError?: string;
}

export interface SkillRepositoryOptions {
  /**
   * The agent session this repository serves. Under a staged rollout (a canary), a session
   * in the candidate cohort (a hash of this id, core/rollout `cohortOf`) is given the
   * candidate revision; without a session id, always the stable one.
   */
  sessionId?: string;
  /**
   * How long one read of the store may take before it counts as S3 not answering (a hung or
   * stopped server): the client deadline, default EVOLUTION_CLIENT_CONNECT_TIMEOUT, else 10 s.
   */
  clientTimeoutMs?: number;
}

/**
 * What an agent sees: the published skills of its scopes (most specific first, e.g. the
 * user's, then the app's, then global; a name found earlier wins). Reads only published
 * state, so candidates and held revisions are invisible until publication.
 * `refresh()` costs one conditional GET per scope (304 when nothing was published).
 *
 * Stale-while-error: when the store cannot be reached (or does not answer a read within the
 * client deadline, `clientTimeoutMs`), `refresh()` keeps the last good index (see
 * `freshness()` for its age) and `load()` serves bodies already loaded, so an agent keeps
 * working through a storage outage and catches up by itself when it ends.
 */
export class SkillRepository {
  private readonly scopeKeys: string[];
  private readonly state: RepositoryState;
  private readonly sessionId?: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly store: SkillStore,
    private readonly scopes: Scope | Scope[],
    options: SkillRepositoryOptions = {},
    shared?: RepositoryState,
  ) {
    this.scopeKeys = (Array.isArray(scopes) ? scopes : [scopes]).map(scopeKeyOf);
    this.sessionId = options.sessionId;
    this.timeoutMs = options.clientTimeoutMs ?? clientTimeoutMs();
    this.state = shared ?? { cache: new Map(), bodies: new Map(), loaded: false };
  }

  /**
   * The same repository for one agent session (shares the caches: no extra request): which
   * revision a skill under a canary resolves to depends on the session's cohort.
   */
  forSession(sessionId: string): SkillRepository {
    return new SkillRepository(this.store, this.scopes, { sessionId, clientTimeoutMs: this.timeoutMs }, this.state);
  }

  private get cache() {
    return this.state.cache;
  }

  private get bodies() {
    return this.state.bodies;
  }

  private get loaded() {
    return this.state.loaded;
  }

  private set loaded(value: boolean) {
    this.state.loaded = value;
  }

  private get lastError() {
    return this.state.lastError;
  }

  private set lastError(value: string | undefined) {
    this.state.lastError = value;
  }

  /** Whether this repository's session is in the candidate cohort of a canary. */
  private inCandidateCohort(canary: { revisionId: string; fraction: number } | undefined): boolean {
    return canary !== undefined && this.sessionId !== undefined && cohortOf(this.sessionId, canary) === 'candidate';
  }

  /**
   * Re-reads each scope's index if it changed. Returns true when anything changed.
   * When the store fails, keeps serving the last good index (nothing changed); only a
   * repository that never read its index throws (`ServiceUnavailableError`).
   */
  refresh(): Promise<boolean> {
    // Each read under the client deadline: a store that does not answer is an outage, in bounded time.
    return withStorageDeadline({ requestMs: this.timeoutMs }, () => this.refreshIndexes());
  }

  private async refreshIndexes(): Promise<boolean> {
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
        const next: ScopeCache = read && !read.notModified ? { etag: read.etag, skills: read.index.skills, confirmedAt } : { skills: [], confirmedAt };
        if (!cached || cached.etag !== next.etag) changed = true;
        this.cache.set(key, next);
      }
    } catch (e) {
      if (!this.loaded) {
        if (e instanceof ServiceUnavailableError || !isTransientServiceError(e)) throw e;
        throw serviceUnavailable('s3', addressOf(e), { detail: describe(e), cause: e });
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
  freshness(): RepositoryFreshness {
    const confirmed = this.scopeKeys.map((k) => this.cache.get(k)?.confirmedAt);
    const oldest = confirmed.every((t): t is number => t !== undefined) ? Math.min(...confirmed) : undefined;
    return { stale: this.lastError !== undefined, ageMs: oldest === undefined ? undefined : Date.now() - oldest, ...(this.lastError ? { lastError: this.lastError } : {}) };
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
        const offered = this.inCandidateCohort(s.canary) ? s.canary! : s;
        out.push({ name: offered.name, description: offered.description, skillId: s.skillId, revisionId: offered.revisionId, scopeKey: key });
      }
    }
    return out;
  }

  /**
   * The SKILL.md of one skill, by name (case-insensitive) or skill id: rendered from the
   * active pointer, the one source of truth (one GET, then cached by revision).
   */
  async load(nameOrId: string): Promise<LoadedSkill> {
    const wanted = nameOrId.trim().toLowerCase();
    const summary = (await this.list()).find((s) => s.name.toLowerCase() === wanted || s.skillId === nameOrId);
    if (!summary) throw new NotFoundError(`no published skill named "${nameOrId}"`);
    const cached = this.bodies.get(summary.revisionId);
    if (cached) return { ...summary, ...cached };
    let active: Awaited<ReturnType<SkillStore['readActive']>>;
    try {
      active = await withStorageDeadline({ requestMs: this.timeoutMs }, () => this.store.readActive(summary.scopeKey, summary.skillId));
    } catch (e) {
      this.lastError = describe(e);
      const why = e instanceof ServiceUnavailableError ? e.message : serviceUnavailable('s3', addressOf(e), { detail: this.lastError }).message;
      throw new SkillUnavailableError(`skill "${summary.name}" is temporarily unavailable: ${why}`, { cause: e });
    }
    // The index may be a burst behind the pointer: the pointer wins (its canary too).
    const pointer = active?.pointer;
    if (!isLivePointer(pointer)) throw new NotFoundError(`skill "${nameOrId}" is no longer published`);
    const given = this.inCandidateCohort(pointer.canary)
      ? { revisionId: pointer.canary!.revisionId, spec: pointer.canary!.spec }
      : { revisionId: pointer.revisionId, spec: pointer.spec };
    const body = { markdown: renderSkillMarkdown(given.spec), spec: given.spec };
    this.bodies.set(given.revisionId, body);
    return { ...summary, name: given.spec.name, description: given.spec.description, revisionId: given.revisionId, ...body };
  }
}

function describe(e: unknown): string {
  if (e instanceof ServiceUnavailableError) return e.message.slice(0, 300);
  const err = e as { name?: string; code?: string; message?: string };
  return (err.code ?? [err.name, err.message].filter(Boolean).join(': ')).slice(0, 200);
}

/** host:port of a failed connection, from the Node network error (the SDK keeps it). */
function addressOf(e: unknown): string {
  const err = e as { address?: string; port?: number };
  return err.address ? `${err.address}${err.port ? `:${err.port}` : ''}` : 'its configured endpoint';
}
