"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.effectivenessGate = effectivenessGate;
/**
 * Effectiveness gate: did the task that produced the candidate go well enough
 * to trust learning from it? It reads the caller's Outcome only; it never
 * replays anything. A failed run (fail/agent_error) or a score below the
 * threshold holds the revision for evaluation (pending_eval). No outcome
 * passes, which means "no evidence of failure", not "proven effective".
 */
function effectivenessGate(candidate, outcome, threshold) {
    if (candidate.action === 'delete') {
        return { gate: 'effectiveness', ran: true, passed: true, held: false, reasons: ['delete revisions are not judged by outcome'] };
    }
    if (!outcome) {
        return { gate: 'effectiveness', ran: true, passed: true, held: false, reasons: ['no outcome attached: passed without evidence of effectiveness'] };
    }
    const reasons = [];
    if (outcome.status === 'fail' || outcome.status === 'agent_error')
        reasons.push(`session outcome is "${outcome.status}"; held for evaluation`);
    if (outcome.score !== undefined && outcome.score < threshold) {
        reasons.push(`session score ${outcome.score.toFixed(2)} is below the threshold ${threshold.toFixed(2)}`);
    }
    const held = reasons.length > 0;
    return { gate: 'effectiveness', ran: true, passed: !held, held, reasons };
}
//# sourceMappingURL=effectiveness.js.map