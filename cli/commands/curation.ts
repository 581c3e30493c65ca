import { boolFlag, flag, numberFlag, positional, requiredFlag, UsageError } from '../args';
import type { Command, CommandContext } from '../command';
import { SCOPE_OPTIONS, scopeFromFlags, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly, withServices } from '../services';
import { windowFlag } from './usage';
import type { CurationReport } from '../../client/curation';
import type { CuratorResult } from '../../core/workflow-api';

type Proposal = CurationReport['proposals'][number];

function proposalLine(p: Proposal): string {
  return p.kind === 'merge' ? `  merge ${p.absorb.name} into ${p.keep.name}: ${p.reason}` : `  ${p.kind} ${p.name}: ${p.reason}`;
}

function runText(r: CuratorResult): string {
  return [
    `${r.scopeKey}: curator run ${r.runId} at ${r.at} (window ${r.windowDays} days)`,
    ...(r.proposals.length
      ? r.proposals.map(
          (p) =>
            `  ${p.kind} ${p.skills.join(' + ')}: ${p.outcome}${p.detail ? ` (${p.detail})` : ''}` +
            p.revisions.map((v) => `\n    ${v.revisionId} ${v.skillId} ${v.status}${v.approvalWorkflowId ? ` — approve with: evolution approve ${v.revisionId}` : ''}`).join(''),
        )
      : ['  no proposals']),
    ...r.spared.map((s) => `  spared ${s.name}: ${s.why}`),
  ].join('\n');
}

function curationOptions(ctx: CommandContext) {
  const similarity = numberFlag(ctx.args, 'similarity');
  const maxMerges = numberFlag(ctx.args, 'max-merges');
  if (similarity !== undefined && !(similarity > 0 && similarity <= 1)) throw new UsageError('--similarity must be in (0, 1]');
  if (maxMerges !== undefined && !(Number.isInteger(maxMerges) && maxMerges >= 0 && maxMerges <= 50)) throw new UsageError('--max-merges must be an integer from 0 to 50');
  const windowMs = windowFlag(flag(ctx.args, 'window'));
  return {
    ...(windowMs !== undefined ? { windowMs } : {}),
    ...(similarity !== undefined ? { similarityThreshold: similarity } : {}),
    ...(maxMerges !== undefined ? { maxMerges } : {}),
    ...(boolFlag(ctx.args, 'auto-archive') ? { autoArchive: true } : {}),
  };
}

export const curationCommands: Record<string, Command> = {
  curate: {
    options: {
      ...SCOPE_OPTIONS,
      'dry-run': { description: 'report what the next run would propose (the same plan); change nothing' },
      window: { value: 'DURATION', description: 'propose archiving skills not loaded over this window, e.g. 30d (default 30d)' },
      similarity: { value: 'X', description: 'word similarity from which two skills are near-duplicates, 0..1 (default 0.6)' },
      'max-merges': { value: 'N', description: 'merges proposed per run (default 5; each is a model call)' },
      'auto-archive': { description: 'archive proposals follow the human-gate policy instead of always waiting for approval' },
      every: { value: 'INTERVAL', description: "run the scope's curator on a Temporal Schedule every INTERVAL, e.g. 1d (creates or updates it)" },
      cron: { value: 'SPEC', description: 'the schedule as a cron spec instead, e.g. "0 4 * * *"' },
      'remove-schedule': { description: "remove the scope's curator schedule" },
    },
    summary:
      'curation as governed revisions: propose archiving unused skills, reviving asked-for ones and merging near-duplicates, each held for approval; --dry-run first, --every to schedule it per scope',
    run: async (ctx) => {
      const modes = ['dry-run', 'remove-schedule'].filter((f) => boolFlag(ctx.args, f)).length + (flag(ctx.args, 'every') || flag(ctx.args, 'cron') ? 1 : 0);
      if (modes > 1) throw new UsageError('give one of --dry-run, --every/--cron (the schedule) or --remove-schedule');
      const opts = curationOptions(ctx);
      if (boolFlag(ctx.args, 'dry-run')) {
        const { curationDryRun } = await import('../../client/curation');
        const store = await storeOnly(ctx);
        const report = await withTemporalIfReachable(ctx, (client) => curationDryRun(store, scopeKeyFromFlags(ctx.args), { ...opts, ...(client ? { client } : {}) }));
        ctx.out(report, () =>
          [
            `${report.scopeKey}: dry run over ${report.windowDays} days, nothing changed${report.pendingChecked ? '' : ' (Temporal unreachable: skills with a pending approval not checked)'}`,
            ...(report.proposals.length ? report.proposals.map(proposalLine) : ['  no proposals']),
            ...report.skipped.map((s) => `  spared ${s.name}: ${s.why}`),
          ].join('\n'),
        );
        return 0;
      }
      const { runCuration, setCurationSchedule, removeCurationSchedule } = await import('../../client/curation');
      return withServices(ctx, async ({ temporal }) => {
        const taskQueue = ctx.config().temporal.taskQueue;
        const scope = scopeFromFlags(ctx.args);
        if (boolFlag(ctx.args, 'remove-schedule')) {
          const removed = await removeCurationSchedule(temporal.client, scopeKeyFromFlags(ctx.args));
          ctx.out({ removed }, removed ? 'curation schedule removed (runs already started finish)' : 'no curation schedule for this scope');
          return 0;
        }
        const every = flag(ctx.args, 'every');
        const cron = flag(ctx.args, 'cron');
        if (every !== undefined || cron !== undefined) {
          const view = await setCurationSchedule(
            {
              client: temporal.client,
              taskQueue,
              parseInterval: (t) => {
                const ms = windowFlag(t);
                return ms!;
              },
            },
            scope,
            { ...opts, ...(every !== undefined ? { every } : {}), ...(cron !== undefined ? { cron } : {}) },
          );
          ctx.out(view, `curation schedule ${view.scheduleId}: ${view.spec}${view.paused ? ' PAUSED' : ''}; next runs ${view.nextRuns.join(', ') || 'none'}`);
          return 0;
        }
        const result = await runCuration({ client: temporal.client, taskQueue }, scope, opts);
        ctx.out(result, () => runText(result));
        return 0;
      });
    },
  },
  revive: {
    arguments: [{ name: 'NAME' }],
    options: {
      ...SCOPE_OPTIONS,
      reviewer: { value: 'NAME', description: 'who asks for it (recorded on the proposal)', required: true },
    },
    summary: 'ask for an archived skill again: proposes a revision restoring its archived content, through the gates, held for approval',
    run: async (ctx) => {
      const name = positional(ctx.args, 0, 'NAME');
      const reviewer = requiredFlag(ctx.args, 'reviewer');
      const { reviveSkills } = await import('../../client/curation');
      return withServices(ctx, async ({ temporal }) => {
        const result = await reviveSkills({ client: temporal.client, taskQueue: ctx.config().temporal.taskQueue }, scopeFromFlags(ctx.args), [name], { requestedBy: reviewer });
        ctx.out(result, () => runText(result));
        return result.proposals.some((p) => p.outcome === 'proposed' || p.outcome === 'already_proposed') ? 0 : 1;
      });
    },
  },
  pin: {
    arguments: [{ name: 'NAME' }],
    options: {
      ...SCOPE_OPTIONS,
      reviewer: { value: 'NAME', description: 'the approver pinning it (recorded in the audit)', required: true },
      comment: { value: 'TEXT', description: 'why' },
      unpin: { description: 'unpin it instead' },
    },
    summary: 'pin a published skill (curation never proposes archiving or merging it), or unpin it; recorded in its audit under the reviewer',
    run: async (ctx) => {
      const name = positional(ctx.args, 0, 'NAME');
      const reviewer = requiredFlag(ctx.args, 'reviewer');
      const unpin = boolFlag(ctx.args, 'unpin');
      const { pinSkill } = await import('../../client/curation');
      const r = await pinSkill(await storeOnly(ctx), scopeKeyFromFlags(ctx.args), name, !unpin, { actor: reviewer, comment: flag(ctx.args, 'comment') });
      ctx.out(r, `${r.changed ? (unpin ? 'unpinned' : 'pinned') : unpin ? 'was not pinned' : 'already pinned'}: ${r.skillId}`);
    },
  },
};

/** The dry run asks Temporal which skills have an approval waiting when it can; without Temporal it still answers (and says so). */
async function withTemporalIfReachable<T>(ctx: CommandContext, fn: (client: import('@temporalio/client').Client | undefined) => Promise<T>): Promise<T> {
  const config = ctx.config();
  const { ensureReachable } = await import('../../runtime/reachability');
  try {
    await ensureReachable(config, ['temporal']);
  } catch {
    return fn(undefined);
  }
  const { connectTemporal } = await import('../../runtime/connection');
  const temporal = await connectTemporal(config);
  try {
    return await fn(temporal.client);
  } finally {
    await temporal.close();
  }
}
