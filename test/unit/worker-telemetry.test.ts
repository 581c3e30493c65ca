import { describe, expect, it } from 'vitest';
import { jsonLine, prettyLine } from '../../workers/telemetry/logger';
import { observe, PRODUCT_METRICS } from '../../workers/telemetry/product-metrics';

describe('product metrics observed at the activity boundary', () => {
  it('counts reviewer calls, failures and candidates by action', () => {
    const ok = observe('reviewSession', [{ segment: { scopeMode: 'user' } }], { creates: [{}, {}], updates: [{}], deletions: [] }, undefined, 12);
    expect(ok.counters).toEqual([
      { name: PRODUCT_METRICS.reviewerCalls, value: 1, tags: { scope_mode: 'user' } },
      { name: PRODUCT_METRICS.candidatesSeen, value: 2, tags: { scope_mode: 'user', action: 'create' } },
      { name: PRODUCT_METRICS.candidatesSeen, value: 1, tags: { scope_mode: 'user', action: 'update' } },
    ]);
    expect(ok.histograms).toEqual([{ name: PRODUCT_METRICS.reviewerLatency, value: 12, tags: { scope_mode: 'user', outcome: 'success' } }]);
    const failed = observe('reviewSession', [{ segment: { scopeKey: 'apps/a1' } }], undefined, new Error('boom'), 5);
    expect(failed.counters.map((c) => c.name)).toEqual([PRODUCT_METRICS.reviewerCalls, PRODUCT_METRICS.reviewerFailures]);
    expect(failed.counters[0]!.tags).toEqual({ scope_mode: 'app' });
  });

  it('revisions, gate verdicts and holds carry no names or ids', () => {
    const revision = {
      scopeKey: 'users/app-secret/user-secret',
      action: 'update',
      source: 'reviewer',
      status: 'pending_approval',
      name: 'skill-secret',
      gates: [
        { gate: 'spec', ran: true, passed: true },
        { gate: 'safety', ran: true, passed: false },
        { gate: 'effectiveness', ran: false, passed: true },
      ],
    };
    const o = observe('recordRevision', [{ revision }], undefined, undefined, 1);
    expect(JSON.stringify(o)).not.toMatch(/secret/);
    expect(o.counters).toEqual([
      { name: PRODUCT_METRICS.revisionsWritten, value: 1, tags: { scope_mode: 'user', action: 'update', source: 'reviewer', status: 'pending_approval' } },
      { name: PRODUCT_METRICS.gateVerdicts, value: 1, tags: { gate: 'spec', verdict: 'passed' } },
      { name: PRODUCT_METRICS.gateVerdicts, value: 1, tags: { gate: 'safety', verdict: 'failed' } },
      { name: PRODUCT_METRICS.holds, value: 1, tags: { scope_mode: 'user', reason: 'pending_approval' } },
    ]);
  });

  it('publications, approvals, auto-expiries, rejections, rollbacks, GEPA metric calls and experiments', () => {
    const names = (type: string, input: unknown, result?: unknown) => observe(type, [input], result, undefined, 3).counters.map((c) => `${c.name}${JSON.stringify(c.tags)}`);
    expect(names('publishRevision', { auditAction: 'auto_expire' }, { outcome: 'published' })).toEqual([
      `${PRODUCT_METRICS.publications}{"trigger":"auto_expire","outcome":"published"}`,
      `${PRODUCT_METRICS.autoExpiries}{"outcome":"published"}`,
    ]);
    // A learning job's publication records its revision and promotes it, in one activity.
    const gated = { scopeKey: 'apps/a', action: 'create', source: 'reviewer', status: 'pending', gates: [{ gate: 'spec', ran: true, passed: true }] };
    expect(names('recordAndPublishRevision', { jobId: 'j', revision: gated }, { status: 'active', outcome: 'published' })).toEqual([
      `${PRODUCT_METRICS.revisionsWritten}{"scope_mode":"app","action":"create","source":"reviewer","status":"pending"}`,
      `${PRODUCT_METRICS.gateVerdicts}{"gate":"spec","verdict":"passed"}`,
      `${PRODUCT_METRICS.publications}{"trigger":"promote","outcome":"published"}`,
    ]);
    expect(observe('recordAndPublishRevision', [{ revision: gated }], undefined, undefined, 7).histograms).toEqual([
      { name: PRODUCT_METRICS.publicationLatency, value: 7, tags: { trigger: 'promote' } },
    ]);
    expect(observe('recordAndPublishRevision', [{ revision: gated }], undefined, new Error('x'), 1)).toEqual({ counters: [], histograms: [] });
    expect(names('rejectRevision', {})).toEqual([`${PRODUCT_METRICS.rejections}{}`]);
    expect(names('rollbackSkill', {})).toEqual([`${PRODUCT_METRICS.rollbacks}{}`]);
    expect(names('evaluateCandidate', { cases: [1, 2, 3] })).toEqual([`${PRODUCT_METRICS.gepaMetricCalls}{"outcome":"success"}`]);
    expect(observe('evaluateCandidate', [{ cases: [1, 2, 3] }], undefined, undefined, 1).counters[0]!.value).toBe(3);
    expect(names('recordExperimentResult', { report: { status: 'failed', stopReason: 'time_limit' } })).toEqual([
      `${PRODUCT_METRICS.experiments}{"status":"failed","stop_reason":"time_limit"}`,
    ]);
    expect(observe('publishRevision', [{ auditAction: 'approve' }], undefined, new Error('x'), 1).counters).toEqual([]);
    expect(observe('loadGovernance', [], {}, undefined, 1)).toEqual({ counters: [], histograms: [] });
  });

  it('usage attribution: sessions counted by outcome and skill loads, from what the burst added (not its input)', () => {
    const burst = observe(
      'applyScopeRecordsBurst',
      [{ scopeKey: 'apps/a', records: [{}, {}, {}] }],
      { applied: 2, counted: { byOutcome: { success: 1, fail: 1 }, loads: 3, sessionsLoading: 1 } },
      undefined,
      2,
    );
    expect(burst.counters).toEqual([
      { name: PRODUCT_METRICS.usageSessions, value: 1, tags: { scope_mode: 'app', outcome: 'success' } },
      { name: PRODUCT_METRICS.usageSessions, value: 1, tags: { scope_mode: 'app', outcome: 'fail' } },
      { name: PRODUCT_METRICS.skillLoads, value: 3, tags: { scope_mode: 'app' } },
    ]);
    // A burst applied again counts nothing: no counter at all.
    expect(observe('applyScopeRecordsBurst', [{ scopeKey: 'apps/a' }], { applied: 0, counted: { byOutcome: {}, loads: 0, sessionsLoading: 0 } }, undefined, 1).counters).toEqual(
      [],
    );
  });
});

describe('worker log lines', () => {
  const entry = {
    level: 'INFO' as const,
    message: 'Activity completed',
    timestampNanos: 1_700_000_000_000_000_000n,
    meta: { workflowId: 'approval/rev-1', activityType: 'publishRevision' },
  };
  it('JSON with time, level, message and the revision id lifted from the workflow id', () => {
    expect(JSON.parse(jsonLine(entry))).toEqual({
      time: '2023-11-14T22:13:20.000Z',
      level: 'INFO',
      message: 'Activity completed',
      revisionId: 'rev-1',
      workflowId: 'approval/rev-1',
      activityType: 'publishRevision',
    });
    expect(JSON.parse(jsonLine({ ...entry, meta: { workflowId: 'experiment/exp-9' } })).experimentId).toBe('exp-9');
    expect(JSON.parse(jsonLine({ ...entry, meta: { workflowId: 'learning/apps/a/s/x' } })).jobId).toBe('learning/apps/a/s/x');
  });
  it('an "Activity failed" line carries the error message and failure type, not {}', () => {
    const error = Object.assign(new Error('S3 at http://127.0.0.1:1 cannot be reached (ECONNREFUSED)'), { name: 'ApplicationFailure', type: 'StoreUnreachable' });
    const line = JSON.parse(jsonLine({ ...entry, level: 'WARN', message: 'Activity failed', meta: { activityType: 'recordRevision', error } })) as Record<string, unknown>;
    expect(line).toMatchObject({
      errorMessage: 'S3 at http://127.0.0.1:1 cannot be reached (ECONNREFUSED)',
      failureType: 'StoreUnreachable',
      error: { message: 'S3 at http://127.0.0.1:1 cannot be reached (ECONNREFUSED)', type: 'StoreUnreachable' },
    });
    const plain = JSON.parse(jsonLine({ ...entry, meta: { error: new TypeError('x is undefined', { cause: new Error('root') }) } })) as Record<string, unknown>;
    expect(plain).toMatchObject({ failureType: 'TypeError', error: { message: 'x is undefined', type: 'TypeError', cause: { message: 'root', type: 'Error' } } });
    expect(prettyLine({ ...entry, meta: { error } })).toContain('error=StoreUnreachable: S3 at http://127.0.0.1:1 cannot be reached');
  });
  it('readable in a terminal', () => {
    expect(prettyLine(entry)).toBe('22:13:20.000 INFO  Activity completed  revisionId=rev-1 activityType=publishRevision');
  });
});
