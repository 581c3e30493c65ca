import { emptyUsage, usageReport, type UsageReport } from '../core/usage';
import { NotFoundError } from '../core/errors';
import { offeredSkills, type SkillStore } from '../storage';

export const DEFAULT_USAGE_WINDOW_MS = 7 * 24 * 60 * 60_000;

/**
 * A scope's usage report: its counters (one GET) against the skills published now (one GET
 * of the index). `skill`: only the skill of that name or id (a NotFoundError when the scope
 * has no counters or index entry for it).
 */
export async function scopeUsage(store: SkillStore, scopeKey: string, opts: { windowMs?: number; skill?: string; now?: number } = {}): Promise<UsageReport> {
  const [stored, index] = await Promise.all([store.readUsage(scopeKey), store.readScopeIndex(scopeKey)]);
  const live = offeredSkills(index && !index.notModified ? index.index : undefined);
  const report = usageReport(stored?.summary ?? emptyUsage(scopeKey), live, {
    now: opts.now ?? Date.now(),
    windowMs: opts.windowMs ?? DEFAULT_USAGE_WINDOW_MS,
  });
  if (opts.skill === undefined) return report;
  const wanted = opts.skill.toLowerCase();
  const skills = report.skills.filter((s) => s.name.toLowerCase() === wanted || s.skillId === opts.skill);
  if (!skills.length) throw new NotFoundError(`no usage recorded and no published skill named "${opts.skill}" in ${scopeKey}`);
  return { ...report, skills, unused: report.unused.filter((n) => skills.some((s) => s.name === n)) };
}
