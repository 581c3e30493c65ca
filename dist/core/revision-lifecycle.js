"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REVISION_TRANSITIONS = void 0;
exports.canTransition = canTransition;
exports.judgeTransition = judgeTransition;
exports.isTerminalStatus = isTerminalStatus;
exports.illegalTransitionMessage = illegalTransitionMessage;
/**
 * The revision lifecycle of DESIGN.md ("Revision lifecycle"), as data:
 *
 *   pending          → rejected | pending_eval | pending_approval | active
 *   pending_eval     → active | rejected | pending_approval   (an evaluator may decide later)
 *   pending_approval → active | rejected
 *   active           → archived                               (superseded, rolled back, deleted)
 *   archived         → active                                 (rollback target)
 *   rejected         → (terminal)
 */
exports.REVISION_TRANSITIONS = {
    pending: ['rejected', 'pending_eval', 'pending_approval', 'active'],
    pending_eval: ['active', 'rejected', 'pending_approval'],
    pending_approval: ['active', 'rejected'],
    active: ['archived'],
    archived: ['active'],
    rejected: [],
};
function canTransition(from, to) {
    return exports.REVISION_TRANSITIONS[from].includes(to);
}
function judgeTransition(from, to) {
    if (from === to)
        return 'noop';
    return canTransition(from, to) ? 'apply' : 'illegal';
}
/** A status no revision ever leaves. */
function isTerminalStatus(status) {
    return exports.REVISION_TRANSITIONS[status].length === 0;
}
/** Human-readable reason a move is refused, naming the moves that would be allowed. */
function illegalTransitionMessage(revisionId, from, to) {
    const allowed = exports.REVISION_TRANSITIONS[from];
    const options = allowed.length ? `allowed from ${from}: ${allowed.join(', ')}` : `${from} is terminal`;
    return `revision ${revisionId} cannot move from ${from} to ${to} (${options})`;
}
//# sourceMappingURL=revision-lifecycle.js.map