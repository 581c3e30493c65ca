import { flag, UsageError } from '../args';
import type { Command } from '../command';
import { SCOPE_OPTIONS, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly } from '../services';
import type { OutcomeRates, UsageReport } from '../../core/usage';
import { parseDuration } from '../../core/duration';

const pct = (v: number | undefined) => (v === undefined ? '—' : `${(v * 100).toFixed(0)}%`);
const rate = (r: OutcomeRates) => `${pct(r.successRate)} of ${r.sessions}`;

export function formatUsage(r: UsageReport): string {
  const lines = [`${r.scopeKey}: ${r.sessions} sessions, success ${pct(r.outcomes.successRate)}${r.updatedAt ? ` (counted up to ${r.updatedAt})` : ''}`];
  if (!r.skills.length) return [...lines, 'no skills published or loaded yet'].join('\n');
  for (const s of r.skills) {
    const flags = [s.live ? '' : 'not published', s.unused ? `UNUSED for ${r.windowDays} days` : ''].filter(Boolean).join(', ');
    lines.push(`${s.name}${flags ? `  [${flags}]` : ''}`);
    lines.push(`    loaded ${s.loaded} of ${s.offered} offered (${pct(s.loadRate)}); success with ${rate(s.with)}, without ${rate(s.without)}`);
    for (const v of s.revisions) {
      lines.push(
        `    ${v.live ? '*' : ' '} ${v.revisionId}  loaded ${v.loaded}/${v.offered} (${pct(v.loadRate)})  success with ${rate(v.with)}, without ${rate(v.without)}${v.with.meanTokens !== undefined ? `  ~${Math.round(v.with.meanTokens)} tokens` : ''}`,
      );
    }
  }
  if (r.unused.length) lines.push('', `published but not loaded in ${r.windowDays} days: ${r.unused.join(', ')}`);
  return lines.join('\n');
}

export function windowFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let ms: number | undefined;
  try {
    ms = parseDuration(text);
  } catch {
    ms = undefined;
  }
  if (ms === undefined || ms <= 0) throw new UsageError(`--window must be a duration such as 7d or 12h, got "${text}"`);
  return ms;
}

export const usageCommands: Record<string, Command> = {
  usage: {
    options: {
      ...SCOPE_OPTIONS,
      skill: { value: 'NAME', description: 'only this skill' },
      window: { value: 'DURATION', description: 'flag skills not loaded over this window, e.g. 7d (default 7d)' },
    },
    summary: 'which skills sessions loaded, per revision: load rate, success with and without; flags published skills not loaded over the window',
    run: async (ctx) => {
      const windowMs = windowFlag(flag(ctx.args, 'window'));
      const { scopeUsage } = await import('../../client/usage');
      const report = await scopeUsage(await storeOnly(ctx), scopeKeyFromFlags(ctx.args), { windowMs, skill: flag(ctx.args, 'skill') });
      ctx.out(report, () => formatUsage(report));
    },
  },
};
