import { z } from 'zod';
import { parseDuration } from './duration';
import { CustomHumanGatePolicySchema, type HumanGatePolicy } from './learning/gates/human-policy';
import { DEFAULT_ROLLOUT_SETTINGS, validateRolloutSettings, type RolloutSettings } from './rollout/decision';
import { parseCanaryPolicy, type CanaryPolicy } from './rollout/policy';

/**
 * Every setting of the system, read from environment variables (names below).
 * Parsing is pure: callers pass `process.env`. A bad value fails fast with the
 * variable's name in the message.
 */
const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(v), 'must be true or false')
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const int = z
  .string()
  .trim()
  .regex(/^-?\d+$/, 'must be an integer')
  .transform(Number);
const ratio = z
  .string()
  .trim()
  .transform(Number)
  .refine((n) => Number.isFinite(n) && n >= 0 && n <= 1, 'must be a number in [0,1]');
/** Percentage points (`5`, `2.5`) as a fraction. */
const percentagePoints = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be percentage points, e.g. 5 or 2.5')
  .transform(Number)
  .refine((n) => n < 100, 'must be less than 100')
  .transform((n) => n / 100);
const duration = z.string().transform((v, ctx) => {
  try {
    return parseDuration(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
    return z.NEVER;
  }
});
const hostPort = z
  .string()
  .trim()
  .regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port');
const url = z.url({ message: 'must be a URL' });
/** A mode name, or a JSON custom policy such as {"holdActions":["delete"],"holdNamePattern":"^deploy"}. */
const humanGatePolicy = z
  .string()
  .trim()
  .transform((v, ctx): HumanGatePolicy => {
    if ((HUMAN_GATE_MODES as readonly string[]).includes(v)) return v as (typeof HUMAN_GATE_MODES)[number];
    if (v.startsWith('{')) {
      try {
        const r = CustomHumanGatePolicySchema.safeParse(JSON.parse(v));
        if (r.success) return r.data;
        ctx.addIssue({ code: 'custom', message: `invalid custom policy: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `custom policy is not JSON: ${(e as Error).message}` });
      }
      return z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: `must be one of ${HUMAN_GATE_MODES.join(', ')} or a JSON custom policy` });
    return z.NEVER;
  });

export const HUMAN_GATE_MODES = ['none', 'create_only', 'always'] as const;

const canaryPolicy = z.string().transform((v, ctx): CanaryPolicy => {
  try {
    return parseCanaryPolicy(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
    return z.NEVER;
  }
});
/** Percentages, ascending, each in (0, 100): "5,25,50". */
const canarySteps = z.string().transform((v, ctx): number[] => {
  const steps = v.split(',').map((p) => Number(p.trim()) / 100);
  if (steps.some((f) => !(f > 0 && f < 1)) || steps.some((f, i) => i > 0 && f <= steps[i - 1]!)) {
    ctx.addIssue({ code: 'custom', message: 'must be ascending percentages in (0, 100), e.g. 5,25,50' });
    return z.NEVER;
  }
  return steps;
});
const positiveDuration = duration.refine((ms) => ms !== undefined && ms > 0, 'must be a positive duration');

/** Env var name → schema (with defaults as strings, exactly as a user would type them). */
const ENV = {
  TEMPORAL_ADDRESS: hostPort.default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  EVOLUTION_TASK_QUEUE: z.string().min(1).default('evolution'),
  EVOLUTION_EVALUATOR_TASK_QUEUE: z.string().min(1).default('evolution-evaluator'),
  // S3: the app's own S3_* names win over the standard AWS_* ones (which every AWS SDK in the
  // environment reads). Unset endpoint: AWS S3 itself. Unset keys: the AWS SDK's provider chain.
  S3_ENDPOINT: url.optional(),
  AWS_ENDPOINT_URL_S3: url.optional(),
  AWS_ENDPOINT_URL: url.optional(),
  S3_REGION: z.string().trim().min(1).optional(),
  AWS_REGION: z.string().trim().min(1).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('evolution'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_PROFILE: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  OPENAI_BASE_URL: url.default('http://127.0.0.1:8787/v1'),
  OPENAI_API_KEY: z.string().min(1).default('local-model-server'),
  EVOLUTION_REVIEWER_MODEL: z.string().min(1).default('evolution-local-reviewer'),
  EVOLUTION_REFLECTOR_MODEL: z.string().min(1).default('evolution-local-reflector'),
  EVOLUTION_JUDGE_MODEL: z.string().trim().min(1).optional(),
  EVOLUTION_LLM_TIMEOUT: duration.prefault('60s'),
  EVOLUTION_HUMAN_GATE: humanGatePolicy.prefault('create_only'),
  EVOLUTION_APPROVAL_TIMEOUT: duration.prefault('none'),
  EVOLUTION_APPROVAL_EXPIRY_ACTION: z.enum(['promote', 'reject']).default('reject'),
  EVOLUTION_SHADOW_MODE: bool.prefault('false'),
  EVOLUTION_CANARY: canaryPolicy.prefault('none'),
  EVOLUTION_CANARY_STEPS: canarySteps.prefault('5,25,50'),
  EVOLUTION_CANARY_MIN_SAMPLE: int.refine((n) => n >= 1, 'must be at least 1').prefault('100'),
  EVOLUTION_CANARY_MAX_DURATION: positiveDuration.prefault('7d'),
  EVOLUTION_CANARY_ON_EXPIRY: z.enum(['rollback', 'hold', 'promote']).default('rollback'),
  EVOLUTION_CANARY_CHECK_INTERVAL: positiveDuration.prefault('1m'),
  EVOLUTION_CANARY_MARGIN: percentagePoints.prefault('5'),
  EVOLUTION_CANARY_ALPHA: ratio.refine((n) => n > 0 && n <= 0.5, 'must be in (0, 0.5]').prefault('0.05'),
  EVOLUTION_MIN_TOOL_CALLS: int.prefault('4'),
  EVOLUTION_QUARANTINE_AFTER_FAILURES: int.refine((n) => n >= 1, 'must be at least 1').prefault('3'),
  EVOLUTION_EFFECTIVENESS_THRESHOLD: ratio.prefault('0.8'),
  EVOLUTION_SCOPE_MODE: z.enum(['none', 'app', 'user']).default('app'),
  EVOLUTION_SESSION_IDLE_TIMEOUT: duration.prefault('10m').refine((ms) => ms !== undefined && ms > 0, 'must be a positive duration'),
  EVOLUTION_STORAGE_OUTAGE_TOLERANCE: duration.prefault('24h').refine((ms) => ms !== undefined && ms > 0, 'must be a positive duration'),
  EVOLUTION_CLIENT_CONNECT_TIMEOUT: duration.prefault('10s').refine((ms) => ms !== undefined && ms > 0, 'must be a positive duration'),
  EVOLUTION_WORKER_CACHE_SIZE: int.prefault('200').refine((n) => n >= 0, 'must be 0 or more'),
  EVOLUTION_S3_CA_FILE: z.string().min(1).optional(),
  EVOLUTION_OPENAI_CA_FILE: z.string().min(1).optional(),
  EVOLUTION_METRICS_PORT: int.refine((n) => n >= 0 && n <= 65535, 'must be a port (0-65535)').optional(),
  EVOLUTION_LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  EVOLUTION_LOG_LEVEL: z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
} as const;

type EnvName = keyof typeof ENV;
type Parsed = { [K in EnvName]: z.output<(typeof ENV)[K]> };

/**
 * How to reach Temporal beyond its address: API key, TLS (server CA, server name, client
 * certificate for mTLS) and gRPC metadata, resolved from a Temporal config profile and the
 * standard TEMPORAL_* variables (runtime/connection.ts). Absent: plain connection.
 */
export interface TemporalConnectionSettings {
  apiKey?: string;
  /** true: TLS with the system trust store; false: explicitly off. */
  tls?: boolean | { serverNameOverride?: string; serverRootCACertificate?: Uint8Array; clientCertPair?: { crt: Uint8Array; key: Uint8Array } };
  metadata?: Record<string, string>;
}

export interface EvolutionConfig {
  /** AES-256 keys for Temporal payloads (runtime/codec); the first encrypts. Absent: plain payloads. */
  payloadKeys?: readonly { id: string; key: Uint8Array }[];
  /** With payload keys: refuse plaintext workflow inputs, signals and updates (default true; EVOLUTION_PAYLOAD_STRICT=false turns it off). */
  payloadStrict?: boolean;
  temporal: { address: string; namespace: string; taskQueue: string; evaluatorTaskQueue: string; connection?: TemporalConnectionSettings };
  s3: S3Settings;
  /** judgeModel: `evolution evaluate`'s optional judge (docs/evaluation.md). */
  llm: { baseURL: string; apiKey: string; reviewerModel: string; reflectorModel: string; judgeModel?: string; timeoutMs: number; caFile?: string };
  /** Worker process operations: metrics/health port (off when unset), log format and level. */
  operations?: { metricsPort?: number; logFormat: 'auto' | 'json' | 'pretty'; logLevel: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' };
  governance: {
    humanGate: HumanGatePolicy;
    /** Undefined: approvals wait forever. */
    approvalTimeoutMs?: number;
    /** What an approval timeout does to a low-risk revision (high-risk ones are always rejected). */
    approvalExpiryAction: 'promote' | 'reject';
    shadowMode: boolean;
    /** Staged rollout: which revisions publish as a canary (EVOLUTION_CANARY, default none) and how their rollout moves. */
    canary?: { policy: CanaryPolicy; rollout: RolloutSettings };
    /** Tool calls that make a delta worth reviewing; negative disables the rule. */
    minToolCalls: number;
    /** Failed reviews of the same delta after which the next job quarantines it. */
    quarantineAfterFailures: number;
    effectivenessThreshold: number;
    defaultScopeMode: 'none' | 'app' | 'user';
  };
  runtime: {
    /** How long an idle session entity waits for its next segment before completing. */
    sessionIdleTimeoutMs: number;
    /** Workflows a worker keeps cached (sticky); 0 disables the cache. */
    maxCachedWorkflows: number;
    /**
     * How long work that follows a decision (reviewer answer, approval, rollback, GEPA
     * submission) waits out storage, index and Temporal outages (default a day).
     */
    storageOutageToleranceMs?: number;
    /**
     * How long a client call waits for Temporal or S3 before it throws a ServiceUnavailableError
     * (the deadline of its Temporal requests; waits check reachability within it first).
     */
    clientConnectTimeoutMs?: number;
  };
}

/**
 * Where the object store is and how to authenticate to it. Absent endpoint: AWS S3 (the SDK
 * resolves it from the region). Absent keys: the AWS SDK's default credential provider chain
 * (environment, shared config and credentials files with `profile`, SSO, web identity, ECS and
 * EKS Pod Identity, EC2 instance metadata). Absent region: the profile's, else us-east-1.
 */
export interface S3Settings {
  endpoint?: string;
  region?: string;
  bucket: string;
  /** Static keys for this store only (S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY): always both or neither. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The shared-config profile the provider chain reads (AWS_PROFILE); named in credential errors. */
  profile?: string;
  forcePathStyle: boolean;
  /** PEM bundle trusted for an https endpoint signed by a private CA. */
  caFile?: string;
}

/** The endpoint requests go to: the configured one, else AWS S3's in the configured region (a profile's region aside). */
export function s3EndpointOf(s3: Pick<S3Settings, 'endpoint' | 'region'>): string {
  return s3.endpoint ?? `https://s3.${s3.region ?? 'us-east-1'}.amazonaws.com`;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(env: Record<string, string | undefined>): EvolutionConfig {
  const problems: string[] = [];
  const out = {} as Record<string, unknown>;
  for (const [name, schema] of Object.entries(ENV)) {
    const raw = env[name];
    const r = (schema as z.ZodType).safeParse(raw === '' ? undefined : raw);
    if (r.success) out[name] = r.data;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${r.error.issues.map((i) => i.message).join('; ')}`);
  }
  const p = out as Parsed;
  if (problems.length === 0 && (p.S3_ACCESS_KEY_ID === undefined) !== (p.S3_SECRET_ACCESS_KEY === undefined)) {
    const [set, unset] = p.S3_ACCESS_KEY_ID === undefined ? ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'] : ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
    problems.push(`${set} is set but ${unset} is not: set both, or neither to use the AWS SDK's credential chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, a role …)`);
  }
  if (problems.length) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const s3Endpoint = p.S3_ENDPOINT ?? p.AWS_ENDPOINT_URL_S3 ?? p.AWS_ENDPOINT_URL;
  const s3Region = p.S3_REGION ?? p.AWS_REGION;
  return {
    temporal: {
      address: p.TEMPORAL_ADDRESS,
      namespace: p.TEMPORAL_NAMESPACE,
      taskQueue: p.EVOLUTION_TASK_QUEUE,
      evaluatorTaskQueue: p.EVOLUTION_EVALUATOR_TASK_QUEUE,
    },
    s3: {
      ...(s3Endpoint ? { endpoint: s3Endpoint } : {}),
      ...(s3Region ? { region: s3Region } : {}),
      bucket: p.S3_BUCKET,
      ...(p.S3_ACCESS_KEY_ID && p.S3_SECRET_ACCESS_KEY ? { accessKeyId: p.S3_ACCESS_KEY_ID, secretAccessKey: p.S3_SECRET_ACCESS_KEY } : {}),
      ...(p.AWS_PROFILE ? { profile: p.AWS_PROFILE } : {}),
      // S3-compatible servers are addressed path-style unless told otherwise; AWS S3 virtual-hosted.
      forcePathStyle: p.S3_FORCE_PATH_STYLE ?? s3Endpoint !== undefined,
      ...(p.EVOLUTION_S3_CA_FILE ? { caFile: p.EVOLUTION_S3_CA_FILE } : {}),
    },
    llm: {
      baseURL: p.OPENAI_BASE_URL,
      apiKey: p.OPENAI_API_KEY,
      reviewerModel: p.EVOLUTION_REVIEWER_MODEL,
      reflectorModel: p.EVOLUTION_REFLECTOR_MODEL,
      ...(p.EVOLUTION_JUDGE_MODEL ? { judgeModel: p.EVOLUTION_JUDGE_MODEL } : {}),
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
      approvalExpiryAction: p.EVOLUTION_APPROVAL_EXPIRY_ACTION,
      shadowMode: p.EVOLUTION_SHADOW_MODE,
      canary: {
        policy: p.EVOLUTION_CANARY,
        rollout: validateRolloutSettings({
          ...DEFAULT_ROLLOUT_SETTINGS,
          steps: p.EVOLUTION_CANARY_STEPS,
          minSamplePerCohort: p.EVOLUTION_CANARY_MIN_SAMPLE,
          maxDurationMs: p.EVOLUTION_CANARY_MAX_DURATION!,
          onExpiry: p.EVOLUTION_CANARY_ON_EXPIRY,
          checkIntervalMs: p.EVOLUTION_CANARY_CHECK_INTERVAL!,
          nonInferiorityMargin: p.EVOLUTION_CANARY_MARGIN,
          alpha: p.EVOLUTION_CANARY_ALPHA,
        }),
      },
      minToolCalls: p.EVOLUTION_MIN_TOOL_CALLS,
      quarantineAfterFailures: p.EVOLUTION_QUARANTINE_AFTER_FAILURES,
      effectivenessThreshold: p.EVOLUTION_EFFECTIVENESS_THRESHOLD,
      defaultScopeMode: p.EVOLUTION_SCOPE_MODE,
    },
    runtime: {
      sessionIdleTimeoutMs: p.EVOLUTION_SESSION_IDLE_TIMEOUT!,
      maxCachedWorkflows: p.EVOLUTION_WORKER_CACHE_SIZE,
      storageOutageToleranceMs: p.EVOLUTION_STORAGE_OUTAGE_TOLERANCE!,
      clientConnectTimeoutMs: p.EVOLUTION_CLIENT_CONNECT_TIMEOUT!,
    },
  };
}
