"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.runGates = runGates;
exports.enforcedStatus = enforcedStatus;
exports.finalStatus = finalStatus;
const effectiveness_1 = require("./effectiveness");
const human_1 = require("./human");
const safety_1 = require("./safety");
const spec_1 = require("./spec");
__exportStar(require("./types"), exports);
__exportStar(require("./spec"), exports);
__exportStar(require("./safety"), exports);
__exportStar(require("./effectiveness"), exports);
__exportStar(require("./human"), exports);
function runGates(input) {
    const { candidate, existing, outcome, settings } = input;
    const spec = guarded('spec', () => (0, spec_1.specGate)(candidate, existing, settings.spec));
    const safety = guarded('safety', () => (0, safety_1.safetyGate)(candidate));
    const automaticOk = spec.passed && safety.passed;
    const effectiveness = automaticOk
        ? guarded('effectiveness', () => (0, effectiveness_1.effectivenessGate)(candidate, outcome, settings.effectivenessThreshold))
        : skipped('effectiveness', 'skipped: spec or safety gate failed');
    const gates = [spec, safety, effectiveness];
    const human = automaticOk && effectiveness.passed ? (0, human_1.humanGate)(candidate, settings.humanGate) : undefined;
    return { gates, human, enforcedStatus: enforcedStatus(gates, human, candidate.source) };
}
function guarded(gate, run) {
    try {
        return run();
    }
    catch (e) {
        return { gate, ran: true, passed: false, held: false, reasons: [`gate error (failing closed): ${e.message}`] };
    }
}
function skipped(gate, reason) {
    return { gate, ran: false, passed: false, held: false, reasons: [reason] };
}
/**
 * The lifecycle status the gate reports imply when enforced:
 * Spec/Safety failure → rejected; Effectiveness hold → pending_eval;
 * Human hold → pending_approval; otherwise active. Missing or failed reports
 * fail closed (rejected); gepa revisions never go straight to active.
 */
function enforcedStatus(gates, human, source) {
    const report = (g) => gates.find((r) => r.gate === g);
    for (const g of ['spec', 'safety']) {
        const r = report(g);
        if (!r || !r.passed)
            return 'rejected';
    }
    const effectiveness = report('effectiveness');
    if (!effectiveness || !effectiveness.passed)
        return effectiveness?.held ? 'pending_eval' : 'rejected';
    if (human?.held || source === 'gepa')
        return 'pending_approval';
    return 'active';
}
/**
 * Apply shadow mode to a gate run. Shadow mode covers online (reviewer)
 * revisions only: every gate still runs and is recorded, but the revision is
 * published anyway. External, rollback and manual revisions are always enforced.
 */
function finalStatus(run, options) {
    const enforced = enforcedStatus(run.gates, run.human, options.source);
    if (options.shadowMode && options.source === 'reviewer' && enforced !== 'active') {
        return { status: 'active', shadowBypassed: true, enforcedStatus: enforced };
    }
    return { status: enforced, shadowBypassed: false, enforcedStatus: enforced };
}
//# sourceMappingURL=index.js.map