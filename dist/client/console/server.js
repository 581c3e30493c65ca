"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startConsole = startConsole;
const node_server_1 = require("@hono/node-server");
const app_1 = require("./app");
/** Serves the console on `host:port` (port 0 picks a free one); resolves once it listens. */
async function startConsole(deps, settings, opts = {}) {
    const app = (0, app_1.createConsoleApp)(deps, settings, opts);
    const server = await new Promise((resolve, reject) => {
        const s = (0, node_server_1.serve)({ fetch: app.fetch, hostname: settings.host, port: settings.port }, () => resolve(s));
        s.once('error', reject);
    });
    const { port } = server.address();
    const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host;
    return {
        url: `http://${host}:${port}`,
        close: () => new Promise((resolve) => {
            server.closeAllConnections?.();
            server.close(() => resolve());
        }),
    };
}
//# sourceMappingURL=server.js.map