/**
 * Strict payload mode (issue 31 item 3): with payload keys set, a worker refuses plaintext
 * where it would change a workflow. A client without the keys (what anyone with Temporal
 * access but no key is) sends a signal, an update and a start; none of them acts, and the
 * workflow still takes the encrypted decision afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Client, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvolutionConfig } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { UNENCRYPTED_INPUT_FAILURE } from '../../core/payload-authenticity';
import { parsePayloadKeys } from '../../codec/keys';
import { createSkillStore, type SkillStore } from '../../storage';
import { approvalStatusQuery, decideSignal, decideUpdate, type approvalWorkflow } from '../../workflows';
import { holdRevision } from '../support/console';
import { realServices, uniqueName } from '../support/infra';
import { startMainWorker, type RunningWorker } from '../support/worker';

let w: RunningWorker;
let store: SkillStore;
let plain: Client;

beforeAll(async () => {
  const base = await realServices();
  const config: EvolutionConfig = {
    ...base,
    payloadKeys: parsePayloadKeys(`k1:${randomBytes(32).toString('base64')}`),
    payloadStrict: true,
    governance: { ...base.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false },
  };
  w = await startMainWorker(config);
  store = createSkillStore(w.config.s3);
  plain = new Client({ connection: w.client.connection, namespace: w.config.temporal.namespace });
});

afterAll(async () => w?.stop());

describe('strict payload mode', () => {
  it('a plaintext signal reaches the server but the worker ignores it; a plaintext update is rejected; the encrypted decision still works', async () => {
    const held = await holdRevision(w, store, { mode: 'app', app: uniqueName('strict') }, { ...WEATHER_SEED_SKILL, name: uniqueName('strict-skill') });
    const workflowId = approvalWorkflowId(held.revisionId);
    const forged = { decision: 'approve' as const, reviewer: 'mallory', comment: 'injected' };

    await plain.workflow.getHandle<typeof approvalWorkflow>(workflowId).signal(decideSignal, forged);
    const encrypted = w.client.workflow.getHandle<typeof approvalWorkflow>(workflowId);
    // The signal is in history; a query (answered after it) shows it changed nothing.
    await expect.poll(async () => (await encrypted.fetchHistory()).events?.some((e) => e.workflowExecutionSignaledEventAttributes) ?? false, { timeout: 10_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(await encrypted.query(approvalStatusQuery)).toMatchObject({ decided: false });
    expect((await store.findRevision(held.revisionId))!.status).toBe('pending_approval');

    const update = plain.workflow.getHandle<typeof approvalWorkflow>(workflowId).executeUpdate(decideUpdate, { args: [forged] });
    await expect(update).rejects.toThrow(WorkflowUpdateFailedError);
    await expect(update).rejects.toMatchObject({ cause: { message: expect.stringMatching(/refused-unencrypted-update/) } });
    expect(await encrypted.query(approvalStatusQuery)).toMatchObject({ decided: false });

    await encrypted.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'maria', comment: 'real' }] });
    expect(await encrypted.result()).toMatchObject({ decision: 'approved', reviewer: 'maria' });
    expect((await store.findRevision(held.revisionId))!.status).toBe('active');
    const audit = await store.listAudit(held.scopeKey, held.skillId);
    expect(audit.map((e) => e.actor)).not.toContain('mallory');
  });

  it('a workflow started with a plaintext input fails at once with UnencryptedInput, before its code runs', async () => {
    const revisionId = uniqueName('rev-plain');
    const handle = await plain.workflow.start('approvalWorkflow', {
      taskQueue: w.taskQueue,
      workflowId: approvalWorkflowId(revisionId),
      args: [{ revision: { scopeKey: 'apps/x', skillId: 'x', revisionId } }],
    });
    const failure = await handle.result().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(UNENCRYPTED_INPUT_FAILURE);
    expect(cause.nonRetryable).toBe(true);
    // It failed on its first task: no activity was scheduled.
    const history = await w.client.workflow.getHandle(approvalWorkflowId(revisionId)).fetchHistory();
    expect(history.events?.some((e) => e.activityTaskScheduledEventAttributes)).toBe(false);
  });
});
