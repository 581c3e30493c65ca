import type { Context as ActivityContext } from '@temporalio/activity';
import type { MetricMeter } from '@temporalio/common';
import { Runtime, type ActivityInterceptorsFactory } from '@temporalio/worker';
import { StorageWaits } from './storage-wait';

/** This process's view of the workflows that wait for storage (a gauge on the process's meter, no per-activity labels). */
const storageWaits = new StorageWaits();

/**
 * The product's own metrics, observed at the activity boundary (what went in, what came
 * out, how long it took), so activities stay free of metric code. They go through the
 * Temporal runtime's metric meter and so appear on the same Prometheus endpoint as the SDK's
 * metrics, with its default labels (namespace, task_queue, activity_type). Our labels are
 * low-cardinality on purpose: gate, verdict, action, outcome, scope mode; never skill names,
 * ids or apps.
 */
export const PRODUCT_METRICS = {
  candidatesSeen: 'evolution_candidates_seen',
  revisionsWritten: 'evolution_revisions_written',
  gateVerdicts: 'evolution_gate_verdicts',
  holds: 'evolution_holds',
  approvals: 'evolution_approvals',
  rejections: 'evolution_rejections',
  autoExpiries: 'evolution_auto_expiries',
  rollbacks: 'evolution_rollbacks',
  publications: 'evolution_publications',
  publicationLatency: 'evolution_publication_latency',
  reviewerCalls: 'evolution_reviewer_calls',
  reviewerFailures: 'evolution_reviewer_failures',
  reviewerLatency: 'evolution_reviewer_latency',
  gepaMetricCalls: 'evolution_gepa_metric_calls',
  experiments: 'evolution_experiments',
  usageSessions: 'evolution_usage_sessions',
  skillLoads: 'evolution_skill_loads',
  /** Staged rollouts: canaries started, steps up, promotions, rollbacks and holds, by who decided (the test or an approver). */
  rolloutDecisions: 'evolution_rollout_decisions',
  /** Looks at a canary's cohorts (one S3 GET each), by whether the read succeeded. */
  rolloutChecks: 'evolution_rollout_checks',
} as const;

type Args = readonly unknown[];
type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown, fallback = 'unknown'): string => (typeof v === 'string' && v !== '' ? v : fallback);
const SCOPE_MODES: Record<string, string> = { global: 'none', apps: 'app', users: 'user' };
const scopeModeOf = (scopeKey: unknown): string => SCOPE_MODES[typeof scopeKey === 'string' ? scopeKey.split('/')[0]! : ''] ?? 'unknown';

/** What one finished activity contributes; pure, unit-tested. */
export interface Observation {
  counters: { name: string; value: number; tags: Record<string, string> }[];
  histograms: { name: string; value: number; tags: Record<string, string> }[];
}

export function observe(activityType: string, args: Args, result: unknown, error: unknown, durationMs: number): Observation {
  const o: Observation = { counters: [], histograms: [] };
  const count = (name: string, tags: Record<string, string> = {}, value = 1) => value > 0 && o.counters.push({ name, value, tags });
  const input = obj(args[0]);
  const failed = error !== undefined;
  const revisionWritten = (rev: Obj) => {
    const scopeMode = scopeModeOf(rev.scopeKey);
    count(PRODUCT_METRICS.revisionsWritten, { scope_mode: scopeMode, action: str(rev.action), source: str(rev.source), status: str(rev.status) });
    for (const g of Array.isArray(rev.gates) ? (rev.gates as Obj[]) : []) {
      if (g.ran === false) continue;
      count(PRODUCT_METRICS.gateVerdicts, { gate: str(g.gate), verdict: g.passed ? (g.held ? 'held' : 'passed') : 'failed' });
    }
    if (rev.status === 'pending_approval' || rev.status === 'pending_evaluation') count(PRODUCT_METRICS.holds, { scope_mode: scopeMode, reason: str(rev.status) });
  };
  const published = (action: string) => {
    const outcome = str(obj(result).outcome);
    count(PRODUCT_METRICS.publications, { trigger: action, outcome });
    o.histograms.push({ name: PRODUCT_METRICS.publicationLatency, value: durationMs, tags: { trigger: action } });
    if (action === 'approve') count(PRODUCT_METRICS.approvals, { outcome });
    if (action === 'auto_expire') count(PRODUCT_METRICS.autoExpiries, { outcome });
  };
  switch (activityType) {
    case 'reviewSession': {
      const segment = obj(input.segment);
      const tags = { scope_mode: str(segment.scopeMode) === 'unknown' ? scopeModeOf(segment.scopeKey) : str(segment.scopeMode) };
      count(PRODUCT_METRICS.reviewerCalls, tags);
      o.histograms.push({ name: PRODUCT_METRICS.reviewerLatency, value: durationMs, tags: { ...tags, outcome: failed ? 'failure' : 'success' } });
      if (failed) count(PRODUCT_METRICS.reviewerFailures, tags);
      else {
        const r = obj(result);
        const n = (k: string) => (Array.isArray(r[k]) ? (r[k] as unknown[]).length : 0);
        count(PRODUCT_METRICS.candidatesSeen, { ...tags, action: 'create' }, n('creates'));
        count(PRODUCT_METRICS.candidatesSeen, { ...tags, action: 'update' }, n('updates'));
        count(PRODUCT_METRICS.candidatesSeen, { ...tags, action: 'delete' }, n('deletions'));
      }
      break;
    }
    case 'recordRevision':
      if (!failed) revisionWritten(obj(input.revision));
      break;
    case 'publishRevision':
      if (failed) break;
      published(str(input.auditAction));
      if (obj(result).canary) count(PRODUCT_METRICS.rolloutDecisions, { decision: 'start', decided_by: 'publisher', outcome: 'applied' });
      break;
    case 'applyRolloutDecision':
      if (!failed)
        count(PRODUCT_METRICS.rolloutDecisions, { decision: str(input.kind), decided_by: input.actor === 'rollout' ? 'rollout' : 'approver', outcome: str(obj(result).outcome) });
      break;
    case 'readCanaryCohorts':
      count(PRODUCT_METRICS.rolloutChecks, { outcome: failed ? 'failure' : 'success' });
      break;
    case 'recordAndPublishRevision':
      // A learning job's publication: it records the revision, then promotes it.
      if (failed) break;
      revisionWritten(obj(input.revision));
      published('promote');
      break;
    case 'rejectRevision':
      if (!failed) count(PRODUCT_METRICS.rejections);
      break;
    case 'rollbackSkill':
      if (!failed) count(PRODUCT_METRICS.rollbacks);
      break;
    case 'evaluateCandidate': {
      const cases = Array.isArray(input.cases) ? input.cases.length : 0;
      count(PRODUCT_METRICS.gepaMetricCalls, { outcome: failed ? 'failure' : 'success' }, cases);
      break;
    }
    case 'applyScopeRecordsBurst': {
      // Sessions counted for usage attribution (a burst applied again counts nothing twice).
      if (failed) break;
      const counted = obj(obj(result).counted);
      const tags = { scope_mode: scopeModeOf(input.scopeKey) };
      for (const [outcome, n] of Object.entries(obj(counted.byOutcome))) if (typeof n === 'number') count(PRODUCT_METRICS.usageSessions, { ...tags, outcome }, n);
      if (typeof counted.loads === 'number') count(PRODUCT_METRICS.skillLoads, tags, counted.loads);
      break;
    }
    case 'recordExperimentResult': {
      if (failed) break;
      const report = obj(input.report);
      count(PRODUCT_METRICS.experiments, { status: str(report.status), stop_reason: str(report.stopReason) });
      break;
    }
  }
  return o;
}

function emit(meter: MetricMeter, o: Observation): void {
  for (const c of o.counters) meter.createCounter(c.name).add(c.value, c.tags);
  for (const h of o.histograms) meter.createHistogram(h.name, 'int', 'milliseconds').record(Math.max(0, Math.round(h.value)), h.tags);
}

/** The worker interceptor that emits {@link observe}'s metrics. */
export const productMetricsInterceptor: ActivityInterceptorsFactory = (ctx: ActivityContext) => ({
  inbound: {
    async execute(input, next) {
      const started = performance.now();
      let result: unknown;
      let error: unknown;
      try {
        result = await next(input);
        return result;
      } catch (e) {
        error = e ?? new Error('activity failed');
        throw e;
      } finally {
        try {
          emit(ctx.metricMeter, observe(ctx.info.activityType, input.args, result, error, performance.now() - started));
          storageWaits.observe(ctx.info.activityType, ctx.info.workflowExecution?.workflowId, error);
          storageWaits.emit(Runtime.instance().metricMeter);
        } catch {
          /* metrics never fail an activity */
        }
      }
    },
  },
});
