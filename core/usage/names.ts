/** Names shared by the scope usage workflow and the code that signals it (activities may not import workflows/). */
export const SCOPE_USAGE_WORKFLOW = 'scopeUsageWorkflow';
export const SCOPE_USAGE_SIGNAL = 'usageRecorded';
/** Records of governance writes and sessions (core/usage/records.ts), each signal carrying one activity's batches. */
export const SCOPE_RECORDS_SIGNAL = 'scopeRecorded';

/**
 * The least time between two writes of a scope's usage summary while records keep arriving.
 * Each burst rewrites the whole summary (its size follows the scope's skills: 170 KB at 200
 * skills); unspaced, a busy scope wrote it once per signal, about every second job. The first
 * burst after a quiet spell is not delayed; what arrives within the interval waits at most
 * this long to be counted.
 */
export const USAGE_BURST_INTERVAL_MS = 1_000;
