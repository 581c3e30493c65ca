"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * CLI: tsx infra/model-server/main.ts [--host 127.0.0.1] [--port 8787] [--fault MODE]
 *      [--fault-rate N] [--fault-delay-ms MS]
 * Prints `model-server listening on http://HOST:PORT` once ready (the real port when --port 0).
 */
const node_util_1 = require("node:util");
const faults_1 = require("./faults");
const server_1 = require("./server");
const USAGE = `usage: tsx infra/model-server/main.ts [--host HOST] [--port PORT] [--fault ${faults_1.FAULT_MODES.join('|')}] [--fault-rate N] [--fault-delay-ms MS]

A deterministic stand-in for an OpenAI-compatible model (skill reviewer and reflector).
  --host            bind address (default 127.0.0.1)
  --port            port, 0 = any free port (default 8787)
  --fault           inject this fault into every chat request (or a fraction, see --fault-rate)
  --fault-rate      fraction in (0,1] of requests that get --fault, spread deterministically (default 1)
  --fault-delay-ms  delay for --fault slow (default 90000)`;
function fail(message) {
    process.stderr.write(`model-server: ${message}\n${USAGE}\n`);
    process.exit(2);
}
function parseNumber(flag, raw, check) {
    if (raw === undefined)
        return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
        fail(`invalid ${flag}: ${raw}`);
    return n;
}
async function main() {
    let values;
    try {
        ({ values } = (0, node_util_1.parseArgs)({
            options: {
                host: { type: 'string', default: '127.0.0.1' },
                port: { type: 'string', default: '8787' },
                fault: { type: 'string' },
                'fault-rate': { type: 'string' },
                'fault-delay-ms': { type: 'string' },
                help: { type: 'boolean', short: 'h' },
            },
            strict: true,
        }));
    }
    catch (e) {
        fail(e.message);
    }
    if (values.help) {
        process.stdout.write(`${USAGE}\n`);
        return;
    }
    const port = parseNumber('--port', values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
    const rate = parseNumber('--fault-rate', values['fault-rate'], (n) => n > 0 && n <= 1);
    const delayMs = parseNumber('--fault-delay-ms', values['fault-delay-ms'], (n) => Number.isInteger(n) && n >= 0);
    let defaultFault;
    if (values.fault !== undefined) {
        if (!faults_1.FAULT_MODES.includes(values.fault))
            fail(`unknown --fault mode: ${values.fault}`);
        defaultFault = { mode: values.fault, rate, delayMs };
    }
    else if (rate !== undefined || delayMs !== undefined) {
        fail('--fault-rate and --fault-delay-ms need --fault');
    }
    const server = await (0, server_1.startModelServer)({ host: values.host, port, defaultFault });
    process.stdout.write(`model-server listening on ${server.url}\n`);
    const shutdown = (signal) => {
        process.stderr.write(`model-server: ${signal}, shutting down\n`);
        server.close().then(() => process.exit(0), () => process.exit(1));
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
}
main().catch((e) => {
    process.stderr.write(`model-server: failed to start: ${e?.message ?? String(e)}\n`);
    process.exit(1);
});
//# sourceMappingURL=main.js.map