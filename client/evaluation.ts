/**
 * Evaluation runs (`evolution evaluate`, workflows/evaluation.ts) as the CLI and the console
 * read them: the workflow's status and progress query, and what the run recorded in S3.
 */
import { WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import { EvaluationRunRecordSchema, evaluationKeys, type EvaluationReport, type EvaluationRunRecord } from '../core/evaluation';
import { evaluationProgressQuery, type EvaluationRunProgress } from '../core/workflow-api/evaluation';
import { evaluationRunWorkflowId } from '../core/workflow-ids';
import type { SkillStore } from '../storage';

/** A query needs a worker: without one it would wait; a run whose worker is gone answers from its records instead. */
const QUERY_TIMEOUT_MS = 5_000;

export interface EvaluationRunView {
  runId: string;
  record?: EvaluationRunRecord;
  /** Undefined when Temporal has no workflow of this run (never started there, or past retention). */
  workflowStatus?: WorkflowExecutionStatusName;
  /** The workflow's own progress (query), when a worker answered. */
  progress?: EvaluationRunProgress;
  /** Why there is no progress although the run is running (no worker polls its task queue). */
  progressUnavailable?: string;
  /** Cases recorded in S3 so far. */
  recordedCases: number;
  /** The report, once written. */
  report?: EvaluationReport;
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  p.catch(() => undefined);
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export async function evaluationProgress(client: Client, runId: string, timeoutMs = QUERY_TIMEOUT_MS): Promise<EvaluationRunProgress> {
  return withTimeout(client.workflow.getHandle(evaluationRunWorkflowId(runId)).query(evaluationProgressQuery), timeoutMs, 'no worker answered the progress query');
}

export async function readEvaluationRun(store: SkillStore, runId: string): Promise<EvaluationRunRecord | undefined> {
  return (await store.objects.getJson(evaluationKeys.run(runId), EvaluationRunRecordSchema))?.value;
}

export async function getEvaluationRun(deps: { client: Client; store: SkillStore }, runId: string): Promise<EvaluationRunView> {
  const view: EvaluationRunView = { runId, recordedCases: 0 };
  const record = await readEvaluationRun(deps.store, runId);
  if (record) view.record = record;
  try {
    view.workflowStatus = (await deps.client.workflow.getHandle(evaluationRunWorkflowId(runId)).describe()).status.name;
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
  if (view.workflowStatus === 'RUNNING') {
    try {
      view.progress = await evaluationProgress(deps.client, runId);
    } catch (e) {
      view.progressUnavailable = (e as Error).message;
    }
  }
  view.recordedCases = (await deps.store.objects.list(`${evaluationKeys.runPrefix(runId)}cases/`)).length;
  if (view.workflowStatus !== 'RUNNING') {
    const report = await deps.store.objects.getText(evaluationKeys.reportJson(runId));
    if (report && !report.notModified) view.report = JSON.parse(report.value) as EvaluationReport;
  }
  return view;
}

/** Every run's record, newest first. */
export async function listEvaluationRuns(store: SkillStore): Promise<EvaluationRunRecord[]> {
  const ids = await store.objects.listChildren(evaluationKeys.all);
  const records = await Promise.all(ids.map((id) => readEvaluationRun(store, id).catch(() => undefined)));
  return records.filter((r): r is EvaluationRunRecord => r !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** The report page as stored (rendered by core/evaluation/report-html.ts, every value escaped there). */
export async function evaluationReportHtml(store: SkillStore, runId: string): Promise<string | undefined> {
  const got = await store.objects.getText(evaluationKeys.reportHtml(runId));
  return got && !got.notModified ? got.value : undefined;
}
