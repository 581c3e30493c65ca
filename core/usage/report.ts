import type { OfferedSkill, OutcomeTally, RevisionUsage, SkillUsage, UsageSummary } from './summary';

/** Rates of one tally: undefined where there is nothing to divide by. */
export interface OutcomeRates {
  sessions: number;
  successRate?: number;
  meanScore?: number;
  meanTokens?: number;
}

export interface RevisionReport {
  revisionId: string;
  live: boolean;
  offered: number;
  loaded: number;
  loadRate?: number;
  with: OutcomeRates;
  without: OutcomeRates;
  firstSeenAt: string;
  lastLoadedAt?: string;
}

export interface SkillReport {
  skillId: string;
  name: string;
  scopeKey: string;
  /** Published in the scope index now. */
  live: boolean;
  liveRevisionId?: string;
  offered: number;
  loaded: number;
  loadRate?: number;
  with: OutcomeRates;
  without: OutcomeRates;
  lastLoadedAt?: string;
  /** Published, offered for the whole window, and not loaded in it. */
  unused: boolean;
  revisions: RevisionReport[];
}

export interface UsageReport {
  scopeKey: string;
  sessions: number;
  outcomes: OutcomeRates;
  windowDays: number;
  updatedAt?: string;
  skills: SkillReport[];
  /** Names of the skills flagged unused. */
  unused: string[];
}

export function rates(t: OutcomeTally): OutcomeRates {
  const judged = t.n - t.unknown;
  return {
    sessions: t.n,
    ...(judged > 0 ? { successRate: t.success / judged } : {}),
    ...(t.scored > 0 ? { meanScore: t.scoreSum / t.scored } : {}),
    ...(t.tokened > 0 ? { meanTokens: t.tokenSum / t.tokened } : {}),
  };
}

export function sumTallies(tallies: readonly OutcomeTally[]): OutcomeTally {
  const out: OutcomeTally = { n: 0, success: 0, partial: 0, fail: 0, agent_error: 0, unknown: 0, scoreSum: 0, scored: 0, tokenSum: 0, tokened: 0 };
  for (const t of tallies) for (const k of Object.keys(out) as (keyof OutcomeTally)[]) out[k] += t[k];
  return out;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Per skill: load rate and outcomes with and without it, per revision, and whether it is
 * unused: live in the index, first offered at least `windowMs` before `now`, and not loaded
 * since `now - windowMs`. `live`: the scope index's skills now (skills no longer published
 * are reported, never flagged).
 */
export function usageReport(summary: UsageSummary, live: readonly OfferedSkill[], { now, windowMs }: { now: number; windowMs: number }): UsageReport {
  const liveById = new Map(live.map((s) => [s.skillId, s]));
  const since = now - windowMs;
  const known = new Set(summary.skills.map((s) => s.skillId));
  // A live skill no session has been offered yet has no counters: listed with zeros, not flagged.
  const all: SkillUsage[] = [
    ...summary.skills,
    ...live.filter((s) => !known.has(s.skillId)).map((s) => ({ skillId: s.skillId, name: s.name, scopeKey: summary.scopeKey, revisions: [] })),
  ];
  const skills = all.map((s): SkillReport => {
    const current = liveById.get(s.skillId);
    const offered = s.revisions.reduce((n, r) => n + r.offered, 0);
    const loaded = s.revisions.reduce((n, r) => n + r.loaded, 0);
    const unused =
      current !== undefined && s.firstOfferedAt !== undefined && Date.parse(s.firstOfferedAt) <= since && (s.lastLoadedAt === undefined || Date.parse(s.lastLoadedAt) < since);
    return {
      skillId: s.skillId,
      name: current?.name ?? s.name,
      scopeKey: s.scopeKey,
      live: current !== undefined,
      ...(current ? { liveRevisionId: current.revisionId } : {}),
      offered,
      loaded,
      ...(offered > 0 ? { loadRate: loaded / offered } : {}),
      with: rates(sumTallies(s.revisions.map((r) => r.with))),
      without: rates(sumTallies(s.revisions.map((r) => r.without))),
      ...(s.lastLoadedAt ? { lastLoadedAt: s.lastLoadedAt } : {}),
      unused,
      revisions: s.revisions.map((r) => revisionReport(r, current?.revisionId)),
    };
  });
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    scopeKey: summary.scopeKey,
    sessions: summary.sessions,
    outcomes: rates(summary.outcomes),
    windowDays: windowMs / DAY_MS,
    ...(summary.updatedAt ? { updatedAt: summary.updatedAt } : {}),
    skills,
    unused: skills.filter((s) => s.unused).map((s) => s.name),
  };
}

function revisionReport(r: RevisionUsage, liveRevisionId: string | undefined): RevisionReport {
  return {
    revisionId: r.revisionId,
    live: r.revisionId === liveRevisionId,
    offered: r.offered,
    loaded: r.loaded,
    ...(r.offered > 0 ? { loadRate: r.loaded / r.offered } : {}),
    with: rates(r.with),
    without: rates(r.without),
    firstSeenAt: r.firstSeenAt,
    ...(r.lastLoadedAt ? { lastLoadedAt: r.lastLoadedAt } : {}),
  };
}
