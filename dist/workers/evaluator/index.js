"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseScoreOverrides = exports.runEvaluatorWorker = exports.createEvaluatorWorker = exports.weatherEvaluatorActivities = void 0;
// The example evaluator worker (simulated weather family) and its building blocks.
var weather_evaluator_1 = require("./weather-evaluator");
Object.defineProperty(exports, "weatherEvaluatorActivities", { enumerable: true, get: function () { return weather_evaluator_1.weatherEvaluatorActivities; } });
var worker_1 = require("./worker");
Object.defineProperty(exports, "createEvaluatorWorker", { enumerable: true, get: function () { return worker_1.createEvaluatorWorker; } });
var main_1 = require("./main");
Object.defineProperty(exports, "runEvaluatorWorker", { enumerable: true, get: function () { return main_1.runEvaluatorWorker; } });
Object.defineProperty(exports, "parseScoreOverrides", { enumerable: true, get: function () { return main_1.parseScoreOverrides; } });
//# sourceMappingURL=index.js.map