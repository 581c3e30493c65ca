"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TemporalConnectionError = void 0;
exports.resolveTemporalProfile = resolveTemporalProfile;
exports.temporalConnectionOptions = temporalConnectionOptions;
exports.explainConnectError = explainConnectError;
exports.connectTemporal = connectTemporal;
const node_fs_1 = require("node:fs");
const node_crypto_1 = require("node:crypto");
const node_tls_1 = require("node:tls");
const client_1 = require("@temporalio/client");
const envconfig_1 = require("@temporalio/envconfig");
const connection_probe_1 = require("./connection-probe");
const reachability_1 = require("./reachability");
const data_converter_1 = require("./codec/data-converter");
const tracing_1 = require("./tracing");
const core_1 = require("../core");
/** The variable (or profile key) a TLS file came from, for error messages. */
const SOURCES = {
    serverCACert: { env: 'TEMPORAL_TLS_SERVER_CA_CERT', key: 'server_ca_cert' },
    clientCert: { env: 'TEMPORAL_TLS_CLIENT_CERT', key: 'client_cert' },
    clientKey: { env: 'TEMPORAL_TLS_CLIENT_KEY', key: 'client_key' },
};
function withoutEmpty(env) {
    return Object.fromEntries(Object.entries(env).filter((e) => e[1] !== undefined && e[1] !== ''));
}
function label(file, source, env) {
    const s = SOURCES[file];
    const kind = 'path' in source ? 'PATH' : 'DATA';
    const name = env[`${s.env}_${kind}`] !== undefined ? `${s.env}_${kind}` : `tls.${s.key}_${kind.toLowerCase()} of the Temporal config profile`;
    return 'path' in source ? `${name} (${source.path})` : name;
}
function read(file, source, env) {
    if ('data' in source)
        return Buffer.from(source.data);
    try {
        return (0, node_fs_1.readFileSync)(source.path);
    }
    catch (e) {
        const code = e.code;
        throw new core_1.ConfigError(`${label(file, source, env)}: ${code === 'ENOENT' ? 'file not found' : code === 'EACCES' ? 'permission denied' : e.message}`);
    }
}
function checkCertificate(file, pem, source, env) {
    try {
        new node_crypto_1.X509Certificate(pem);
    }
    catch (e) {
        throw new core_1.ConfigError(`${label(file, source, env)}: not a PEM certificate (${e.message})`);
    }
}
function tlsSettings(profile, env) {
    const tls = profile.tls;
    if (tls === undefined)
        return profile.apiKey !== undefined ? true : undefined;
    if (tls.disabled === true)
        return false;
    const ca = tls.serverCACert && read('serverCACert', tls.serverCACert, env);
    if (ca && tls.serverCACert)
        checkCertificate('serverCACert', ca, tls.serverCACert, env);
    const crt = tls.clientCert && read('clientCert', tls.clientCert, env);
    if (crt && tls.clientCert)
        checkCertificate('clientCert', crt, tls.clientCert, env);
    const key = tls.clientKey && read('clientKey', tls.clientKey, env);
    if (key && tls.clientKey) {
        try {
            (0, node_crypto_1.createPrivateKey)(key);
        }
        catch (e) {
            throw new core_1.ConfigError(`${label('clientKey', tls.clientKey, env)}: not a PEM private key (${e.message})`);
        }
    }
    if (!!crt !== !!key) {
        throw new core_1.ConfigError(`mutual TLS needs both a client certificate and its key: set ${crt ? 'TEMPORAL_TLS_CLIENT_KEY_PATH' : 'TEMPORAL_TLS_CLIENT_CERT_PATH'} too`);
    }
    if (crt && key && tls.clientKey) {
        try {
            (0, node_tls_1.createSecureContext)({ cert: crt, key });
        }
        catch (e) {
            throw new core_1.ConfigError(`${label('clientKey', tls.clientKey, env)} does not belong to the client certificate (${e.message})`);
        }
    }
    return {
        ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
        ...(ca ? { serverRootCACertificate: ca } : {}),
        ...(crt && key ? { clientCertPair: { crt, key } } : {}),
    };
}
/** Reads the Temporal profile + TEMPORAL_* variables (empty values count as unset). */
function resolveTemporalProfile(rawEnv) {
    const env = withoutEmpty(rawEnv);
    if (env.TEMPORAL_CONFIG_FILE && !(0, node_fs_1.existsSync)(env.TEMPORAL_CONFIG_FILE))
        throw new core_1.ConfigError(`TEMPORAL_CONFIG_FILE (${env.TEMPORAL_CONFIG_FILE}): file not found`);
    let profile;
    try {
        profile = (0, envconfig_1.loadClientConfigProfile)({ overrideEnvVars: env });
    }
    catch (e) {
        const err = e;
        if (err.code === 'ENOENT' && env.TEMPORAL_CONFIG_FILE)
            throw new core_1.ConfigError(`TEMPORAL_CONFIG_FILE (${env.TEMPORAL_CONFIG_FILE}): file not found`);
        throw new core_1.ConfigError(`Temporal config profile${env.TEMPORAL_PROFILE ? ` "${env.TEMPORAL_PROFILE}"` : ''}: ${err.message}`);
    }
    const tls = tlsSettings(profile, env);
    const connection = {
        ...(profile.apiKey ? { apiKey: profile.apiKey } : {}),
        ...(tls !== undefined ? { tls } : {}),
        ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length ? { metadata: profile.grpcMeta } : {}),
    };
    return { address: profile.address, namespace: profile.namespace, connection };
}
/** Options for `Connection.connect` and `NativeConnection.connect` (same shape). */
function temporalConnectionOptions(config) {
    const c = config.temporal.connection ?? {};
    const tls = c.tls;
    return {
        address: config.temporal.address,
        ...(c.apiKey ? { apiKey: c.apiKey } : {}),
        ...(c.metadata ? { metadata: c.metadata } : {}),
        ...(tls === undefined
            ? {}
            : typeof tls === 'boolean'
                ? { tls }
                : {
                    tls: {
                        ...(tls.serverNameOverride ? { serverNameOverride: tls.serverNameOverride } : {}),
                        ...(tls.serverRootCACertificate ? { serverRootCACertificate: Buffer.from(tls.serverRootCACertificate) } : {}),
                        ...(tls.clientCertPair ? { clientCertPair: { crt: Buffer.from(tls.clientCertPair.crt), key: Buffer.from(tls.clientCertPair.key) } } : {}),
                    },
                }),
    };
}
/** Temporal could not be reached: says where, how, and the likely fix. */
class TemporalConnectionError extends Error {
    name = 'TemporalConnectionError';
}
exports.TemporalConnectionError = TemporalConnectionError;
function describe(config) {
    const tls = config.temporal.connection?.tls;
    const mode = !tls ? 'without TLS' : tls === true || !tls.clientCertPair ? 'with TLS' : 'with mutual TLS';
    return `Temporal at ${config.temporal.address} (namespace ${config.temporal.namespace}, ${mode})`;
}
/** A hint from the failure text (the worker's Rust client is specific), else from a TLS probe. */
function hintFromCause(cause) {
    const msg = cause.toLowerCase();
    if (/certificaterequired|certificate required/.test(msg))
        return 'the server asks for a client certificate (mutual TLS): set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH';
    if (/unknownissuer|self.signed|unable to verify/.test(msg)) {
        return "the server's certificate is not trusted: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed it (and TEMPORAL_TLS_SERVER_NAME if it was issued for another name)";
    }
    if (/notvalidforname|not valid for name/.test(msg))
        return "the server's certificate is for another name: set TEMPORAL_TLS_SERVER_NAME to the name it was issued for";
    return undefined;
}
/** Wraps a failed connect with what was tried and what to change. */
async function explainConnectError(e, config) {
    const cause = e instanceof Error ? e.message : String(e);
    const tls = config.temporal.connection?.tls;
    const hint = hintFromCause(cause) ??
        (await (0, connection_probe_1.probeTls)(config.temporal.address, tls).catch(() => undefined)) ??
        (tls ? 'check the address, the TLS settings and the API key' : 'check TEMPORAL_ADDRESS; if the server expects TLS set TEMPORAL_TLS=true');
    return new TemporalConnectionError(`cannot connect to ${describe(config)}: ${hint}. (${cause})`, { cause: e });
}
async function connectTemporal(config) {
    await (0, reachability_1.ensureReachable)(config, ['temporal']); // one clear line in 2 s, not the SDK's 10 s deadline
    let connection;
    try {
        connection = await client_1.Connection.connect(temporalConnectionOptions(config));
    }
    catch (e) {
        throw await explainConnectError(e, config);
    }
    const client = new client_1.Client({ connection, namespace: config.temporal.namespace, dataConverter: (0, data_converter_1.evolutionDataConverter)(config), interceptors: (0, tracing_1.clientInterceptors)() });
    return { client, close: () => connection.close() };
}
//# sourceMappingURL=connection.js.map