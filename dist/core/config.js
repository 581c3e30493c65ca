"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CONFIG_VARIABLES = exports.ConfigError = exports.HUMAN_GATE_MODES = void 0;
exports.parseConfig = parseConfig;
const zod_1 = require("zod");
const duration_1 = require("./duration");
const human_policy_1 = require("./learning/gates/human-policy");
/**
 * Every setting of the system, read from environment variables (names below).
 * Parsing is pure: callers pass `process.env`. A bad value fails fast with the
 * variable's name in the message.
 */
const bool = zod_1.z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(v), 'must be true or false')
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const int = zod_1.z.string().trim().regex(/^-?\d+$/, 'must be an integer').transform(Number);
const ratio = zod_1.z
    .string()
    .trim()
    .transform(Number)
    .refine((n) => Number.isFinite(n) && n >= 0 && n <= 1, 'must be a number in [0,1]');
const duration = zod_1.z.string().transform((v, ctx) => {
    try {
        return (0, duration_1.parseDuration)(v);
    }
    catch (e) {
        ctx.addIssue({ code: 'custom', message: e.message });
        return zod_1.z.NEVER;
    }
});
const hostPort = zod_1.z.string().trim().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port');
const url = zod_1.z.url({ message: 'must be a URL' });
/** A mode name, or a JSON custom policy such as {"holdActions":["delete"],"holdNamePattern":"^deploy"}. */
const humanGatePolicy = zod_1.z.string().trim().transform((v, ctx) => {
    if (exports.HUMAN_GATE_MODES.includes(v))
        return v;
    if (v.startsWith('{')) {
        try {
            const r = human_policy_1.CustomHumanGatePolicySchema.safeParse(JSON.parse(v));
            if (r.success)
                return r.data;
            ctx.addIssue({ code: 'custom', message: `invalid custom policy: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
        }
        catch (e) {
            ctx.addIssue({ code: 'custom', message: `custom policy is not JSON: ${e.message}` });
        }
        return zod_1.z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: `must be one of ${exports.HUMAN_GATE_MODES.join(', ')} or a JSON custom policy` });
    return zod_1.z.NEVER;
});
exports.HUMAN_GATE_MODES = ['none', 'create_only', 'always'];
/** Env var name → schema (with defaults as strings, exactly as a user would type them). */
const ENV = {
    TEMPORAL_ADDRESS: hostPort.default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: zod_1.z.string().min(1).default('default'),
    EVOLUTION_TASK_QUEUE: zod_1.z.string().min(1).default('evolution'),
    EVOLUTION_EVALUATOR_TASK_QUEUE: zod_1.z.string().min(1).default('evolution-evaluator'),
    S3_ENDPOINT: url.default('http://127.0.0.1:8333'),
    S3_REGION: zod_1.z.string().min(1).default('us-east-1'),
    S3_BUCKET: zod_1.z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name').default('evolution'),
    S3_ACCESS_KEY_ID: zod_1.z.string().min(1).default('evolution'),
    S3_SECRET_ACCESS_KEY: zod_1.z.string().min(1).default('evolution-secret'),
    S3_FORCE_PATH_STYLE: bool.prefault('true'),
    OPENAI_BASE_URL: url.default('http://127.0.0.1:8787/v1'),
    OPENAI_API_KEY: zod_1.z.string().min(1).default('local-model-server'),
    EVOLUTION_REVIEWER_MODEL: zod_1.z.string().min(1).default('evolution-local-reviewer'),
    EVOLUTION_REFLECTOR_MODEL: zod_1.z.string().min(1).default('evolution-local-reflector'),
    EVOLUTION_LLM_TIMEOUT: duration.prefault('60s'),
    EVOLUTION_HUMAN_GATE: humanGatePolicy.prefault('create_only'),
    EVOLUTION_APPROVAL_TIMEOUT: duration.prefault('none'),
    EVOLUTION_SHADOW_MODE: bool.prefault('false'),
    EVOLUTION_MIN_TOOL_CALLS: int.prefault('4'),
    EVOLUTION_QUARANTINE_AFTER_FAILURES: int.refine((n) => n >= 1, 'must be at least 1').prefault('3'),
    EVOLUTION_EFFECTIVENESS_THRESHOLD: ratio.prefault('0.8'),
    EVOLUTION_SCOPE_MODE: zod_1.z.enum(['none', 'app', 'user']).default('app'),
    EVOLUTION_SESSION_IDLE_TIMEOUT: duration.prefault('10m').refine((ms) => ms !== undefined && ms > 0, 'must be a positive duration'),
    EVOLUTION_WORKER_CACHE_SIZE: int.prefault('200').refine((n) => n >= 0, 'must be 0 or more'),
    EVOLUTION_S3_CA_FILE: zod_1.z.string().min(1).optional(),
    EVOLUTION_OPENAI_CA_FILE: zod_1.z.string().min(1).optional(),
    EVOLUTION_METRICS_PORT: int.refine((n) => n >= 0 && n <= 65535, 'must be a port (0-65535)').optional(),
    EVOLUTION_LOG_FORMAT: zod_1.z.enum(['auto', 'json', 'pretty']).default('auto'),
    EVOLUTION_LOG_LEVEL: zod_1.z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
};
class ConfigError extends Error {
    name = 'ConfigError';
}
exports.ConfigError = ConfigError;
function parseConfig(env) {
    const problems = [];
    const out = {};
    for (const [name, schema] of Object.entries(ENV)) {
        const raw = env[name];
        const r = schema.safeParse(raw === '' ? undefined : raw);
        if (r.success)
            out[name] = r.data;
        else
            problems.push(`${name}=${JSON.stringify(raw)}: ${r.error.issues.map((i) => i.message).join('; ')}`);
    }
    if (problems.length)
        throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
    const p = out;
    return {
        temporal: {
            address: p.TEMPORAL_ADDRESS,
            namespace: p.TEMPORAL_NAMESPACE,
            taskQueue: p.EVOLUTION_TASK_QUEUE,
            evaluatorTaskQueue: p.EVOLUTION_EVALUATOR_TASK_QUEUE,
        },
        s3: {
            endpoint: p.S3_ENDPOINT,
            region: p.S3_REGION,
            bucket: p.S3_BUCKET,
            accessKeyId: p.S3_ACCESS_KEY_ID,
            secretAccessKey: p.S3_SECRET_ACCESS_KEY,
            forcePathStyle: p.S3_FORCE_PATH_STYLE,
            ...(p.EVOLUTION_S3_CA_FILE ? { caFile: p.EVOLUTION_S3_CA_FILE } : {}),
        },
        llm: {
            baseURL: p.OPENAI_BASE_URL,
            apiKey: p.OPENAI_API_KEY,
            reviewerModel: p.EVOLUTION_REVIEWER_MODEL,
            reflectorModel: p.EVOLUTION_REFLECTOR_MODEL,
            timeoutMs: p.EVOLUTION_LLM_TIMEOUT ?? 60_000,
            ...(p.EVOLUTION_OPENAI_CA_FILE ? { caFile: p.EVOLUTION_OPENAI_CA_FILE } : {}),
        },
        operations: {
            ...(p.EVOLUTION_METRICS_PORT !== undefined ? { metricsPort: p.EVOLUTION_METRICS_PORT } : {}),
            logFormat: p.EVOLUTION_LOG_FORMAT,
            logLevel: p.EVOLUTION_LOG_LEVEL,
        },
        governance: {
            humanGate: p.EVOLUTION_HUMAN_GATE,
            approvalTimeoutMs: p.EVOLUTION_APPROVAL_TIMEOUT,
            shadowMode: p.EVOLUTION_SHADOW_MODE,
            minToolCalls: p.EVOLUTION_MIN_TOOL_CALLS,
            quarantineAfterFailures: p.EVOLUTION_QUARANTINE_AFTER_FAILURES,
            effectivenessThreshold: p.EVOLUTION_EFFECTIVENESS_THRESHOLD,
            defaultScopeMode: p.EVOLUTION_SCOPE_MODE,
        },
        runtime: {
            sessionIdleTimeoutMs: p.EVOLUTION_SESSION_IDLE_TIMEOUT,
            maxCachedWorkflows: p.EVOLUTION_WORKER_CACHE_SIZE,
        },
    };
}
/** Names and defaults, for the README table and `evolution config`. */
exports.CONFIG_VARIABLES = Object.keys(ENV);
//# sourceMappingURL=config.js.map