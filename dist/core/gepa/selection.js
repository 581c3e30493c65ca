"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.selectWinner = selectWinner;
const pareto_1 = require("./pareto");
/**
 * Final selection after search: the highest Validation mean over the whole pool
 * (Pareto pruning only shapes parent sampling, never this). Ties go to the earliest
 * candidate, so a child must beat the seed to be selected.
 */
function selectWinner(pool) {
    const best = (0, pareto_1.bestByMean)(pool);
    return { id: best.id, validationMean: (0, pareto_1.meanScore)(best.scores), isSeed: best.id === pool[0].id };
}
//# sourceMappingURL=selection.js.map