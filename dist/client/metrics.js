"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.metricsOf = metricsOf;
exports.scopeMetrics = scopeMetrics;
const storage_1 = require("../activities/storage");
function metricsOf(revisions, droppedByReconciler = 0, deltasQuarantined = 0) {
    const failed = (r, gate) => r.gates.some((g) => g.gate === gate && g.ran && !g.passed);
    const count = (p) => revisions.filter(p).length;
    return {
        candidatesSeen: revisions.length + droppedByReconciler,
        revisionsWritten: revisions.length,
        promoted: count((r) => r.history.some((h) => h.to === 'active')),
        specRejected: count((r) => failed(r, 'spec')),
        safetyRejected: count((r) => failed(r, 'safety')),
        effectivenessHeld: count((r) => r.gates.some((g) => g.gate === 'effectiveness' && g.held)),
        humanHeld: count((r) => r.human?.held === true),
        humanApproved: count((r) => r.human?.decision === 'approved'),
        humanRejected: count((r) => r.human?.decision === 'rejected'),
        shadowBypassed: count((r) => r.shadowBypassed),
        droppedByReconciler,
        deltasQuarantined,
    };
}
async function scopeMetrics(store, scopeKey) {
    const ids = await store.listSkillIds(scopeKey);
    const revisions = (await (0, storage_1.mapLimit)(ids, 8, (id) => store.listRevisions(scopeKey, id))).flat();
    const jobs = await jobCounts(store, scopeKey);
    return metricsOf(revisions, jobs.dropped, jobs.quarantined);
}
/** From the stored job outcomes: candidates the reconciler dropped, deltas quarantined. */
async function jobCounts(store, scopeKey) {
    const keys = (await store.objects.list((0, storage_1.jobOutcomesPrefix)(scopeKey))).filter((k) => k.endsWith('.json'));
    const texts = await (0, storage_1.mapLimit)(keys, 8, (k) => store.objects.getText(k));
    const counts = { dropped: 0, quarantined: 0 };
    for (const t of texts) {
        if (!t || t.notModified)
            continue;
        const outcome = JSON.parse(t.value);
        counts.dropped += outcome.dropped?.length ?? 0;
        if (outcome.status === 'quarantined')
            counts.quarantined++;
    }
    return counts;
}
//# sourceMappingURL=metrics.js.map