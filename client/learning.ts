import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { LearningJobRequestSchema, redactOutcome, SessionEventsSchema, scopeKey as scopeKeyOf, type EvolutionConfig, type LearningJobRequest, type Segment } from '../core';
import { publicationsOf, segmentIdFor, type JobOutcome } from '../core/governance';
import type { SkillStore } from '../storage';
import { SESSION_WORKFLOW, submitSegmentSignal, type SessionWorkflow } from '../core/workflow-api';
import { InputError, parseInput, StateError } from '../core/errors';
import { failedJobOfSegment, retryHint } from './job-retry';
import { storeSessionEvents } from './payloads';
import { approvalWorkflowId, learningJobWorkflowId, sessionWorkflowId } from '../core/workflow-ids';
import { searchAttributes, workflowIdsQuery } from '../core/search-attributes';

export interface StartedLearningJob {
  sessionWorkflowId: string;
  jobWorkflowId: string;
  segmentId: string;
  scopeKey: string;
}

/**
 * Submits one finished session segment. Returns as soon as Temporal has durably accepted
 * it (signal-with-start of the session entity); the review runs asynchronously. `events`
 * are the session's messages so far (append-only); they are always claim-checked to S3,
 * so history holds only a reference. Submitting the same events again is a no-op.
 */
export async function startLearningJob(deps: { client: Client; store: SkillStore; config: EvolutionConfig }, request: unknown): Promise<StartedLearningJob> {
  const req: LearningJobRequest = parseInput(LearningJobRequestSchema, request, 'learning job request');
  const scopeMode = req.scopeMode ?? deps.config.governance.defaultScopeMode;
  let scopeKey: string;
  try {
    scopeKey = scopeKeyOf({ mode: scopeMode, app: req.app, user: req.user });
  } catch (e) {
    throw new InputError(`invalid scope: ${(e as Error).message}`);
  }
  // Credentials never reach storage: the stored events are redacted (a given payloadRef is the platform's own).
  const { payloadRef, eventCount } = req.payloadRef
    ? { payloadRef: req.payloadRef, eventCount: await countEvents(deps.store, req.payloadRef) }
    : await storeSessionEvents(deps.store, req.events ?? []);
  const segmentId = segmentIdFor({ scopeKey, sessionId: req.sessionId, payloadSha256: payloadRef.sha256, outcome: req.outcome });
  // The outcome travels in workflow history and the reviewer prompt: its free text is redacted too
  // (the documented segmentId derivation stays over the outcome as submitted).
  const outcome = redactOutcome(req.outcome);
  const segment: Segment = { app: req.app, user: req.user, sessionId: req.sessionId, scopeMode, scopeKey, outcome, payloadRef, eventCount, segmentId };
  const workflowId = sessionWorkflowId(scopeKey, req.sessionId);
  const jobWorkflowId = learningJobWorkflowId({ scopeKey, sessionId: req.sessionId, segmentId });
  // The session skips a segment it has seen: a segment whose job failed is named, not ignored.
  const failed = await failedJobOfSegment(deps.client, jobWorkflowId);
  if (failed)
    throw new StateError(`learning job ${jobWorkflowId} of this segment already ran and ${failed === 'failed' ? 'failed' : `was ${failed}`}: ${retryHint(jobWorkflowId)}`);
  await deps.client.workflow.signalWithStart<SessionWorkflow, [Segment]>(SESSION_WORKFLOW, {
    workflowId,
    taskQueue: deps.config.temporal.taskQueue,
    args: [{ idleTimeoutMs: deps.config.runtime.sessionIdleTimeoutMs }],
    signal: submitSegmentSignal,
    signalArgs: [segment],
    searchAttributes: searchAttributes({ kind: 'session', scopeKey }),
  });
  return { sessionWorkflowId: workflowId, jobWorkflowId, segmentId, scopeKey };
}

async function countEvents(store: SkillStore, ref: { sha256: string; bytes: number }): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(await store.getPayloadText(ref));
  } catch (e) {
    throw new InputError(`payload ${ref.sha256} cannot be used: ${(e as Error).message}`);
  }
  return parseInput(SessionEventsSchema, json, `session events in payload ${ref.sha256}`).length;
}

/** How long waitForLearningJob waits for the scope's index after the job (one burst of the index workflow, normally). */
const INDEX_WAIT_MS = 30_000;
/** How long it waits for Temporal's visibility to list the job closed and its approvals (normally well under a second). */
const VISIBILITY_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for a learning job's outcome (the job may not have started yet: its session runs
 * segments in order), then until the scope's index includes what the job published, so an
 * agent's next refresh sees it (read-your-writes), and until Temporal's visibility lists the
 * job as closed and its held revisions as pending, so `jobs` and Pending show them. The index
 * normally follows within one burst; after 30 s (visibility: 10 s) the outcome is returned
 * all the same (they still follow).
 */
export async function waitForLearningJob(deps: { client: Client; store: SkillStore }, jobWorkflowId: string, opts: { timeoutMs?: number } = {}): Promise<JobOutcome> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  for (;;) {
    try {
      const outcome = (await deps.client.workflow.getHandle(jobWorkflowId).result()) as JobOutcome;
      await Promise.all([untilIndexed(deps.store, outcome), untilListed(deps.client, jobWorkflowId, outcome)]);
      return outcome;
    } catch (e) {
      if (!(e instanceof WorkflowNotFoundError) || Date.now() > deadline) throw e;
      await sleep(250);
    }
  }
}

/**
 * Waits (at most VISIBILITY_WAIT_MS) until Temporal's visibility, which trails a start or a
 * close, lists the job as closed and the approval of every revision it held: what `jobs`,
 * `pending` and the console read. One query per look. The outcome stands whatever this
 * finds: a server that cannot list (the time-skipping test server) or a query that fails
 * ends the wait, not the call.
 */
async function untilListed(client: Client, jobWorkflowId: string, outcome: JobOutcome): Promise<void> {
  const approvals = outcome.revisions.filter((r) => r.status === 'pending_approval').map((r) => approvalWorkflowId(r.revisionId));
  const query = workflowIdsQuery([jobWorkflowId, ...approvals]);
  const deadline = Date.now() + VISIBILITY_WAIT_MS;
  // Looks 0.1, 0.2, 0.4, 0.8 s apart, then every second: many waiters on a busy server stay a light load.
  for (let pause = 100; ; pause = Math.min(2 * pause, 1_000)) {
    const listed = new Set<string>();
    try {
      for await (const w of client.workflow.list({ query, pageSize: 100 })) if (w.workflowId !== jobWorkflowId || w.status.name !== 'RUNNING') listed.add(w.workflowId);
    } catch {
      return;
    }
    if (listed.has(jobWorkflowId) && approvals.every((id) => listed.has(id))) return;
    if (Date.now() > deadline) return;
    await sleep(pause);
  }
}

/** Waits (at most INDEX_WAIT_MS) until the scope's index includes what the job published. */
async function untilIndexed(store: SkillStore, outcome: JobOutcome): Promise<void> {
  const published = publicationsOf(outcome);
  if (published.length) await store.readScopeIndexIncluding(outcome.scopeKey, published, { timeoutMs: INDEX_WAIT_MS });
}
