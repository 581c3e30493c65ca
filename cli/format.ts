import type { JobFailure } from '../client/jobs';
import type { Revision } from '../core';
import { curationLines } from '../core/curation/note';

export function revisionLine(r: Revision): string {
  const name = r.spec?.name ?? r.skillId;
  const line = `${r.id}  ${r.status.padEnd(16)} ${r.action.padEnd(6)} ${name}  (${r.scopeKey}, ${r.createdAt})${r.risk?.tier === 'high' ? '  HIGH RISK' : ''}`;
  // Why it waits, so the approver sees it in the list.
  const why = r.status === 'pending_approval' ? (r.human?.reasons ?? []) : r.status === 'pending_eval' ? r.gates.filter((g) => g.held).flatMap((g) => g.reasons) : [];
  return [line, ...why.map((reason) => `    held: ${reason}`), ...curationLines(r.curation).map((c) => `    ${c}`)].join('\n');
}

export function revisionDetails(r: Revision): string {
  const lines = [
    `revision   ${r.id}`,
    `skill      ${r.spec?.name ?? r.skillId} (${r.skillId}) in ${r.scopeKey}`,
    `action     ${r.action} from ${r.source}${r.parentId ? `, parent ${r.parentId}` : ''}`,
    `status     ${r.status}${r.shadowBypassed ? ' (shadow mode bypassed the gates)' : ''}`,
    `reason     ${r.reason}`,
    ...curationLines(r.curation).map((c) => `curation   ${c}`),
    ...(r.risk ? [`risk       ${r.risk.tier}${r.risk.reasons.length ? `: ${r.risk.reasons.join('; ')}` : ''}`] : []),
    'gates:',
    ...r.gates.map((g) => `  ${g.gate.padEnd(13)} ${!g.ran ? 'skipped' : g.passed ? 'passed' : g.held ? 'held' : 'FAILED'}${g.reasons.length ? `: ${g.reasons.join('; ')}` : ''}`),
  ];
  if (r.human) {
    lines.push(`  human         ${r.human.held ? 'held' : 'not held'}${r.human.reasons.length ? `: ${r.human.reasons.join('; ')}` : ''}`);
    if (r.human.decision) lines.push(`  decision      ${r.human.decision} by ${r.human.reviewer}${r.human.comment ? ` ("${r.human.comment}")` : ''} at ${r.human.decidedAt}`);
  }
  if (r.evidence)
    lines.push(
      `evidence   holdout ${r.evidence.baselineHoldoutScore.toFixed(3)} → ${r.evidence.candidateHoldoutScore.toFixed(3)} (Δ ${r.evidence.delta.toFixed(3)}) on ${r.evidence.caseCount} cases of ${r.evidence.datasetId}@${r.evidence.datasetVersion}`,
    );
  for (const h of r.history) lines.push(`  ${h.at}  ${h.from} → ${h.to}: ${h.reason}`);
  return lines.join('\n');
}

/** Why a job failed for good: the failing step's last failure (service, address, error) and whether the cursor moved. */
export function jobFailureLines(f: JobFailure): string[] {
  const where = [f.step ? `step ${f.step}` : 'the job workflow itself', f.attempts ? `attempt ${f.attempts}` : '', f.retryState ? `retries stopped: ${f.retryState}` : '']
    .filter(Boolean)
    .join(', ');
  return [
    `  failed: ${f.error}${f.type ? ` [${f.type}]` : ''}`,
    `  root cause: ${where}${f.service ? `; ${f.service} at ${f.address} could not be reached` : ''}`,
    `  cursor: ${cursorLine(f.cursorMoved)}`,
  ];
}

/** One line for a job list: the failing step, its error, and the cursor. */
export function jobFailureSummary(f: JobFailure): string {
  return `failed${f.step ? ` at ${f.step}` : ''}: ${f.error} (cursor ${f.cursorMoved ? 'moved' : 'not moved'})`;
}

function cursorLine(moved: boolean): string {
  return moved
    ? 'moved: the delta is consumed and the decision stored; `evolution job retry` applies it'
    : 'not moved: the delta is reviewed again (re-run with `evolution job retry`, or it is reviewed with the next segment)';
}
