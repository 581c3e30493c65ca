import type { ExperimentReport } from '../../workflows';

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
    lines.push(`  holdout (${h.caseCount} cases): seed ${mean(h.seedMean)} → winner ${mean(h.winnerMean)} (delta ${signed(h.delta)}), critical regressions: ${h.criticalRegressions.length ? h.criticalRegressions.join(', ') : 'none'}`);
  }
  lines.push(`  promotion: ${r.promotionEligible ? 'ELIGIBLE' : 'not eligible'} — ${r.promotionReason}`);
  const s = r.submission;
  lines.push(`  submission: ${s.status}${s.revisionId ? ` ${s.revisionId} (${s.revisionStatus})` : ''} — ${s.reason}${s.approvalWorkflowId ? `\n    waiting for approval in workflow ${s.approvalWorkflowId}` : ''}`);
  lines.push(`  started ${r.startedAt}, finished ${r.finishedAt}`);
  return lines.join('\n');
}
