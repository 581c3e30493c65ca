"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SERVICE_ORDER = exports.SERVICES = exports.SEARCH_ATTRIBUTES = void 0;
exports.localS3Settings = localS3Settings;
exports.logTail = logTail;
const node_child_process_1 = require("node:child_process");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_util_1 = require("node:util");
const client_s3_1 = require("@aws-sdk/client-s3");
const binaries_1 = require("./binaries");
const paths_1 = require("./paths");
const process_1 = require("./process");
const run = (0, node_util_1.promisify)(node_child_process_1.execFile);
// Our pinned SDK supports Node 20; its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
/** Credentials and bucket of the local S3 server (the config defaults; override by env). */
function localS3Settings() {
    return {
        accessKeyId: process.env.S3_ACCESS_KEY_ID || 'evolution',
        secretAccessKey: process.env.S3_SECRET_ACCESS_KEY || 'evolution-secret',
        bucket: process.env.S3_BUCKET || 'evolution',
    };
}
/** Search attributes registered on the dev server, used to find workflows in the UI/CLI. */
exports.SEARCH_ATTRIBUTES = {
    EvolutionScopeKey: 'Keyword',
    EvolutionSkillId: 'Keyword',
    EvolutionRevisionId: 'Keyword',
    EvolutionKind: 'Keyword',
};
const temporal = {
    name: 'temporal',
    async start(log, previousPorts) {
        const bin = (0, binaries_1.ensureBinary)('temporal', log);
        const { grpc: port, ui: uiPort, http: httpPort, metrics: metricsPort } = await (0, process_1.reusePortsOrFresh)(['grpc', 'ui', 'http', 'metrics'], previousPorts);
        const dataDir = (0, node_path_1.join)((0, paths_1.stateDir)(), 'temporal');
        (0, node_fs_1.mkdirSync)(dataDir, { recursive: true });
        const logFile = (0, node_path_1.join)((0, paths_1.stateDir)(), 'logs', 'temporal.log');
        const args = [
            'server', 'start-dev',
            '--ip', '127.0.0.1',
            '--port', String(port),
            '--ui-port', String(uiPort),
            '--http-port', String(httpPort),
            '--metrics-port', String(metricsPort),
            '--db-filename', (0, node_path_1.join)(dataDir, 'temporal.sqlite'),
            '--log-level', 'warn',
            '--ui-disable-news-fetch',
            ...Object.entries(exports.SEARCH_ATTRIBUTES).flatMap(([k, v]) => ['--search-attribute', `${k}=${v}`]),
        ];
        const pid = (0, process_1.startDetached)(bin, args, { logFile });
        const state = {
            name: 'temporal', pid, ports: { grpc: port, ui: uiPort, http: httpPort, metrics: metricsPort },
            endpoint: `127.0.0.1:${port}`, logFile, dataDir, startedAt: new Date().toISOString(),
            extra: { ui: `http://127.0.0.1:${uiPort}` },
        };
        await (0, process_1.waitUntil)('Temporal dev server', () => this.healthy(state), 90_000, pid);
        return state;
    },
    async healthy(state) {
        const bin = (0, binaries_1.ensureBinary)('temporal');
        const { stdout } = await run(bin, ['operator', 'cluster', 'health', '--address', state.endpoint], { timeout: 10_000 });
        return /SERVING/.test(stdout);
    },
};
const s3 = {
    name: 's3',
    async start(log, previousPorts) {
        const bin = (0, binaries_1.ensureBinary)('weed', log);
        const names = ['s3', 's3Grpc', 'master', 'masterGrpc', 'volume', 'volumeGrpc', 'filer', 'filerGrpc', 'iceberg', 'lance', 'admin', 'adminGrpc'];
        const ports = await (0, process_1.reusePortsOrFresh)(names, previousPorts);
        const dataDir = (0, node_path_1.join)((0, paths_1.stateDir)(), 's3');
        (0, node_fs_1.mkdirSync)(dataDir, { recursive: true });
        const { accessKeyId, secretAccessKey } = localS3Settings();
        const identities = (0, node_path_1.join)(dataDir, 'identities.json');
        (0, node_fs_1.writeFileSync)(identities, JSON.stringify({
            identities: [{ name: 'evolution', credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] }],
        }));
        const logFile = (0, node_path_1.join)((0, paths_1.stateDir)(), 'logs', 's3.log');
        const args = [
            'mini', `-dir=${dataDir}`, '-ip=127.0.0.1', '-ip.bind=127.0.0.1',
            `-s3.port=${ports.s3}`, `-s3.port.grpc=${ports.s3Grpc}`, `-s3.port.iceberg=${ports.iceberg}`, `-s3.port.lance=${ports.lance}`,
            `-master.port=${ports.master}`, `-master.port.grpc=${ports.masterGrpc}`,
            `-volume.port=${ports.volume}`, `-volume.port.grpc=${ports.volumeGrpc}`,
            `-filer.port=${ports.filer}`, `-filer.port.grpc=${ports.filerGrpc}`,
            `-admin.port=${ports.admin}`, `-admin.port.grpc=${ports.adminGrpc}`, '-admin.ui=false', '-webdav=false',
            `-s3.config=${identities}`,
        ];
        const pid = (0, process_1.startDetached)(bin, args, { logFile, cwd: dataDir });
        const state = {
            name: 's3', pid, ports, endpoint: `http://127.0.0.1:${ports.s3}`, logFile, dataDir, startedAt: new Date().toISOString(),
        };
        await (0, process_1.waitUntil)('S3 server (SeaweedFS)', () => this.healthy(state), 90_000, pid);
        return state;
    },
    async healthy(state) {
        const { accessKeyId, secretAccessKey, bucket } = localS3Settings();
        const client = new client_s3_1.S3Client({ endpoint: state.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
        try {
            await client.send(new client_s3_1.CreateBucketCommand({ Bucket: bucket }));
            return true;
        }
        catch (e) {
            const name = e.name;
            return name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists';
        }
        finally {
            client.destroy();
        }
    },
};
/** Fingerprint of the model server's sources: a running server from older code is restarted. */
function modelServerBuild() {
    const dir = (0, node_path_1.join)(paths_1.REPO_ROOT, 'infra', 'model-server');
    const hash = (0, node_crypto_1.createHash)('sha256');
    for (const f of (0, node_fs_1.readdirSync)(dir).filter((n) => n.endsWith('.ts')).sort())
        hash.update(f).update((0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, f)));
    return hash.digest('hex').slice(0, 16);
}
const model = {
    name: 'model',
    async start(_log, previousPorts) {
        const { http: port } = await (0, process_1.reusePortsOrFresh)(['http'], previousPorts);
        const logFile = (0, node_path_1.join)((0, paths_1.stateDir)(), 'logs', 'model-server.log');
        const tsx = (0, node_path_1.join)(paths_1.REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
        if (!(0, node_fs_1.existsSync)(tsx))
            throw new Error('node_modules is missing: run npm ci first');
        const pid = (0, process_1.startDetached)(process.execPath, [tsx, (0, node_path_1.join)(paths_1.REPO_ROOT, 'infra', 'model-server', 'main.ts'), '--host', '127.0.0.1', '--port', String(port)], {
            logFile,
            cwd: paths_1.REPO_ROOT,
            env: { ...process.env, MODEL_SERVER_BUILD: modelServerBuild() },
        });
        const state = { name: 'model', pid, ports: { http: port }, endpoint: `http://127.0.0.1:${port}/v1`, logFile, startedAt: new Date().toISOString() };
        await (0, process_1.waitUntil)('local model server', () => this.healthy(state), 60_000, pid);
        return state;
    },
    async healthy(state) {
        const res = await fetch(`http://127.0.0.1:${state.ports.http}/health`, { signal: AbortSignal.timeout(2000) });
        return res.ok && (await res.json()).build === modelServerBuild();
    },
};
exports.SERVICES = { s3, temporal, model };
exports.SERVICE_ORDER = ['s3', 'temporal', 'model'];
function logTail(file, lines = 20) {
    try {
        return (0, node_fs_1.readFileSync)(file, 'utf8').split('\n').slice(-lines).join('\n');
    }
    catch {
        return '';
    }
}
//# sourceMappingURL=services.js.map