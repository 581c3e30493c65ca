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
exports.budgetStopReason = exports.spendMetricCalls = exports.remainingMetricCalls = exports.planBudget = exports.minibatchSize = exports.holdoutReserve = exports.holdoutCalls = exports.canStartIteration = exports.MetricBudgetError = void 0;
// GEPA offline optimization: the pure, deterministic parts (safe in workflow code).
__exportStar(require("./prng"), exports);
__exportStar(require("./pareto"), exports);
__exportStar(require("./minibatch"), exports);
__exportStar(require("./components"), exports);
var budget_1 = require("./budget");
Object.defineProperty(exports, "MetricBudgetError", { enumerable: true, get: function () { return budget_1.MetricBudgetError; } });
Object.defineProperty(exports, "canStartIteration", { enumerable: true, get: function () { return budget_1.canStartIteration; } });
Object.defineProperty(exports, "holdoutCalls", { enumerable: true, get: function () { return budget_1.holdoutCalls; } });
Object.defineProperty(exports, "holdoutReserve", { enumerable: true, get: function () { return budget_1.holdoutReserve; } });
Object.defineProperty(exports, "minibatchSize", { enumerable: true, get: function () { return budget_1.minibatchSize; } });
Object.defineProperty(exports, "planBudget", { enumerable: true, get: function () { return budget_1.planBudget; } });
Object.defineProperty(exports, "remainingMetricCalls", { enumerable: true, get: function () { return budget_1.remainingMetricCalls; } });
Object.defineProperty(exports, "spendMetricCalls", { enumerable: true, get: function () { return budget_1.spendMetricCalls; } });
Object.defineProperty(exports, "budgetStopReason", { enumerable: true, get: function () { return budget_1.searchStopReason; } });
__exportStar(require("./evaluations"), exports);
__exportStar(require("./acceptance"), exports);
__exportStar(require("./selection"), exports);
__exportStar(require("./promotion"), exports);
__exportStar(require("./state"), exports);
__exportStar(require("./result"), exports);
__exportStar(require("./reflection-prompt"), exports);
__exportStar(require("./simulated-weather"), exports);
__exportStar(require("./redact-dataset"), exports);
__exportStar(require("./submission-parent"), exports);
//# sourceMappingURL=index.js.map