"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadConfig = loadConfig;
const core_1 = require("../core");
const env_1 = require("../infra/env");
/**
 * Configuration for every process (worker, CLI, client, demo): environment variables,
 * falling back to the endpoints of the local services started by `evolution infra up`.
 * Set EVOLUTION_IGNORE_LOCAL_INFRA=1 to use environment variables and defaults only.
 */
function loadConfig(env = process.env) {
    const local = env.EVOLUTION_IGNORE_LOCAL_INFRA === '1' ? {} : (0, env_1.infraEnv)();
    return (0, core_1.parseConfig)({ ...local, ...env });
}
//# sourceMappingURL=config.js.map