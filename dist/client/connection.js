"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.connectTemporal = connectTemporal;
const client_1 = require("@temporalio/client");
const reachability_1 = require("./reachability");
async function connectTemporal(config) {
    await (0, reachability_1.ensureReachable)(config, ['temporal']); // one clear line in 2 s, not the SDK's 10 s deadline
    const connection = await client_1.Connection.connect({ address: config.temporal.address });
    const client = new client_1.Client({ connection, namespace: config.temporal.namespace });
    return { client, close: () => connection.close() };
}
//# sourceMappingURL=connection.js.map