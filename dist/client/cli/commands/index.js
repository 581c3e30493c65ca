"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMMANDS = void 0;
const approvals_1 = require("./approvals");
const console_1 = require("./console");
const infra_1 = require("./infra");
const learning_1 = require("./learning");
const operations_1 = require("./operations");
const optimize_1 = require("./optimize");
const payloads_1 = require("./payloads");
const skills_1 = require("./skills");
/** Every CLI command by name; each group lives in its own file beside this one. */
exports.COMMANDS = {
    ...learning_1.learningCommands,
    ...approvals_1.approvalCommands,
    ...skills_1.skillCommands,
    ...optimize_1.optimizeCommands,
    ...infra_1.infraCommands,
    ...payloads_1.payloadCommands,
    ...console_1.consoleCommands,
    ...operations_1.operationsCommands,
};
//# sourceMappingURL=index.js.map