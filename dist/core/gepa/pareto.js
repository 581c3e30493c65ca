"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.meanScore = meanScore;
exports.caseLeaders = caseLeaders;
exports.dominatedCandidates = dominatedCandidates;
exports.paretoFronts = paretoFronts;
exports.parentWeights = parentWeights;
exports.bestByMean = bestByMean;
exports.sampleParent = sampleParent;
const prng_1 = require("./prng");
function meanScore(scores) {
    if (scores.length === 0)
        return 0;
    let total = 0;
    for (const s of scores)
        total += s;
    return total / scores.length;
}
function assertAligned(rows) {
    if (rows.length === 0)
        return 0;
    const width = rows[0].scores.length;
    for (const row of rows) {
        if (row.scores.length !== width) {
            throw new Error(`candidate "${row.id}" has ${row.scores.length} validation scores, expected ${width}`);
        }
    }
    return width;
}
/**
 * Per Validation case, every candidate achieving the best score on it (ties all
 * lead), in pool order. Scores are compared exactly: they come from the same
 * evaluator under the same Validation seed.
 */
function caseLeaders(rows) {
    const width = assertAligned(rows);
    const leaders = [];
    for (let c = 0; c < width; c++) {
        let best = -Infinity;
        for (const row of rows)
            best = Math.max(best, row.scores[c]);
        leaders.push(rows.filter((row) => row.scores[c] === best).map((row) => row.id));
    }
    return leaders;
}
/**
 * GEPA's pruning of instance fronts: a candidate is dominated when every case it
 * leads is also led by some other surviving candidate, so sampling it adds no
 * coverage. Candidates are examined from the lowest Validation mean up (ties: the
 * newer first, so the earlier of two equivalent candidates survives), one removal
 * at a time, until nothing more can be removed. Returns the ids removed.
 */
function dominatedCandidates(rows, leaders) {
    const order = rows
        .map((row, index) => ({ id: row.id, index, mean: meanScore(row.scores) }))
        .sort((a, b) => a.mean - b.mean || b.index - a.index)
        .map((entry) => entry.id);
    const removed = new Set();
    const isCoveredElsewhere = (id) => {
        let leadsSomething = false;
        for (const front of leaders) {
            if (!front.includes(id))
                continue;
            leadsSomething = true;
            if (!front.some((other) => other !== id && !removed.has(other)))
                return false;
        }
        return leadsSomething;
    };
    for (;;) {
        const victim = order.find((id) => !removed.has(id) && isCoveredElsewhere(id));
        if (victim === undefined)
            return removed;
        removed.add(victim);
    }
}
/** Case fronts after removing dominated candidates. */
function paretoFronts(rows) {
    const leaders = caseLeaders(rows);
    const removed = dominatedCandidates(rows, leaders);
    return leaders.map((front) => front.filter((id) => !removed.has(id)));
}
/** Sampling weight of each surviving candidate: the number of cases it leads on the pruned fronts. */
function parentWeights(rows) {
    const weights = new Map();
    for (const front of paretoFronts(rows)) {
        for (const id of front)
            weights.set(id, (weights.get(id) ?? 0) + 1);
    }
    return weights;
}
/** Candidate with the highest Validation mean; ties go to the earliest in pool order. */
function bestByMean(rows) {
    if (rows.length === 0)
        throw new Error('cannot choose from an empty candidate pool');
    let best = rows[0];
    let bestMean = meanScore(best.scores);
    for (const row of rows.slice(1)) {
        const mean = meanScore(row.scores);
        if (mean > bestMean) {
            best = row;
            bestMean = mean;
        }
    }
    return best;
}
/**
 * Frequency-weighted parent choice: one draw over the concatenated pruned fronts
 * (case order, pool order within a case), so a candidate's chance is proportional
 * to the number of cases it leads. Consumes exactly one PRNG value.
 */
function sampleParent(rows, prng) {
    if (rows.length === 0)
        throw new Error('cannot select a parent from an empty candidate pool');
    const tickets = paretoFronts(rows).flat();
    const draw = (0, prng_1.nextInt)(prng, Math.max(tickets.length, 1));
    // No tickets only happens without Validation cases, which request validation forbids.
    const parentId = tickets.length > 0 ? tickets[draw.value] : bestByMean(rows).id;
    return { parentId, prng: draw.state };
}
//# sourceMappingURL=pareto.js.map