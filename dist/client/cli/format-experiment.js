"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mean = void 0;
exports.reportText = reportText;
exports.recordsText = recordsText;
const mean = (n) => (n === undefined ? '—' : n.toFixed(4));
exports.mean = mean;
const signed = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(4)}`;
function reportText(r) {
    const lines = [
        `experiment ${r.experimentId}: ${r.status} (stop: ${r.stopReason})${r.error ? `\n  ERROR: ${r.error}` : ''}`,
        `  dataset ${r.dataset.id}@${r.dataset.version}${r.parentRevisionId ? `, parent revision ${r.parentRevisionId}` : ''}`,
        `  iterations ${r.iterations}, metric calls ${r.metricCallsUsed}, candidates ${r.candidateCount}, workflow runs ${r.runs}`,
        `  validation mean: seed ${(0, exports.mean)(r.seedValidationMean)} → best ${(0, exports.mean)(r.bestValidationMean)}${r.bestCandidateId ? ` (${r.bestCandidateId})` : ''}`,
    ];
    if (r.holdout) {
        const h = r.holdout;
        lines.push(`  holdout (${h.caseCount} cases): seed ${(0, exports.mean)(h.seedMean)} → winner ${(0, exports.mean)(h.winnerMean)} (delta ${signed(h.delta)}), critical regressions: ${h.criticalRegressions.length ? h.criticalRegressions.join(', ') : 'none'}`);
    }
    lines.push(`  promotion: ${r.promotionEligible ? 'ELIGIBLE' : 'not eligible'} — ${r.promotionReason}`);
    const s = r.submission;
    lines.push(`  submission: ${s.status}${s.revisionId ? ` ${s.revisionId} (${s.revisionStatus})` : ''} — ${s.reason}${s.approvalWorkflowId ? `\n    waiting for approval in workflow ${s.approvalWorkflowId}` : ''}`);
    lines.push(`  started ${r.startedAt}, finished ${r.finishedAt}`);
    return lines.join('\n');
}
const oneLine = (text, max = 120) => {
    const t = (text ?? '').replace(/\s+/g, ' ').trim();
    return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
/** `evolution experiment ID --records`: the iteration log, every evaluation batch case by case, the reflections. */
function recordsText(r) {
    const lines = [`iteration log (${r.log.length}):`];
    for (const e of r.log) {
        const minibatch = e.parentMinibatchTotal !== undefined ? `, minibatch ${e.parentMinibatchTotal} → ${e.childMinibatchTotal ?? '—'}` : '';
        lines.push(`  #${e.iteration} ${e.component} of ${e.parentId}: ${e.outcome}${e.childId ? ` → ${e.childId}` : ''}${minibatch}${e.childValidationMean !== undefined ? `, validation ${(0, exports.mean)(e.childValidationMean)}` : ''}, metric calls ${e.metricCallsAfter} — ${e.reason}`);
    }
    lines.push('', `evaluations (${r.evaluations.length} batches):`);
    for (const b of r.evaluations) {
        lines.push(`  ${b.recordId}  ${b.phase}${b.iteration !== undefined ? ` #${b.iteration}` : ''} ${b.split}  candidate ${b.candidateId}  seed ${b.seed}  mean ${(0, exports.mean)(b.summary.mean)} over ${b.summary.count}`);
        for (const e of b.evaluations)
            lines.push(`    ${e.caseId}  ${e.score.toFixed(4)}${e.feedback ? `  ${oneLine(e.feedback)}` : ''}`);
    }
    lines.push('', `reflections (${r.reflections.length}):`);
    for (const x of r.reflections)
        lines.push(`  #${x.iteration} ${x.component} from ${x.evaluationRecordId}: ${oneLine(JSON.stringify(x.answer), 200)}${x.screening ? `\n      screening: ${oneLine(JSON.stringify(x.screening), 200)}` : ''}`);
    return lines.join('\n');
}
//# sourceMappingURL=format-experiment.js.map