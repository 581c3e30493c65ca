"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadConfig = loadConfig;
const core_1 = require("../core");
const env_1 = require("../infra/env");
const connection_1 = require("./connection");
const keys_1 = require("./codec/keys");
/**
 * Configuration for every process (worker, CLI, client, demo): environment variables,
 * falling back to the endpoints of the local services started by `evolution infra up`.
 * Set EVOLUTION_IGNORE_LOCAL_INFRA=1 to use environment variables and defaults only.
 * Temporal's address, namespace, API key and TLS come from a Temporal config profile and the
 * standard TEMPORAL_* variables (client/connection.ts).
 */
function loadConfig(env = process.env) {
    const local = env.EVOLUTION_IGNORE_LOCAL_INFRA === '1' ? {} : (0, env_1.infraEnv)();
    // A chosen Temporal profile names its own address: the local dev server must not override it.
    if ((env.TEMPORAL_PROFILE || env.TEMPORAL_CONFIG_FILE) && !env.TEMPORAL_ADDRESS)
        delete local.TEMPORAL_ADDRESS;
    const merged = { ...local, ...env };
    const profile = (0, connection_1.resolveTemporalProfile)(merged);
    const config = (0, core_1.parseConfig)({ ...merged, TEMPORAL_ADDRESS: profile.address ?? merged.TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: profile.namespace ?? merged.TEMPORAL_NAMESPACE });
    const payloadKeys = (0, keys_1.loadPayloadKeys)(merged.EVOLUTION_PAYLOAD_KEYS);
    return {
        ...config,
        ...(payloadKeys ? { payloadKeys } : {}),
        ...(Object.keys(profile.connection).length ? { temporal: { ...config.temporal, connection: profile.connection } } : {}),
    };
}
//# sourceMappingURL=config.js.map