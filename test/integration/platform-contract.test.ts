import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { startMainWorker } from '../../workers/in-process';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// A platform in another language, using only docs/platform-contract.md and schemas/:
// it stores its events with `evolution payload put`, derives the segment id, starts the
// session workflow by name, finds the work of its scope with one visibility query, and
// checks the results against the published schemas.
const fx = useMainWorker({ humanGate: 'create_only' });
const run = promisify(execFile);
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validator = (name: string) =>
  ajv.getSchema(`https://skill-evolution.local/schemas/${name}.schema.json`) ?? ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', `${name}.schema.json`), 'utf8')));
const SECRET = 'sk-live0123456789abcdefTOPSECRET';

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('platform contract, as another-language platform uses it', () => {
  it('payload put, documented segment id, session started by name, one query for the jobs of a scope, results match the schemas', async () => {
    const app = uniqueName('platform');
    const scopeKey = `users/${app}/ana`;
    const sessionId = 's1';
    const events = exampleSession('weather-report').map((e, i) => (i === 0 ? { ...e, content: `${e.content as string} (my key is ${SECRET})` } : e));
    const dir = mkdtempSync(join(tmpdir(), 'platform-'));
    writeFileSync(join(dir, 'events.json'), JSON.stringify(events));

    // 1. Store the events: validated, redacted, stored at payloads/{sha256 of the exact bytes}.
    const put = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'payload', 'put', join(dir, 'events.json'), '--json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv() },
    });
    const stored = JSON.parse(put.stdout) as { payloadRef: { sha256: string; bytes: number }; eventCount: number };
    expect(stored.eventCount).toBe(events.length);
    const bytes = await fx.store.getPayload(stored.payloadRef);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(stored.payloadRef.sha256);
    expect(bytes.byteLength).toBe(stored.payloadRef.bytes);
    expect(Buffer.from(bytes).toString('utf8')).not.toContain(SECRET);
    const bad = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'payload', 'put', join(REPO_ROOT, 'package.json')], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv() },
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad?.code).toBe(1);
    expect(bad?.stderr).toMatch(/^evolution payload: invalid session events/);

    // 2. The documented segment id and ids; the start argument and segment validate against their schemas.
    const outcome = { status: 'success', score: 0.9 };
    const segmentId = createHash('sha256')
      .update(`${scopeKey}\n${sessionId}\n${stored.payloadRef.sha256}\n${JSON.stringify(outcome)}`)
      .digest('hex')
      .slice(0, 32);
    const segment = { app, user: 'ana', sessionId, scopeMode: 'user', scopeKey, outcome, payloadRef: stored.payloadRef, eventCount: stored.eventCount, segmentId };
    const start = { idleTimeoutMs: 60_000 };
    const validSegment = validator('session-segment');
    expect(validSegment(segment), JSON.stringify(validSegment.errors)).toBe(true);
    expect(validator('session-workflow-start')(start)).toBe(true);
    await fx.w.client.workflow.signalWithStart('sessionWorkflow', {
      workflowId: `session/${scopeKey}/${sessionId}`,
      taskQueue: fx.w.taskQueue,
      args: [start],
      signal: 'submitSegment',
      signalArgs: [segment],
      searchAttributes: { EvolutionScopeKey: [scopeKey], EvolutionKind: ['session'] },
    });

    // 3. The job under its documented id; its result matches the published schema.
    const jobId = `learning/${scopeKey}/${sessionId}/${segmentId}`;
    const result = await waitForLearningJob(fx.w, jobId, { timeoutMs: 120_000 });
    const validOutcome = validator('job-outcome');
    expect(validOutcome(result), JSON.stringify(validOutcome.errors)).toBe(true);
    expect(result).toMatchObject({ jobId, scopeKey, sessionId, status: 'reviewed' });
    expect(result.revisions).toMatchObject([{ action: 'create', status: 'pending_approval' }]);
    const approvalId = `approval/${result.revisions[0]!.revisionId}`;

    // 4. "The jobs of a scope" is one visibility query; the scope's key lists every kind.
    const jobs = await until('the job in visibility', async () => {
      const ids: string[] = [];
      for await (const wf of fx.w.client.workflow.list({ query: `EvolutionScopeKey = '${scopeKey}' AND EvolutionKind = 'learning-job'` })) ids.push(wf.workflowId);
      return ids.length ? ids : undefined;
    });
    expect(jobs).toEqual([jobId]);
    const kinds = await until('session, job and approval in visibility', async () => {
      const seen = new Map<string, string>();
      for await (const wf of fx.w.client.workflow.list({ query: `EvolutionScopeKey = '${scopeKey}'` })) seen.set(wf.workflowId, String(wf.searchAttributes.EvolutionKind?.[0]));
      return seen.size >= 3 ? seen : undefined;
    });
    expect(Object.fromEntries(kinds)).toEqual({ [`session/${scopeKey}/${sessionId}`]: 'session', [jobId]: 'learning-job', [approvalId]: 'approval' });
  }, 240_000);

  it('the client starts sessions with the configured idle time; the worker takes the configured cache size', async () => {
    const config = { ...fx.w.config, runtime: { sessionIdleTimeoutMs: 90_000, maxCachedWorkflows: 7 } };
    const started = await startLearningJob(
      { client: fx.w.client, store: fx.store, config },
      { app: uniqueName('idle'), user: 'u', sessionId: 's', events: exampleSession('small-talk') },
    );
    const history = await fx.w.client.workflow.getHandle(started.sessionWorkflowId).fetchHistory();
    const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!;
    expect(JSON.parse(Buffer.from(input).toString('utf8'))).toEqual({ idleTimeoutMs: 90_000 });
    await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });

    const other = await startMainWorker(config);
    try {
      expect(other.worker.options.maxCachedWorkflows).toBe(7);
    } finally {
      await other.stop();
    }
  }, 240_000);
});
