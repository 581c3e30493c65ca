import type { OutcomeStatus } from '../schemas/session';
import { cohortOf, type CanaryRef } from '../rollout/cohort';
import { shortHash } from '../skills/hash';
import type { SessionUsage } from './attribution';
import type { GovernanceCounts } from '../governance/counters';
import type { SessionAuditEvent } from '../governance/session-audit';
import type { AuditEvent } from '../schemas/revision';

/** Outcomes of a set of sessions: counts by status, and sums for the means. */
export interface OutcomeTally {
  n: number;
  success: number;
  partial: number;
  fail: number;
  agent_error: number;
  /** Sessions the platform reported no outcome for. */
  unknown: number;
  scoreSum: number;
  scored: number;
  tokenSum: number;
  tokened: number;
}

export interface RevisionUsage {
  revisionId: string;
  /** Sessions (learning jobs) of the scope while this revision was the live one, plus any that loaded it. */
  offered: number;
  loaded: number;
  firstSeenAt: string;
  lastLoadedAt?: string;
  /** Sessions that loaded this revision. */
  with: OutcomeTally;
  /** Sessions offered this revision that did not load it. */
  without: OutcomeTally;
}

export interface SkillUsage {
  skillId: string;
  name: string;
  /** The scope the skill is published in (a user-scope session may load an app's skill). */
  scopeKey: string;
  firstOfferedAt?: string;
  lastLoadedAt?: string;
  /** Newest first; at most MAX_REVISIONS_PER_SKILL. */
  revisions: RevisionUsage[];
  /** Outcomes per cohort of the skill's live (or last) canary; what its rollout decides on. */
  canary?: CanaryTally;
}

/**
 * Sessions of a canary's two cohorts since it began, counted whatever they loaded (the
 * randomized comparison): a session is in the candidate cohort by the hash of its id, the
 * same function the agent's repository resolved it with. Reset when a new candidate starts.
 */
export interface CanaryTally {
  candidateRevisionId: string;
  stableRevisionId: string;
  since: string;
  candidate: OutcomeTally;
  stable: OutcomeTally;
}

/**
 * A scope's usage counters: one object, rewritten whole by the scope's usage workflow (its
 * only writer) once per burst of jobs. Its size follows the number of skills, never the
 * number of sessions: a job adds to counters, it appends nothing.
 */
export interface UsageSummary {
  scopeKey: string;
  generation: number;
  sessions: number;
  outcomes: OutcomeTally;
  skills: SkillUsage[];
  /** Hashes of the last MAX_RECENT_JOBS jobs counted: a burst applied twice (a retried write) counts once. */
  recentJobs: string[];
  updatedAt?: string;
  /** The scope's governance counters (core/governance/counters.ts), counted since `since`. */
  governance?: { since: string; counts: GovernanceCounts };
  /** The scope's last MAX_RECENT_EVENTS audit entries, newest first: the Activity page. */
  recentEvents?: AuditEvent[];
  /** The scope's last quarantined deltas, newest first. */
  recentQuarantines?: SessionAuditEvent[];
}

/** A live skill of the scope index: what every session of the scope was offered. */
export interface OfferedSkill {
  skillId: string;
  name: string;
  revisionId: string;
  /** A live canary: sessions of its candidate cohort are offered its revision instead. */
  canary?: CanaryRef;
}

/** What a burst added (for metrics): sessions by outcome, skill loads, and sessions that loaded any skill. */
export interface UsageTotals {
  byOutcome: Partial<Record<OutcomeStatus | 'unknown', number>>;
  loads: number;
  sessionsLoading: number;
}

export const MAX_REVISIONS_PER_SKILL = 16;
export const MAX_RECENT_JOBS = 4096;

export function emptyTally(): OutcomeTally {
  return { n: 0, success: 0, partial: 0, fail: 0, agent_error: 0, unknown: 0, scoreSum: 0, scored: 0, tokenSum: 0, tokened: 0 };
}

export function emptyUsage(scopeKey: string): UsageSummary {
  return { scopeKey, generation: 0, sessions: 0, outcomes: emptyTally(), skills: [], recentJobs: [] };
}

function count(t: OutcomeTally, s: SessionUsage): void {
  t.n++;
  const status: OutcomeStatus | 'unknown' = s.outcome ?? 'unknown';
  t[status]++;
  if (s.score !== undefined) {
    t.scoreSum += s.score;
    t.scored++;
  }
  if (s.tokens !== undefined) {
    t.tokenSum += s.tokens;
    t.tokened++;
  }
}

/**
 * A copy of `summary` that applying records may change without changing `summary`: the parts
 * a burst writes to (the counters, every skill's revisions and tallies, the job keys) are
 * copied, what it only replaces (the recent audit pages, the governance counts) is shared.
 * A burst's session touches every offered skill, so this copies them all; it is a fraction of
 * what `structuredClone` costs on the same object (16 ms for a scope of 2,000 skills).
 */
export function copyForUpdate(summary: UsageSummary): UsageSummary {
  return {
    ...summary,
    outcomes: { ...summary.outcomes },
    recentJobs: [...summary.recentJobs],
    skills: summary.skills.map((skill) => ({
      ...skill,
      revisions: skill.revisions.map((r) => ({ ...r, with: { ...r.with }, without: { ...r.without } })),
      ...(skill.canary ? { canary: { ...skill.canary, candidate: { ...skill.canary.candidate }, stable: { ...skill.canary.stable } } } : {}),
    })),
  };
}

/** The job's key in `recentJobs`. */
export function jobKey(jobId: string): string {
  return shortHash(jobId);
}

/**
 * Adds a burst of sessions to the counters (a new object; the input is not changed).
 * `offered`: the scope index's live skills when the burst is applied. Each session counts
 * once for every offered revision, as loaded (with) or not (without); a revision it loaded
 * that the index does not list (another scope's skill, or one superseded meanwhile) counts
 * as offered and loaded. A load known only by name counts for the live revision of that
 * name, else for a skill of that name with revision "unknown". Jobs already in
 * `recentJobs` are skipped, so re-applying a burst changes nothing.
 */
export function applyUsage(
  before: UsageSummary,
  sessions: readonly SessionUsage[],
  offered: readonly OfferedSkill[],
  at: string,
  scopeKey: string = before.scopeKey,
): { summary: UsageSummary; applied: number; counted: UsageTotals } {
  const summary = copyForUpdate(before);
  const recent = new Set(summary.recentJobs);
  const skills = new Map(summary.skills.map((s) => [s.skillId, s]));
  const skill = (skillId: string, name: string, skillScope: string): SkillUsage => {
    let s = skills.get(skillId);
    if (!s) skills.set(skillId, (s = { skillId, name, scopeKey: skillScope, revisions: [] }));
    s.name = name;
    return s;
  };
  const revision = (s: SkillUsage, revisionId: string): RevisionUsage => {
    let r = s.revisions.find((x) => x.revisionId === revisionId);
    if (!r) {
      r = { revisionId, offered: 0, loaded: 0, firstSeenAt: at, with: emptyTally(), without: emptyTally() };
      s.revisions.unshift(r);
      if (s.revisions.length > MAX_REVISIONS_PER_SKILL) s.revisions.length = MAX_REVISIONS_PER_SKILL;
    }
    return r;
  };
  let applied = 0;
  const counted: UsageTotals = { byOutcome: {}, loads: 0, sessionsLoading: 0 };
  for (const session of sessions) {
    const key = jobKey(session.jobId);
    if (recent.has(key)) continue;
    recent.add(key);
    summary.recentJobs.push(key);
    applied++;
    const outcome = session.outcome ?? 'unknown';
    counted.byOutcome[outcome] = (counted.byOutcome[outcome] ?? 0) + 1;
    counted.loads += session.loads.length;
    if (session.loads.length > 0) counted.sessionsLoading++;
    summary.sessions++;
    count(summary.outcomes, session);

    // What this session was offered: under a canary, the revision of its cohort.
    const offeredNow = offered.map((o) => {
      const cohort = o.canary && session.sessionId !== undefined ? cohortOf(session.sessionId, o.canary) : undefined;
      return { ...o, cohort, stableRevisionId: o.revisionId, revisionId: cohort === 'candidate' ? o.canary!.revisionId : o.revisionId };
    });
    const offeredNowByName = new Map(offeredNow.map((o) => [o.name.toLowerCase(), o]));
    // The revisions this session loaded, as (skill, revision) of this summary.
    const loaded = new Map<string, { skillId: string; name: string; scopeKey: string; revisionId: string }>();
    for (const l of session.loads) {
      if (l.revisionId && l.skillId) {
        loaded.set(l.revisionId, { skillId: l.skillId, name: l.name, scopeKey: l.scopeKey ?? scopeKey, revisionId: l.revisionId });
        continue;
      }
      const live = offeredNowByName.get(l.name.toLowerCase());
      if (live) loaded.set(live.revisionId, { skillId: live.skillId, name: live.name, revisionId: live.revisionId, scopeKey });
      else loaded.set(`unknown:${l.name.toLowerCase()}`, { skillId: `name:${l.name.toLowerCase()}`, name: l.name, scopeKey, revisionId: 'unknown' });
    }
    for (const o of offeredNow) {
      const s = skill(o.skillId, o.name, scopeKey);
      s.firstOfferedAt ??= at;
      if (o.canary && o.cohort) {
        if (s.canary?.candidateRevisionId !== o.canary.revisionId || s.canary.stableRevisionId !== o.stableRevisionId)
          s.canary = { candidateRevisionId: o.canary.revisionId, stableRevisionId: o.stableRevisionId, since: at, candidate: emptyTally(), stable: emptyTally() };
        count(o.cohort === 'candidate' ? s.canary.candidate : s.canary.stable, session);
      }
      const r = revision(s, o.revisionId);
      r.offered++;
      const hit = loaded.get(o.revisionId);
      if (hit && hit.skillId === o.skillId) {
        loaded.delete(o.revisionId);
        r.loaded++;
        r.lastLoadedAt = s.lastLoadedAt = at;
        count(r.with, session);
      } else count(r.without, session);
    }
    for (const l of loaded.values()) {
      const s = skill(l.skillId, l.name, l.scopeKey);
      s.firstOfferedAt ??= at;
      const r = revision(s, l.revisionId);
      r.offered++;
      r.loaded++;
      r.lastLoadedAt = s.lastLoadedAt = at;
      count(r.with, session);
    }
  }
  if (summary.recentJobs.length > MAX_RECENT_JOBS) summary.recentJobs.splice(0, summary.recentJobs.length - MAX_RECENT_JOBS);
  const byId = (a: SkillUsage, b: SkillUsage) => (a.skillId < b.skillId ? -1 : a.skillId > b.skillId ? 1 : 0);
  summary.skills = [...skills.values()].sort(byId);
  if (applied > 0) {
    summary.generation++;
    summary.updatedAt = at;
  }
  return { summary, applied, counted };
}
