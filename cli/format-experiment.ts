import type { EvaluationRecord, ReflectionRecord } from '../storage/experiment-records';
import type { IterationLogEntry } from '../core';
import type { ExperimentReport } from '../core/workflow-api';

export const mean = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(4));
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(4)}`;

export function reportText(r: ExperimentReport): string {
  const lines = [
    `experiment ${r.experimentId}: ${r.status} (stop: ${r.stopReason})${r.error ? `\n  ERROR: ${r.error}` : ''}`,
    `  dataset ${r.dataset.id}@${r.dataset.version}${r.parentRevisionId ? `, parent revision ${r.parentRevisionId}` : ''}`,
    `  iterations ${r.iterations}, metric calls ${r.metricCallsUsed}, candidates ${r.candidateCount}, workflow runs ${r.runs}`,
    `  validation mean: seed ${mean(r.seedValidationMean)} → best ${mean(r.bestValidationMean)}${r.bestCandidateId ? ` (${r.bestCandidateId})` : ''}`,
  ];
  if (r.holdout) {
    const h = r.holdout;
    lines.push(
      `  holdout (${h.caseCount} cases): seed ${mean(h.seedMean)} → winner ${mean(h.winnerMean)} (delta ${signed(h.delta)}), critical regressions: ${h.criticalRegressions.length ? h.criticalRegressions.join(', ') : 'none'}`,
    );
  }
  lines.push(`  promotion: ${r.promotionEligible ? 'ELIGIBLE' : 'not eligible'} — ${r.promotionReason}`);
  const s = r.submission;
  lines.push(
    `  submission: ${s.status}${s.revisionId ? ` ${s.revisionId} (${s.revisionStatus})` : ''} — ${s.reason}${s.approvalWorkflowId ? `\n    waiting for approval in workflow ${s.approvalWorkflowId}` : ''}`,
  );
  lines.push(`  started ${r.startedAt}, finished ${r.finishedAt}`);
  return lines.join('\n');
}

const oneLine = (text: string | undefined, max = 120) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** `evolution experiment ID --records`: the iteration log, every evaluation batch case by case, the reflections. */
export function recordsText(r: { log: IterationLogEntry[]; evaluations: EvaluationRecord[]; reflections: ReflectionRecord[] }): string {
  const lines = [`iteration log (${r.log.length}):`];
  for (const e of r.log) {
    const minibatch = e.parentMinibatchTotal !== undefined ? `, minibatch ${e.parentMinibatchTotal} → ${e.childMinibatchTotal ?? '—'}` : '';
    lines.push(
      `  #${e.iteration} ${e.component} of ${e.parentId}: ${e.outcome}${e.childId ? ` → ${e.childId}` : ''}${minibatch}${e.childValidationMean !== undefined ? `, validation ${mean(e.childValidationMean)}` : ''}, metric calls ${e.metricCallsAfter} — ${e.reason}`,
    );
  }
  lines.push('', `evaluations (${r.evaluations.length} batches):`);
  for (const b of r.evaluations) {
    lines.push(
      `  ${b.recordId}  ${b.phase}${b.iteration !== undefined ? ` #${b.iteration}` : ''} ${b.split}  candidate ${b.candidateId}  seed ${b.seed}  mean ${mean(b.summary.mean)} over ${b.summary.count}`,
    );
    for (const e of b.evaluations) lines.push(`    ${e.caseId}  ${e.score.toFixed(4)}${e.feedback ? `  ${oneLine(e.feedback)}` : ''}`);
  }
  lines.push('', `reflections (${r.reflections.length}):`);
  for (const x of r.reflections)
    lines.push(
      `  #${x.iteration} ${x.component} from ${x.evaluationRecordId}: ${oneLine(JSON.stringify(x.answer), 200)}${x.screening ? `\n      screening: ${oneLine(JSON.stringify(x.screening), 200)}` : ''}`,
    );
  return lines.join('\n');
}
