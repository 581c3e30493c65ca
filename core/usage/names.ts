/** Names shared by the scope usage workflow and the code that signals it (activities may not import workflows/). */
export const SCOPE_USAGE_WORKFLOW = 'scopeUsageWorkflow';
export const SCOPE_USAGE_SIGNAL = 'usageRecorded';
/** Records of governance writes and sessions (core/usage/records.ts), each signal carrying one activity's batches. */
export const SCOPE_RECORDS_SIGNAL = 'scopeRecorded';
